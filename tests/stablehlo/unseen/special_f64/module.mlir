module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf64>, %arg1: tensor<6xf64>) -> (tensor<6xf64> {jax.result_info = "result[0]"}, tensor<6xf64> {jax.result_info = "result[1]"}, tensor<6xf64> {jax.result_info = "result[2]"}, tensor<6xf64> {jax.result_info = "result[3]"}, tensor<6xf64> {jax.result_info = "result[4]"}, tensor<6xf64> {jax.result_info = "result[5]"}) {
    %0 = chlo.lgamma %arg1 : tensor<6xf64> -> tensor<6xf64>
    %1 = chlo.digamma %arg1 : tensor<6xf64> -> tensor<6xf64>
    %2 = stablehlo.tanh %arg0 : tensor<6xf64>
    %3 = chlo.erf_inv %2 : tensor<6xf64> -> tensor<6xf64>
    %4 = chlo.erfc %arg0 : tensor<6xf64> -> tensor<6xf64>
    %5 = chlo.erf %arg0 : tensor<6xf64> -> tensor<6xf64>
    %6 = chlo.next_after %arg0, %arg1 : tensor<6xf64>, tensor<6xf64> -> tensor<6xf64>
    return %0, %1, %3, %4, %5, %6 : tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>
  }
}
