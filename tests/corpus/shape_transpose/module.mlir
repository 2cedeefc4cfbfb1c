module @jit_shape_transpose attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>, %arg1: tensor<2x3x4xi32>, %arg2: tensor<2x3x4x5xf32>) -> (tensor<5x3xf32> {jax.result_info = "result[0]"}, tensor<4x2x3xi32> {jax.result_info = "result[1]"}, tensor<3x2x4xi32> {jax.result_info = "result[2]"}, tensor<2x5x3x4xf32> {jax.result_info = "result[3]"}, tensor<5x4x3x2xf32> {jax.result_info = "result[4]"}, tensor<2x5x4x3xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
    %1 = stablehlo.transpose %arg1, dims = [2, 0, 1] : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
    %2 = stablehlo.transpose %arg1, dims = [1, 0, 2] : (tensor<2x3x4xi32>) -> tensor<3x2x4xi32>
    %3 = stablehlo.transpose %arg2, dims = [0, 3, 1, 2] : (tensor<2x3x4x5xf32>) -> tensor<2x5x3x4xf32>
    %4 = stablehlo.transpose %arg2, dims = [3, 2, 1, 0] : (tensor<2x3x4x5xf32>) -> tensor<5x4x3x2xf32>
    %5 = stablehlo.transpose %arg2, dims = [0, 3, 2, 1] : (tensor<2x3x4x5xf32>) -> tensor<2x5x4x3xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<5x3xf32>, tensor<4x2x3xi32>, tensor<3x2x4xi32>, tensor<2x5x3x4xf32>, tensor<5x4x3x2xf32>, tensor<2x5x4x3xf32>
  }
}
