module @jit_elementwise_f32_unary_exact attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<60xf32>) -> (tensor<60xf32> {jax.result_info = "result[0]"}, tensor<60xf32> {jax.result_info = "result[1]"}, tensor<60xf32> {jax.result_info = "result[2]"}, tensor<60xf32> {jax.result_info = "result[3]"}, tensor<60xf32> {jax.result_info = "result[4]"}, tensor<60xf32> {jax.result_info = "result[5]"}, tensor<60xf32> {jax.result_info = "result[6]"}, tensor<60xf32> {jax.result_info = "result[7]"}, tensor<60xi1> {jax.result_info = "result[8]"}, tensor<60xf32> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.abs %arg0 : tensor<60xf32>
    %1 = stablehlo.negate %arg0 : tensor<60xf32>
    %2 = stablehlo.sign %arg0 : tensor<60xf32>
    %3 = stablehlo.floor %arg0 : tensor<60xf32>
    %4 = stablehlo.ceil %arg0 : tensor<60xf32>
    %5 = call @round(%arg0) : (tensor<60xf32>) -> tensor<60xf32>
    %6 = stablehlo.round_nearest_afz %arg0 : tensor<60xf32>
    %7 = stablehlo.sqrt %arg0 : tensor<60xf32>
    %8 = stablehlo.is_finite %arg0 : (tensor<60xf32>) -> tensor<60xi1>
    %9 = call @trunc(%arg0) : (tensor<60xf32>) -> tensor<60xf32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xi1>, tensor<60xf32>
  }
  func.func private @round(%arg0: tensor<60xf32>) -> tensor<60xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<60xf32>
    return %0 : tensor<60xf32>
  }
  func.func private @trunc(%arg0: tensor<60xf32>) -> tensor<60xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<60xf32>
    %1 = stablehlo.compare LT, %arg0, %0, FLOAT : (tensor<60xf32>, tensor<60xf32>) -> tensor<60xi1>
    %2 = stablehlo.ceil %arg0 : tensor<60xf32>
    %3 = stablehlo.floor %arg0 : tensor<60xf32>
    %4 = call @_where(%1, %2, %3) : (tensor<60xi1>, tensor<60xf32>, tensor<60xf32>) -> tensor<60xf32>
    return %4 : tensor<60xf32>
  }
  func.func private @_where(%arg0: tensor<60xi1>, %arg1: tensor<60xf32>, %arg2: tensor<60xf32>) -> tensor<60xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<60xi1>, tensor<60xf32>
    return %0 : tensor<60xf32>
  }
}
