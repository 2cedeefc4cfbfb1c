module @jit_dot_batch attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x5xf32>, %arg1: tensor<3x5x2xf32>, %arg2: tensor<2x3x4x5xf32>, %arg3: tensor<2x3x5x3xf32>, %arg4: tensor<5x6xf32>) -> (tensor<3x4x2xf32> {jax.result_info = "result[0]"}, tensor<2x3x4x3xf32> {jax.result_info = "result[1]"}, tensor<3x4x6xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x4x5xf32>, tensor<3x5x2xf32>) -> tensor<3x4x2xf32>
    %1 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4x5xf32>, tensor<2x3x5x3xf32>) -> tensor<2x3x4x3xf32>
    %2 = stablehlo.dot_general %arg0, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4x5xf32>, tensor<5x6xf32>) -> tensor<3x4x6xf32>
    return %0, %1, %2 : tensor<3x4x2xf32>, tensor<2x3x4x3xf32>, tensor<3x4x6xf32>
  }
}
