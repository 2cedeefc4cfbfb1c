module @jit_shape_concatenate attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<4x3xf32>, %arg2: tensor<2x5xf32>, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>) -> (tensor<6x3xf32> {jax.result_info = "result[0]"}, tensor<2x11xf32> {jax.result_info = "result[1]"}, tensor<2x4xf32> {jax.result_info = "result[2]"}, tensor<4x2xf32> {jax.result_info = "result[3]"}, tensor<9xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.concatenate %arg0, %arg1, dim = 0 : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    %1 = stablehlo.concatenate %arg0, %arg2, %arg0, dim = 1 : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
    %2 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %3 = stablehlo.broadcast_in_dim %arg4, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    %5 = stablehlo.broadcast_in_dim %arg3, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %6 = stablehlo.broadcast_in_dim %arg4, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %7 = stablehlo.concatenate %5, %6, dim = 1 : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
    %8 = stablehlo.slice %arg3 [0:1] : (tensor<4xf32>) -> tensor<1xf32>
    %9 = stablehlo.concatenate %arg3, %arg4, %8, dim = 0 : (tensor<4xf32>, tensor<4xf32>, tensor<1xf32>) -> tensor<9xf32>
    return %0, %1, %4, %7, %9 : tensor<6x3xf32>, tensor<2x11xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<9xf32>
  }
}
