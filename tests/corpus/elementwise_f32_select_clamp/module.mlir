module @jit_elementwise_f32_select_clamp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xi1>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<32xf32>, %arg4: tensor<32xf32>) -> (tensor<32xf32> {jax.result_info = "result[0]"}, tensor<32xf32> {jax.result_info = "result[1]"}, tensor<32xf32> {jax.result_info = "result[2]"}, tensor<32xf32> {jax.result_info = "result[3]"}, tensor<32xf32> {jax.result_info = "result[4]"}, tensor<32xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<32xi1>, tensor<32xf32>
    %cst = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %3 = stablehlo.clamp %1, %arg1, %2 : tensor<32xf32>
    %4 = stablehlo.clamp %arg3, %arg1, %arg4 : tensor<32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %6 = stablehlo.compare GT, %arg1, %5, FLOAT : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xi1>
    %cst_2 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %8 = stablehlo.multiply %7, %arg1 : tensor<32xf32>
    %9 = call @_where(%6, %arg1, %8) : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %cst_3 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %10 = call @clip(%arg1, %cst_3, %cst_4) : (tensor<32xf32>, tensor<f64>, tensor<f64>) -> tensor<32xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %11 = call @_where_0(%arg0, %arg1, %cst_5) : (tensor<32xi1>, tensor<32xf32>, tensor<f64>) -> tensor<32xf32>
    return %0, %3, %4, %9, %10, %11 : tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>
  }
  func.func private @_where(%arg0: tensor<32xi1>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>) -> tensor<32xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<32xi1>, tensor<32xf32>
    return %0 : tensor<32xf32>
  }
  func.func private @clip(%arg0: tensor<32xf32>, %arg1: tensor<f64>, %arg2: tensor<f64>) -> tensor<32xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<32xf32>
    %3 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<32xf32>
    return %5 : tensor<32xf32>
  }
  func.func private @_where_0(%arg0: tensor<32xi1>, %arg1: tensor<32xf32>, %arg2: tensor<f64>) -> tensor<32xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<32xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<32xi1>, tensor<32xf32>
    return %2 : tensor<32xf32>
  }
}
