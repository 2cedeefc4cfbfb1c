module @jit_dot_f16_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x16xbf16>, %arg1: tensor<16x4xbf16>, %arg2: tensor<8x16xf16>, %arg3: tensor<16x4xf16>, %arg4: tensor<2x3x8xf16>, %arg5: tensor<2x8x5xf16>) -> (tensor<8x4xbf16> {jax.result_info = "result[0]"}, tensor<8x4xf32> {jax.result_info = "result[1]"}, tensor<8x4xf16> {jax.result_info = "result[2]"}, tensor<2x3x5xf16> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xbf16>
    %1 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xbf16>, tensor<16x4xbf16>) -> tensor<8x4xf32>
    %2 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf16>, tensor<16x4xf16>) -> tensor<8x4xf16>
    %3 = stablehlo.dot_general %arg4, %arg5, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x8xf16>, tensor<2x8x5xf16>) -> tensor<2x3x5xf16>
    return %0, %1, %2, %3 : tensor<8x4xbf16>, tensor<8x4xf32>, tensor<8x4xf16>, tensor<2x3x5xf16>
  }
}
