module @jit_nn_activations attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<4x8xf32>, %arg2: tensor<8xf32>) -> (tensor<64xf32> {jax.result_info = "result[0]"}, tensor<64xf32> {jax.result_info = "result[1]"}, tensor<64xf32> {jax.result_info = "result[2]"}, tensor<64xf32> {jax.result_info = "result[3]"}, tensor<64xf32> {jax.result_info = "result[4]"}, tensor<64xf32> {jax.result_info = "result[5]"}, tensor<64xf32> {jax.result_info = "result[6]"}, tensor<64xf32> {jax.result_info = "result[7]"}, tensor<64xf32> {jax.result_info = "result[8]"}, tensor<4x8xf32> {jax.result_info = "result[9]"}, tensor<4x8xf32> {jax.result_info = "result[10]"}, tensor<4x8xf32> {jax.result_info = "result[11]"}, tensor<4x8xf32> {jax.result_info = "result[12]"}) {
    %0 = call @relu(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %1 = call @relu6(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %2 = call @silu(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %3 = call @softplus(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %4 = call @elu(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %5 = call @leaky_relu(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %6 = stablehlo.negate %arg0 : tensor<64xf32>
    %7 = stablehlo.exponential %6 : tensor<64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %9 = stablehlo.add %8, %7 : tensor<64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %11 = stablehlo.divide %10, %9 : tensor<64xf32>
    %12 = call @hard_tanh(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %13 = call @log_sigmoid(%arg0) : (tensor<64xf32>) -> tensor<64xf32>
    %cst_1 = stablehlo.constant dense<-1.000000e+00> : tensor<f64>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %14 = call @clip(%arg1, %cst_1, %cst_2) : (tensor<4x8xf32>, tensor<f64>, tensor<f64>) -> tensor<4x8xf32>
    %15 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<4x8xf32>
    %17 = stablehlo.compare GT, %arg1, %16, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %18 = call @_where_2(%17, %arg1, %arg2) : (tensor<4x8xi1>, tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %20 = stablehlo.maximum %arg1, %19 : tensor<4x8xf32>
    %21 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %22 = call @_where_3(%21, %cst_4, %arg1) : (tensor<4x8xi1>, tensor<f64>, tensor<4x8xf32>) -> tensor<4x8xf32>
    return %0, %1, %2, %3, %4, %5, %11, %12, %13, %14, %18, %20, %22 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  }
  func.func private @relu(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<64xf32>
    return %1 : tensor<64xf32>
  }
  func.func private @relu6(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<64xf32>
    %cst_0 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.minimum %1, %2 : tensor<64xf32>
    return %3 : tensor<64xf32>
  }
  func.func private @silu(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = stablehlo.negate %arg0 : tensor<64xf32>
    %1 = stablehlo.exponential %0 : tensor<64xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.add %2, %1 : tensor<64xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %5 = stablehlo.divide %4, %3 : tensor<64xf32>
    %6 = stablehlo.multiply %arg0, %5 : tensor<64xf32>
    return %6 : tensor<64xf32>
  }
  func.func private @softplus(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<64xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.subtract %arg0, %2 : tensor<64xf32>
    %4 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<64xf32>
    %7 = stablehlo.abs %3 : tensor<64xf32>
    %8 = stablehlo.negate %7 : tensor<64xf32>
    %9 = stablehlo.exponential %8 : tensor<64xf32>
    %10 = stablehlo.log_plus_one %9 : tensor<64xf32>
    %11 = stablehlo.add %1, %10 : tensor<64xf32>
    %12 = stablehlo.select %4, %6, %11 : tensor<64xi1>, tensor<64xf32>
    return %12 : tensor<64xf32>
  }
  func.func private @elu(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.compare GT, %arg0, %2, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %4 = call @_where(%3, %cst_1, %arg0) : (tensor<64xi1>, tensor<f64>, tensor<64xf32>) -> tensor<64xf32>
    %5 = stablehlo.exponential_minus_one %4 : tensor<64xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %7 = stablehlo.multiply %6, %5 : tensor<64xf32>
    %8 = call @_where_0(%1, %arg0, %7) : (tensor<64xi1>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %8 : tensor<64xf32>
  }
  func.func private @_where(%arg0: tensor<64xi1>, %arg1: tensor<f64>, %arg2: tensor<64xf32>) -> tensor<64xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<64xi1>, tensor<64xf32>
    return %2 : tensor<64xf32>
  }
  func.func private @_where_0(%arg0: tensor<64xi1>, %arg1: tensor<64xf32>, %arg2: tensor<64xf32>) -> tensor<64xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<64xi1>, tensor<64xf32>
    return %0 : tensor<64xf32>
  }
  func.func private @leaky_relu(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.compare GE, %arg0, %0, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
    %cst_0 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.multiply %2, %arg0 : tensor<64xf32>
    %4 = call @_where_0(%1, %arg0, %3) : (tensor<64xi1>, tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %4 : tensor<64xf32>
  }
  func.func private @hard_tanh(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %3 = stablehlo.compare LT, %arg0, %2, FLOAT : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xi1>
    %c = stablehlo.constant dense<-1> : tensor<i64>
    %4 = call @_where_1(%3, %c, %arg0) : (tensor<64xi1>, tensor<i64>, tensor<64xf32>) -> tensor<64xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i64>
    %5 = call @_where_1(%1, %c_1, %4) : (tensor<64xi1>, tensor<i64>, tensor<64xf32>) -> tensor<64xf32>
    return %5 : tensor<64xf32>
  }
  func.func private @_where_1(%arg0: tensor<64xi1>, %arg1: tensor<i64>, %arg2: tensor<64xf32>) -> tensor<64xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<64xi1>, tensor<64xf32>
    return %2 : tensor<64xf32>
  }
  func.func private @log_sigmoid(%arg0: tensor<64xf32>) -> tensor<64xf32> {
    %0 = stablehlo.negate %arg0 : tensor<64xf32>
    %1 = call @softplus(%0) : (tensor<64xf32>) -> tensor<64xf32>
    %2 = stablehlo.negate %1 : tensor<64xf32>
    return %2 : tensor<64xf32>
  }
  func.func private @clip(%arg0: tensor<4x8xf32>, %arg1: tensor<f64>, %arg2: tensor<f64>) -> tensor<4x8xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<4x8xf32>
    %3 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<4x8xf32>
    return %5 : tensor<4x8xf32>
  }
  func.func private @_where_2(%arg0: tensor<4x8xi1>, %arg1: tensor<4x8xf32>, %arg2: tensor<8xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<4x8xi1>, tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func private @_where_3(%arg0: tensor<4x8xi1>, %arg1: tensor<f64>, %arg2: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<4x8xi1>, tensor<4x8xf32>
    return %2 : tensor<4x8xf32>
  }
}
