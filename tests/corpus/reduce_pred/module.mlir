module @jit_reduce_pred attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xi1>) -> (tensor<5xi1> {jax.result_info = "result[0]"}, tensor<4xi1> {jax.result_info = "result[1]"}, tensor<i1> {jax.result_info = "result[2]"}, tensor<i1> {jax.result_info = "result[3]"}, tensor<4xi64> {jax.result_info = "result[4]"}) {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.or across dimensions = [0] : (tensor<4x5xi1>, tensor<i1>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<true> : tensor<i1>
    %1 = stablehlo.reduce(%arg0 init: %c_0) applies stablehlo.and across dimensions = [1] : (tensor<4x5xi1>, tensor<i1>) -> tensor<4xi1>
    %c_1 = stablehlo.constant dense<false> : tensor<i1>
    %2 = stablehlo.reduce(%arg0 init: %c_1) applies stablehlo.or across dimensions = [0, 1] : (tensor<4x5xi1>, tensor<i1>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<true> : tensor<i1>
    %3 = stablehlo.reduce(%arg0 init: %c_2) applies stablehlo.and across dimensions = [0, 1] : (tensor<4x5xi1>, tensor<i1>) -> tensor<i1>
    %4 = stablehlo.convert %arg0 : (tensor<4x5xi1>) -> tensor<4x5xi32>
    %5 = stablehlo.convert %4 : (tensor<4x5xi32>) -> tensor<4x5xi64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %6 = stablehlo.reduce(%5 init: %c_3) applies stablehlo.add across dimensions = [1] : (tensor<4x5xi64>, tensor<i64>) -> tensor<4xi64>
    return %0, %1, %2, %3, %6 : tensor<5xi1>, tensor<4xi1>, tensor<i1>, tensor<i1>, tensor<4xi64>
  }
}
