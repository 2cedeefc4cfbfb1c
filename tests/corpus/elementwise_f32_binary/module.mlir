module @jit_elementwise_f32_binary attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<228xf32>, %arg1: tensor<228xf32>, %arg2: tensor<185xf32>, %arg3: tensor<185xf32>) -> (tensor<228xf32> {jax.result_info = "result[0]"}, tensor<228xf32> {jax.result_info = "result[1]"}, tensor<228xf32> {jax.result_info = "result[2]"}, tensor<228xf32> {jax.result_info = "result[3]"}, tensor<228xf32> {jax.result_info = "result[4]"}, tensor<228xf32> {jax.result_info = "result[5]"}, tensor<228xf32> {jax.result_info = "result[6]"}, tensor<228xf32> {jax.result_info = "result[7]"}, tensor<228xf32> {jax.result_info = "result[8]"}, tensor<228xf32> {jax.result_info = "result[9]"}, tensor<185xf32> {jax.result_info = "result[10]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<228xf32>
    %1 = stablehlo.subtract %arg0, %arg1 : tensor<228xf32>
    %2 = stablehlo.multiply %arg0, %arg1 : tensor<228xf32>
    %3 = stablehlo.divide %arg0, %arg1 : tensor<228xf32>
    %4 = stablehlo.maximum %arg0, %arg1 : tensor<228xf32>
    %5 = stablehlo.minimum %arg0, %arg1 : tensor<228xf32>
    %6 = stablehlo.remainder %arg0, %arg1 : tensor<228xf32>
    %7 = call @remainder(%arg0, %arg1) : (tensor<228xf32>, tensor<228xf32>) -> tensor<228xf32>
    %8 = call @fmax(%arg0, %arg1) : (tensor<228xf32>, tensor<228xf32>) -> tensor<228xf32>
    %9 = chlo.next_after %arg0, %arg1 : tensor<228xf32>, tensor<228xf32> -> tensor<228xf32>
    %10 = stablehlo.power %arg2, %arg3 : tensor<185xf32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<228xf32>, tensor<185xf32>
  }
  func.func private @remainder(%arg0: tensor<228xf32>, %arg1: tensor<228xf32>) -> tensor<228xf32> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<228xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<228xf32>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<228xf32>, tensor<228xf32>) -> tensor<228xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<228xf32>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<228xf32>, tensor<228xf32>) -> tensor<228xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<228xf32>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<228xf32>, tensor<228xf32>) -> tensor<228xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<228xi1>, tensor<228xi1>) -> tensor<228xi1>
    %8 = stablehlo.and %7, %2 : tensor<228xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<228xf32>
    %10 = stablehlo.select %8, %9, %0 : tensor<228xi1>, tensor<228xf32>
    return %10 : tensor<228xf32>
  }
  func.func private @fmax(%arg0: tensor<228xf32>, %arg1: tensor<228xf32>) -> tensor<228xf32> {
    %0 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<228xf32>, tensor<228xf32>) -> tensor<228xi1>
    %1 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<228xf32>, tensor<228xf32>) -> tensor<228xi1>
    %2 = stablehlo.or %0, %1 : tensor<228xi1>
    %3 = call @_where(%2, %arg0, %arg1) : (tensor<228xi1>, tensor<228xf32>, tensor<228xf32>) -> tensor<228xf32>
    return %3 : tensor<228xf32>
  }
  func.func private @_where(%arg0: tensor<228xi1>, %arg1: tensor<228xf32>, %arg2: tensor<228xf32>) -> tensor<228xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<228xi1>, tensor<228xf32>
    return %0 : tensor<228xf32>
  }
}
