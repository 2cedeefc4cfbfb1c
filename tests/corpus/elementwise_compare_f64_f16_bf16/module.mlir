module @jit_elementwise_compare_f64_f16_bf16 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<81xf64>, %arg1: tensor<81xf64>, %arg2: tensor<81xf16>, %arg3: tensor<81xf16>, %arg4: tensor<81xbf16>, %arg5: tensor<81xbf16>) -> (tensor<6x81xi1> {jax.result_info = "result[0]"}, tensor<6x81xi1> {jax.result_info = "result[1]"}, tensor<6x81xi1> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %1 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %2 = stablehlo.compare LT, %arg0, %arg1, FLOAT : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %3 = stablehlo.compare LE, %arg0, %arg1, FLOAT : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %4 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %5 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %6 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %7 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %8 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %9 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %10 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %11 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %12 = stablehlo.concatenate %6, %7, %8, %9, %10, %11, dim = 0 : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    %13 = stablehlo.compare EQ, %arg2, %arg3, FLOAT : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %14 = stablehlo.compare NE, %arg2, %arg3, FLOAT : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %15 = stablehlo.compare LT, %arg2, %arg3, FLOAT : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %16 = stablehlo.compare LE, %arg2, %arg3, FLOAT : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %17 = stablehlo.compare GT, %arg2, %arg3, FLOAT : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %18 = stablehlo.compare GE, %arg2, %arg3, FLOAT : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %19 = stablehlo.broadcast_in_dim %13, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %20 = stablehlo.broadcast_in_dim %14, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %21 = stablehlo.broadcast_in_dim %15, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %22 = stablehlo.broadcast_in_dim %16, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %23 = stablehlo.broadcast_in_dim %17, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %24 = stablehlo.broadcast_in_dim %18, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %25 = stablehlo.concatenate %19, %20, %21, %22, %23, %24, dim = 0 : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    %26 = stablehlo.compare EQ, %arg4, %arg5, FLOAT : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %27 = stablehlo.compare NE, %arg4, %arg5, FLOAT : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %28 = stablehlo.compare LT, %arg4, %arg5, FLOAT : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %29 = stablehlo.compare LE, %arg4, %arg5, FLOAT : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %30 = stablehlo.compare GT, %arg4, %arg5, FLOAT : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %31 = stablehlo.compare GE, %arg4, %arg5, FLOAT : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %32 = stablehlo.broadcast_in_dim %26, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %33 = stablehlo.broadcast_in_dim %27, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %34 = stablehlo.broadcast_in_dim %28, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %35 = stablehlo.broadcast_in_dim %29, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %36 = stablehlo.broadcast_in_dim %30, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %37 = stablehlo.broadcast_in_dim %31, dims = [1] : (tensor<81xi1>) -> tensor<1x81xi1>
    %38 = stablehlo.concatenate %32, %33, %34, %35, %36, %37, dim = 0 : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    return %12, %25, %38 : tensor<6x81xi1>, tensor<6x81xi1>, tensor<6x81xi1>
  }
}
