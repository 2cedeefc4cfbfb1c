module @jit_elementwise_f32_special attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<40xf32>, %arg1: tensor<40xf32>, %arg2: tensor<40xf32>) -> (tensor<40xf32> {jax.result_info = "result[0]"}, tensor<40xf32> {jax.result_info = "result[1]"}, tensor<40xf32> {jax.result_info = "result[2]"}, tensor<40xf32> {jax.result_info = "result[3]"}, tensor<40xf32> {jax.result_info = "result[4]"}, tensor<40xf32> {jax.result_info = "result[5]"}, tensor<40xf32> {jax.result_info = "result[6]"}, tensor<40xf32> {jax.result_info = "result[7]"}, tensor<40xf32> {jax.result_info = "result[8]"}, tensor<40xf32> {jax.result_info = "result[9]"}, tensor<40xf32> {jax.result_info = "result[10]"}, tensor<40xf32> {jax.result_info = "result[11]"}, tensor<40xf32> {jax.result_info = "result[12]"}) {
    %0 = stablehlo.rsqrt %arg2 : tensor<40xf32>
    %1 = stablehlo.cbrt %arg0 : tensor<40xf32>
    %2 = chlo.erf %arg0 : tensor<40xf32> -> tensor<40xf32>
    %3 = chlo.erf_inv %arg1 : tensor<40xf32> -> tensor<40xf32>
    %cst = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<40xf32>
    %5 = stablehlo.multiply %arg1, %4 : tensor<40xf32>
    %6 = chlo.sinh %5 : tensor<40xf32> -> tensor<40xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<40xf32>
    %8 = stablehlo.multiply %arg1, %7 : tensor<40xf32>
    %9 = chlo.cosh %8 : tensor<40xf32> -> tensor<40xf32>
    %10 = chlo.asinh %arg0 : tensor<40xf32> -> tensor<40xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<40xf32>
    %12 = stablehlo.add %arg2, %11 : tensor<40xf32>
    %13 = chlo.acosh %12 : tensor<40xf32> -> tensor<40xf32>
    %14 = chlo.atanh %arg1 : tensor<40xf32> -> tensor<40xf32>
    %15 = chlo.asin %arg1 : tensor<40xf32> -> tensor<40xf32>
    %16 = chlo.acos %arg1 : tensor<40xf32> -> tensor<40xf32>
    %17 = chlo.lgamma %arg2 : tensor<40xf32> -> tensor<40xf32>
    %18 = chlo.digamma %arg2 : tensor<40xf32> -> tensor<40xf32>
    return %0, %1, %2, %3, %6, %9, %10, %13, %14, %15, %16, %17, %18 : tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>
  }
}
