module @jit_reduce_f64_f16_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x5xf64>, %arg1: tensor<6x16xf16>, %arg2: tensor<6x16xbf16>) -> (tensor<4x5xf64> {jax.result_info = "result[0]"}, tensor<3xf64> {jax.result_info = "result[1]"}, tensor<3x4xf64> {jax.result_info = "result[2]"}, tensor<f64> {jax.result_info = "result[3]"}, tensor<3x5xf64> {jax.result_info = "result[4]"}, tensor<6xf16> {jax.result_info = "result[5]"}, tensor<16xf16> {jax.result_info = "result[6]"}, tensor<f16> {jax.result_info = "result[7]"}, tensor<16xbf16> {jax.result_info = "result[8]"}, tensor<6xbf16> {jax.result_info = "result[9]"}, tensor<6xbf16> {jax.result_info = "result[10]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<4x5xf64>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across dimensions = [1, 2] : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<3xf64>
    %cst_1 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.maximum across dimensions = [2] : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<3x4xf64>
    %cst_2 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
    %3 = stablehlo.reduce(%arg0 init: %cst_2) applies stablehlo.minimum across dimensions = [0, 1, 2] : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<f64>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %4 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.multiply across dimensions = [1] : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<3x5xf64>
    %5 = stablehlo.convert %arg1 : (tensor<6x16xf16>) -> tensor<6x16xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<6x16xf32>, tensor<f32>) -> tensor<6xf32>
    %7 = stablehlo.convert %6 : (tensor<6xf32>) -> tensor<6xf16>
    %cst_5 = stablehlo.constant dense<0xFC00> : tensor<f16>
    %8 = stablehlo.reduce(%arg1 init: %cst_5) applies stablehlo.maximum across dimensions = [0] : (tensor<6x16xf16>, tensor<f16>) -> tensor<16xf16>
    %9 = stablehlo.convert %arg1 : (tensor<6x16xf16>) -> tensor<6x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<6x16xf32>, tensor<f32>) -> tensor<f32>
    %cst_7 = stablehlo.constant dense<9.600000e+01> : tensor<f32>
    %11 = stablehlo.divide %10, %cst_7 : tensor<f32>
    %12 = stablehlo.convert %11 : (tensor<f32>) -> tensor<f16>
    %13 = stablehlo.convert %arg2 : (tensor<6x16xbf16>) -> tensor<6x16xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13 init: %cst_8) applies stablehlo.add across dimensions = [0] : (tensor<6x16xf32>, tensor<f32>) -> tensor<16xf32>
    %15 = stablehlo.convert %14 : (tensor<16xf32>) -> tensor<16xbf16>
    %cst_9 = stablehlo.constant dense<0xFF80> : tensor<bf16>
    %16 = stablehlo.reduce(%arg2 init: %cst_9) applies stablehlo.maximum across dimensions = [1] : (tensor<6x16xbf16>, tensor<bf16>) -> tensor<6xbf16>
    %17 = stablehlo.convert %arg2 : (tensor<6x16xbf16>) -> tensor<6x16xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%17 init: %cst_10) applies stablehlo.add across dimensions = [1] : (tensor<6x16xf32>, tensor<f32>) -> tensor<6xf32>
    %cst_11 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %20 = stablehlo.divide %18, %19 : tensor<6xf32>
    %21 = stablehlo.convert %20 : (tensor<6xf32>) -> tensor<6xbf16>
    return %0, %1, %2, %3, %4, %7, %8, %12, %15, %16, %21 : tensor<4x5xf64>, tensor<3xf64>, tensor<3x4xf64>, tensor<f64>, tensor<3x5xf64>, tensor<6xf16>, tensor<16xf16>, tensor<f16>, tensor<16xbf16>, tensor<6xbf16>, tensor<6xbf16>
  }
}
