module @jit_dot_einsum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<3x4x5xf32>, %arg2: tensor<2x3x4xf32>, %arg3: tensor<2x5x4xf32>, %arg4: tensor<2x3x4xf32>, %arg5: tensor<4x5x2xf32>, %arg6: tensor<3x4xf32>, %arg7: tensor<3x4xf32>, %arg8: tensor<2x2x3x4xf32>, %arg9: tensor<2x2x5x4xf32>) -> (tensor<2x5xf32> {jax.result_info = "result[0]"}, tensor<2x3x5xf32> {jax.result_info = "result[1]"}, tensor<3x5xf32> {jax.result_info = "result[2]"}, tensor<f32> {jax.result_info = "result[3]"}, tensor<4x4xf32> {jax.result_info = "result[4]"}, tensor<2x2x3x5xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1, 2] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x5xf32>
    %1 = stablehlo.dot_general %arg2, %arg3, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x3x5xf32>
    %2 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [0, 2] x [2, 0], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xf32>, tensor<4x5x2xf32>) -> tensor<3x5xf32>
    %3 = stablehlo.dot_general %arg6, %arg7, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<f32>
    %4 = stablehlo.slice %arg6 [0:1, 0:4] : (tensor<3x4xf32>) -> tensor<1x4xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x4xf32>) -> tensor<4xf32>
    %6 = stablehlo.slice %arg7 [1:2, 0:4] : (tensor<3x4xf32>) -> tensor<1x4xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x4xf32>) -> tensor<4xf32>
    %8 = stablehlo.dot_general %5, %7, contracting_dims = [] x [], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
    %9 = stablehlo.dot_general %arg8, %arg9, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x2x3x4xf32>, tensor<2x2x5x4xf32>) -> tensor<2x2x3x5xf32>
    return %0, %1, %2, %3, %8, %9 : tensor<2x5xf32>, tensor<2x3x5xf32>, tensor<3x5xf32>, tensor<f32>, tensor<4x4xf32>, tensor<2x2x3x5xf32>
  }
}
