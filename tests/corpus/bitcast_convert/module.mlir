module @jit_bitcast_convert attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32>, %arg1: tensor<10xi32>, %arg2: tensor<10xf64>, %arg3: tensor<10xf16>, %arg4: tensor<10xbf16>, %arg5: tensor<10x4xui8>) -> (tensor<10xi32> {jax.result_info = "result[0]"}, tensor<10xui32> {jax.result_info = "result[1]"}, tensor<10xf32> {jax.result_info = "result[2]"}, tensor<10xi64> {jax.result_info = "result[3]"}, tensor<10xui16> {jax.result_info = "result[4]"}, tensor<10xi16> {jax.result_info = "result[5]"}, tensor<10x4xui8> {jax.result_info = "result[6]"}, tensor<10x2xui16> {jax.result_info = "result[7]"}, tensor<10xf32> {jax.result_info = "result[8]"}, tensor<10x2xbf16> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.bitcast_convert %arg0 : (tensor<10xf32>) -> tensor<10xi32>
    %1 = stablehlo.bitcast_convert %arg0 : (tensor<10xf32>) -> tensor<10xui32>
    %2 = stablehlo.bitcast_convert %arg1 : (tensor<10xi32>) -> tensor<10xf32>
    %3 = stablehlo.bitcast_convert %arg2 : (tensor<10xf64>) -> tensor<10xi64>
    %4 = stablehlo.bitcast_convert %arg3 : (tensor<10xf16>) -> tensor<10xui16>
    %5 = stablehlo.bitcast_convert %arg4 : (tensor<10xbf16>) -> tensor<10xi16>
    %6 = stablehlo.bitcast_convert %arg0 : (tensor<10xf32>) -> tensor<10x4xui8>
    %7 = stablehlo.bitcast_convert %arg0 : (tensor<10xf32>) -> tensor<10x2xui16>
    %8 = stablehlo.bitcast_convert %arg5 : (tensor<10x4xui8>) -> tensor<10xf32>
    %9 = stablehlo.bitcast_convert %arg1 : (tensor<10xi32>) -> tensor<10x2xbf16>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<10xi32>, tensor<10xui32>, tensor<10xf32>, tensor<10xi64>, tensor<10xui16>, tensor<10xi16>, tensor<10x4xui8>, tensor<10x2xui16>, tensor<10xf32>, tensor<10x2xbf16>
  }
}
