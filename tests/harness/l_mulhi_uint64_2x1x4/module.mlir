module @jit_l_mulhi_uint64_2x1x4 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x1x4xui64>, %arg1: tensor<2x1x4xui64>) -> (tensor<2x1x4xui64> {jax.result_info = "result"}) {
    %0 = chlo.mulhi %arg0, %arg1 : tensor<2x1x4xui64>, tensor<2x1x4xui64> -> tensor<2x1x4xui64>
    return %0 : tensor<2x1x4xui64>
  }
}
