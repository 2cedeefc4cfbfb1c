module @jit_reduce_precision attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<53xf32>, %arg1: tensor<45xf64>) -> (tensor<53xf32> {jax.result_info = "result[0]"}, tensor<53xf32> {jax.result_info = "result[1]"}, tensor<53xf32> {jax.result_info = "result[2]"}, tensor<53xf32> {jax.result_info = "result[3]"}, tensor<45xf64> {jax.result_info = "result[4]"}, tensor<45xf64> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.reduce_precision %arg0, format = e8m7 : tensor<53xf32>
    %1 = stablehlo.reduce_precision %arg0, format = e5m10 : tensor<53xf32>
    %2 = stablehlo.reduce_precision %arg0, format = e4m3 : tensor<53xf32>
    %3 = stablehlo.reduce_precision %arg0, format = e2m1 : tensor<53xf32>
    %4 = stablehlo.reduce_precision %arg1, format = e11m20 : tensor<45xf64>
    %5 = stablehlo.reduce_precision %arg1, format = e8m23 : tensor<45xf64>
    return %0, %1, %2, %3, %4, %5 : tensor<53xf32>, tensor<53xf32>, tensor<53xf32>, tensor<53xf32>, tensor<45xf64>, tensor<45xf64>
  }
}
