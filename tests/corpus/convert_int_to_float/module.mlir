module @jit_convert_int_to_float attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xi32>, %arg1: tensor<12xi64>, %arg2: tensor<12xui32>, %arg3: tensor<12xui64>, %arg4: tensor<12xi8>) -> (tensor<12xf32> {jax.result_info = "result[0]"}, tensor<12xf64> {jax.result_info = "result[1]"}, tensor<12xf16> {jax.result_info = "result[2]"}, tensor<12xbf16> {jax.result_info = "result[3]"}, tensor<12xf32> {jax.result_info = "result[4]"}, tensor<12xf64> {jax.result_info = "result[5]"}, tensor<12xf32> {jax.result_info = "result[6]"}, tensor<12xf32> {jax.result_info = "result[7]"}, tensor<12xf64> {jax.result_info = "result[8]"}, tensor<12xf16> {jax.result_info = "result[9]"}, tensor<12xbf16> {jax.result_info = "result[10]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<12xi32>) -> tensor<12xf32>
    %1 = stablehlo.convert %arg0 : (tensor<12xi32>) -> tensor<12xf64>
    %2 = stablehlo.convert %arg0 : (tensor<12xi32>) -> tensor<12xf16>
    %3 = stablehlo.convert %arg0 : (tensor<12xi32>) -> tensor<12xbf16>
    %4 = stablehlo.convert %arg1 : (tensor<12xi64>) -> tensor<12xf32>
    %5 = stablehlo.convert %arg1 : (tensor<12xi64>) -> tensor<12xf64>
    %6 = stablehlo.convert %arg2 : (tensor<12xui32>) -> tensor<12xf32>
    %7 = stablehlo.convert %arg3 : (tensor<12xui64>) -> tensor<12xf32>
    %8 = stablehlo.convert %arg3 : (tensor<12xui64>) -> tensor<12xf64>
    %9 = stablehlo.convert %arg4 : (tensor<12xi8>) -> tensor<12xf16>
    %10 = stablehlo.convert %arg4 : (tensor<12xi8>) -> tensor<12xbf16>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<12xf32>, tensor<12xf64>, tensor<12xf16>, tensor<12xbf16>, tensor<12xf32>, tensor<12xf64>, tensor<12xf32>, tensor<12xf32>, tensor<12xf64>, tensor<12xf16>, tensor<12xbf16>
  }
}
