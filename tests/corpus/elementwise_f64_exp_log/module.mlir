module @jit_elementwise_f64_exp_log attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<69xf64>, %arg1: tensor<94xf64>) -> (tensor<69xf64> {jax.result_info = "result[0]"}, tensor<69xf64> {jax.result_info = "result[1]"}, tensor<69xf64> {jax.result_info = "result[2]"}, tensor<69xf64> {jax.result_info = "result[3]"}, tensor<69xf64> {jax.result_info = "result[4]"}, tensor<94xf64> {jax.result_info = "result[5]"}, tensor<94xf64> {jax.result_info = "result[6]"}, tensor<94xf64> {jax.result_info = "result[7]"}, tensor<94xf64> {jax.result_info = "result[8]"}, tensor<69xf64> {jax.result_info = "result[9]"}, tensor<94xf64> {jax.result_info = "result[10]"}, tensor<94xf64> {jax.result_info = "result[11]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<69xf64>
    %1 = stablehlo.exponential_minus_one %arg0 : tensor<69xf64>
    %2 = stablehlo.log %arg0 : tensor<69xf64>
    %3 = stablehlo.log_plus_one %arg0 : tensor<69xf64>
    %4 = stablehlo.negate %arg0 : tensor<69xf64>
    %5 = stablehlo.exponential %4 : tensor<69xf64>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<69xf64>
    %7 = stablehlo.add %6, %5 : tensor<69xf64>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<69xf64>
    %9 = stablehlo.divide %8, %7 : tensor<69xf64>
    %10 = stablehlo.exponential %arg1 : tensor<94xf64>
    %11 = stablehlo.log %arg1 : tensor<94xf64>
    %12 = stablehlo.log_plus_one %arg1 : tensor<94xf64>
    %cst_1 = stablehlo.constant dense<1.000000e-03> : tensor<f64>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<94xf64>
    %14 = stablehlo.multiply %arg1, %13 : tensor<94xf64>
    %15 = stablehlo.exponential_minus_one %14 : tensor<94xf64>
    %cst_2 = stablehlo.constant dense<0.69314718055994529> : tensor<f64>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<69xf64>
    %17 = stablehlo.multiply %16, %arg0 : tensor<69xf64>
    %18 = stablehlo.exponential %17 : tensor<69xf64>
    %19 = stablehlo.log %arg1 : tensor<94xf64>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %20 = stablehlo.log %cst_3 : tensor<f64>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<f64>) -> tensor<94xf64>
    %22 = stablehlo.divide %19, %21 : tensor<94xf64>
    %23 = stablehlo.log %arg1 : tensor<94xf64>
    %cst_4 = stablehlo.constant dense<0.43429448190325182> : tensor<f64>
    %24 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<94xf64>
    %25 = stablehlo.multiply %23, %24 : tensor<94xf64>
    return %0, %1, %2, %3, %9, %10, %11, %12, %15, %18, %22, %25 : tensor<69xf64>, tensor<69xf64>, tensor<69xf64>, tensor<69xf64>, tensor<69xf64>, tensor<94xf64>, tensor<94xf64>, tensor<94xf64>, tensor<94xf64>, tensor<69xf64>, tensor<94xf64>, tensor<94xf64>
  }
}
