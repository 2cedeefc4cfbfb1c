module @jit_classic_sin_squared attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1000xf32>) -> (tensor<1000xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<1000xf32>
    %1 = stablehlo.multiply %0, %0 : tensor<1000xf32>
    return %1 : tensor<1000xf32>
  }
}
