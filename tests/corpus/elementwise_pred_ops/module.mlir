module @jit_elementwise_pred_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xi1>, %arg1: tensor<16xi1>, %arg2: tensor<16xi32>, %arg3: tensor<16xf32>) -> (tensor<16xi1> {jax.result_info = "result[0]"}, tensor<16xi1> {jax.result_info = "result[1]"}, tensor<16xi1> {jax.result_info = "result[2]"}, tensor<16xi1> {jax.result_info = "result[3]"}, tensor<16xi1> {jax.result_info = "result[4]"}, tensor<16xi1> {jax.result_info = "result[5]"}, tensor<16xi1> {jax.result_info = "result[6]"}, tensor<16xi1> {jax.result_info = "result[7]"}, tensor<16xi32> {jax.result_info = "result[8]"}, tensor<16xf32> {jax.result_info = "result[9]"}, tensor<16xi1> {jax.result_info = "result[10]"}, tensor<16xi1> {jax.result_info = "result[11]"}, tensor<16xi1> {jax.result_info = "result[12]"}) {
    %0 = stablehlo.and %arg0, %arg1 : tensor<16xi1>
    %1 = stablehlo.or %arg0, %arg1 : tensor<16xi1>
    %2 = stablehlo.xor %arg0, %arg1 : tensor<16xi1>
    %3 = stablehlo.not %arg0 : tensor<16xi1>
    %4 = stablehlo.compare EQ, %arg0, %arg1, UNSIGNED : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %5 = stablehlo.compare NE, %arg0, %arg1, UNSIGNED : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %6 = stablehlo.compare LT, %arg0, %arg1, UNSIGNED : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %7 = stablehlo.not %arg1 : tensor<16xi1>
    %8 = stablehlo.select %arg0, %arg1, %7 : tensor<16xi1>, tensor<16xi1>
    %9 = stablehlo.convert %arg0 : (tensor<16xi1>) -> tensor<16xi32>
    %10 = stablehlo.convert %arg0 : (tensor<16xi1>) -> tensor<16xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %12 = stablehlo.compare NE, %arg2, %11, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %13 = stablehlo.convert %12 : tensor<16xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %15 = stablehlo.compare NE, %arg3, %14, FLOAT : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %16 = stablehlo.convert %15 : tensor<16xi1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<16xi32>
    %18 = stablehlo.compare GT, %arg2, %17, SIGNED : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %19 = stablehlo.and %18, %arg0 : tensor<16xi1>
    return %0, %1, %2, %3, %4, %5, %6, %8, %9, %10, %13, %16, %19 : tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi32>, tensor<16xf32>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>
  }
}
