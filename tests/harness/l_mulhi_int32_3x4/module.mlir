module @jit_l_mulhi_int32_3x4 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xi32>, %arg1: tensor<3x4xi32>) -> (tensor<3x4xi32> {jax.result_info = "result"}) {
    %0 = chlo.mulhi %arg0, %arg1 : tensor<3x4xi32>, tensor<3x4xi32> -> tensor<3x4xi32>
    return %0 : tensor<3x4xi32>
  }
}
