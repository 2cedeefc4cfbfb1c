module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<6xf32> {jax.result_info = "result[2]"}, tensor<6xf32> {jax.result_info = "result[3]"}, tensor<6xf32> {jax.result_info = "result[4]"}, tensor<6xf32> {jax.result_info = "result[5]"}, tensor<6xf32> {jax.result_info = "result[6]"}, tensor<6xf32> {jax.result_info = "result[7]"}, tensor<6xf32> {jax.result_info = "result[8]"}, tensor<6xf32> {jax.result_info = "result[9]"}, tensor<6xi1> {jax.result_info = "result[10]"}, tensor<6xf32> {jax.result_info = "result[11]"}) {
    %0 = chlo.lgamma %arg1 : tensor<6xf32> -> tensor<6xf32>
    %1 = chlo.digamma %arg1 : tensor<6xf32> -> tensor<6xf32>
    %2 = stablehlo.tanh %arg0 : tensor<6xf32>
    %3 = chlo.erf_inv %2 : tensor<6xf32> -> tensor<6xf32>
    %4 = chlo.erfc %arg0 : tensor<6xf32> -> tensor<6xf32>
    %5 = chlo.sinh %arg0 : tensor<6xf32> -> tensor<6xf32>
    %6 = chlo.cosh %arg0 : tensor<6xf32> -> tensor<6xf32>
    %7 = chlo.atan %arg0 : tensor<6xf32> -> tensor<6xf32>
    %8 = chlo.asinh %arg0 : tensor<6xf32> -> tensor<6xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %10 = stablehlo.add %arg1, %9 : tensor<6xf32>
    %11 = call @arccosh(%10) : (tensor<6xf32>) -> tensor<6xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %13 = stablehlo.multiply %arg0, %12 : tensor<6xf32>
    %14 = stablehlo.tan %13 : tensor<6xf32>
    %15 = stablehlo.subtract %arg0, %arg0 : tensor<6xf32>
    %16 = stablehlo.divide %arg0, %15 : tensor<6xf32>
    %17 = call @isinf(%16) : (tensor<6xf32>) -> tensor<6xi1>
    %18 = chlo.next_after %arg0, %arg1 : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
    return %0, %1, %3, %4, %5, %6, %7, %8, %11, %14, %17, %18 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xi1>, tensor<6xf32>
  }
  func.func private @arccosh(%arg0: tensor<6xf32>) -> tensor<6xf32> {
    %0 = chlo.acosh %arg0 : tensor<6xf32> -> tensor<6xf32>
    return %0 : tensor<6xf32>
  }
  func.func private @isinf(%arg0: tensor<6xf32>) -> tensor<6xi1> {
    %0 = stablehlo.abs %arg0 : tensor<6xf32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.compare EQ, %0, %1, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    return %2 : tensor<6xi1>
  }
}
