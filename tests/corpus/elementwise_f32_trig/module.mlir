module @jit_elementwise_f32_trig attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<64xf32>, %arg1: tensor<64xf32>) -> (tensor<64xf32> {jax.result_info = "result[0]"}, tensor<64xf32> {jax.result_info = "result[1]"}, tensor<64xf32> {jax.result_info = "result[2]"}, tensor<64xf32> {jax.result_info = "result[3]"}, tensor<64xf32> {jax.result_info = "result[4]"}, tensor<64xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.sine %arg0 : tensor<64xf32>
    %1 = stablehlo.cosine %arg0 : tensor<64xf32>
    %2 = stablehlo.tan %arg0 : tensor<64xf32>
    %3 = stablehlo.tanh %arg0 : tensor<64xf32>
    %4 = stablehlo.atan2 %arg0, %arg1 : tensor<64xf32>
    %5 = chlo.atan %arg0 : tensor<64xf32> -> tensor<64xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  }
}
