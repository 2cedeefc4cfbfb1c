module @jit_elementwise_f64_unary_exact attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<60xf64>) -> (tensor<60xf64> {jax.result_info = "result[0]"}, tensor<60xf64> {jax.result_info = "result[1]"}, tensor<60xf64> {jax.result_info = "result[2]"}, tensor<60xf64> {jax.result_info = "result[3]"}, tensor<60xf64> {jax.result_info = "result[4]"}, tensor<60xf64> {jax.result_info = "result[5]"}, tensor<60xf64> {jax.result_info = "result[6]"}, tensor<60xf64> {jax.result_info = "result[7]"}, tensor<60xi1> {jax.result_info = "result[8]"}, tensor<60xf64> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.abs %arg0 : tensor<60xf64>
    %1 = stablehlo.negate %arg0 : tensor<60xf64>
    %2 = stablehlo.sign %arg0 : tensor<60xf64>
    %3 = stablehlo.floor %arg0 : tensor<60xf64>
    %4 = stablehlo.ceil %arg0 : tensor<60xf64>
    %5 = call @round(%arg0) : (tensor<60xf64>) -> tensor<60xf64>
    %6 = stablehlo.round_nearest_afz %arg0 : tensor<60xf64>
    %7 = stablehlo.sqrt %arg0 : tensor<60xf64>
    %8 = stablehlo.is_finite %arg0 : (tensor<60xf64>) -> tensor<60xi1>
    %9 = call @trunc(%arg0) : (tensor<60xf64>) -> tensor<60xf64>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<60xf64>, tensor<60xf64>, tensor<60xf64>, tensor<60xf64>, tensor<60xf64>, tensor<60xf64>, tensor<60xf64>, tensor<60xf64>, tensor<60xi1>, tensor<60xf64>
  }
  func.func private @round(%arg0: tensor<60xf64>) -> tensor<60xf64> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<60xf64>
    return %0 : tensor<60xf64>
  }
  func.func private @trunc(%arg0: tensor<60xf64>) -> tensor<60xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<60xf64>
    %1 = stablehlo.compare LT, %arg0, %0, FLOAT : (tensor<60xf64>, tensor<60xf64>) -> tensor<60xi1>
    %2 = stablehlo.ceil %arg0 : tensor<60xf64>
    %3 = stablehlo.floor %arg0 : tensor<60xf64>
    %4 = call @_where(%1, %2, %3) : (tensor<60xi1>, tensor<60xf64>, tensor<60xf64>) -> tensor<60xf64>
    return %4 : tensor<60xf64>
  }
  func.func private @_where(%arg0: tensor<60xi1>, %arg1: tensor<60xf64>, %arg2: tensor<60xf64>) -> tensor<60xf64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<60xi1>, tensor<60xf64>
    return %0 : tensor<60xf64>
  }
}
