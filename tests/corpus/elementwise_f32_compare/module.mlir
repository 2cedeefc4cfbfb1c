module @jit_elementwise_f32_compare attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<81xf32>, %arg1: tensor<81xf32>) -> (tensor<6x81xi1> {jax.result_info = "result"}) {
    %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %1 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %2 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %3 = stablehlo.compare LE, %arg0, %arg1, FLOAT : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %4 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %5 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %6 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %7 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %8 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %9 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %10 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %11 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %12 = stablehlo.concatenate %6, %7, %8, %9, %10, %11, dim = 0 : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    return %12 : tensor<6x81xi1>
  }
}
