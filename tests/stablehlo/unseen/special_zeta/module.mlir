module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<6xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %1 = chlo.polygamma %0, %arg1 : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<6xf32>
    %4 = chlo.zeta %3, %arg1 : tensor<6xf32>, tensor<6xf32> -> tensor<6xf32>
    %5 = chlo.bessel_i1e %arg0 : tensor<6xf32> -> tensor<6xf32>
    return %1, %4, %5 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  }
}
