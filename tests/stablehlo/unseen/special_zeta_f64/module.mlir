module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf64>, %arg1: tensor<6xf64>) -> (tensor<6xf64> {jax.result_info = "result[0]"}, tensor<6xf64> {jax.result_info = "result[1]"}, tensor<6xf64> {jax.result_info = "result[2]"}, tensor<6xf64> {jax.result_info = "result[3]"}, tensor<6xf64> {jax.result_info = "result[4]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %1 = chlo.polygamma %0, %arg1 : tensor<6xf64>, tensor<6xf64> -> tensor<6xf64>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %3 = stablehlo.add %arg1, %2 : tensor<6xf64>
    %4 = chlo.zeta %3, %arg1 : tensor<6xf64>, tensor<6xf64> -> tensor<6xf64>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %6 = chlo.polygamma %5, %arg1 : tensor<6xf64>, tensor<6xf64> -> tensor<6xf64>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %7 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %8 = chlo.polygamma %7, %arg1 : tensor<6xf64>, tensor<6xf64> -> tensor<6xf64>
    %cst_3 = stablehlo.constant dense<4.000000e+00> : tensor<f64>
    %9 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %10 = stablehlo.multiply %arg0, %9 : tensor<6xf64>
    %11 = chlo.bessel_i1e %10 : tensor<6xf64> -> tensor<6xf64>
    return %1, %4, %6, %8, %11 : tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>
  }
}
