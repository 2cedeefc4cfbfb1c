module @jit_nn_mean_var attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6x8xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<4x8xf32> {jax.result_info = "result[2]"}, tensor<4x6xf32> {jax.result_info = "result[3]"}, tensor<6x8xf32> {jax.result_info = "result[4]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<1.920000e+02> : tensor<f32>
    %1 = stablehlo.divide %0, %cst_0 : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [0, 2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %4 = stablehlo.divide %2, %3 : tensor<6xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %5 = call @_var(%arg0, %c) : (tensor<4x6x8xf32>, tensor<i64>) -> tensor<4x8xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %6 = call @_std(%arg0, %c_3) : (tensor<4x6x8xf32>, tensor<i64>) -> tensor<4x6xf32>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %7 = call @_var_2(%arg0, %c_4) : (tensor<4x6x8xf32>, tensor<i64>) -> tensor<6x8xf32>
    return %1, %4, %5, %6, %7 : tensor<f32>, tensor<6xf32>, tensor<4x8xf32>, tensor<4x6xf32>, tensor<6x8xf32>
  }
  func.func private @_var(%arg0: tensor<4x6x8xf32>, %arg1: tensor<i64>) -> tensor<4x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 2] : (tensor<4x8xf32>) -> tensor<4x1x8xf32>
    %cst_0 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x1x8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x1x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x1x8xf32>) -> tensor<4x6x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x6x8xf32>
    %6 = chlo.square %5 : tensor<4x6x8xf32> -> tensor<4x6x8xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4x8xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %11 = stablehlo.divide %9, %10 : tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %13 = call @_where(%12, %11, %cst_4) : (tensor<i1>, tensor<4x8xf32>, tensor<f64>) -> tensor<4x8xf32>
    return %13 : tensor<4x8xf32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<4x8xf32>, %arg2: tensor<f64>) -> tensor<4x8xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<4x8xf32>
    return %2 : tensor<4x8xf32>
  }
  func.func private @_std(%arg0: tensor<4x6x8xf32>, %arg1: tensor<i64>) -> tensor<4x6xf32> {
    %0 = call @_var_0(%arg0, %arg1) : (tensor<4x6x8xf32>, tensor<i64>) -> tensor<4x6xf32>
    %1 = stablehlo.sqrt %0 : tensor<4x6xf32>
    return %1 : tensor<4x6xf32>
  }
  func.func private @_var_0(%arg0: tensor<4x6x8xf32>, %arg1: tensor<i64>) -> tensor<4x6xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4x6xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<4x6xf32>) -> tensor<4x6x1xf32>
    %cst_0 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x6x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x6x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<4x6x1xf32>) -> tensor<4x6x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x6x8xf32>
    %6 = chlo.square %5 : tensor<4x6x8xf32> -> tensor<4x6x8xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<4x6xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %11 = stablehlo.divide %9, %10 : tensor<4x6xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %13 = call @_where_1(%12, %11, %cst_4) : (tensor<i1>, tensor<4x6xf32>, tensor<f64>) -> tensor<4x6xf32>
    return %13 : tensor<4x6xf32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<4x6xf32>, %arg2: tensor<f64>) -> tensor<4x6xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<4x6xf32>
    return %2 : tensor<4x6xf32>
  }
  func.func private @_var_2(%arg0: tensor<4x6x8xf32>, %arg1: tensor<i64>) -> tensor<6x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<6x8xf32>) -> tensor<1x6x8xf32>
    %cst_0 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x6x8xf32>
    %3 = stablehlo.divide %1, %2 : tensor<1x6x8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<1x6x8xf32>) -> tensor<4x6x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x6x8xf32>
    %6 = chlo.square %5 : tensor<4x6x8xf32> -> tensor<4x6x8xf32>
    %7 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %8 = stablehlo.subtract %cst_1, %7 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<4x6x8xf32>, tensor<f32>) -> tensor<6x8xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<6x8xf32>
    %11 = stablehlo.divide %9, %10 : tensor<6x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.compare GT, %8, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %13 = call @_where_3(%12, %11, %cst_4) : (tensor<i1>, tensor<6x8xf32>, tensor<f64>) -> tensor<6x8xf32>
    return %13 : tensor<6x8xf32>
  }
  func.func private @_where_3(%arg0: tensor<i1>, %arg1: tensor<6x8xf32>, %arg2: tensor<f64>) -> tensor<6x8xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<6x8xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<6x8xf32>
    return %2 : tensor<6x8xf32>
  }
}
