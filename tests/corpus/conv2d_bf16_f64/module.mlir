module @jit_conv2d_bf16_f64 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x5x5x2xbf16>, %arg1: tensor<3x3x2x3xbf16>, %arg2: tensor<1x5x5x2xf64>, %arg3: tensor<3x3x2x3xf64>) -> (tensor<1x5x5x3xbf16> {jax.result_info = "result[0]"}, tensor<1x3x3x3xf64> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x5x5x2xbf16>, tensor<3x3x2x3xbf16>) -> tensor<1x5x5x3xbf16>
    %1 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x5x5x2xf64>, tensor<3x3x2x3xf64>) -> tensor<1x3x3x3xf64>
    return %0, %1 : tensor<1x5x5x3xbf16>, tensor<1x3x3x3xf64>
  }
}
