module @jit_transform_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32>, %arg1: tensor<10xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<10xf32> {jax.result_info = "result[1][0]"}, tensor<10xf32> {jax.result_info = "result[1][1]"}) {
    %0 = stablehlo.sine %arg0 : tensor<10xf32>
    %1 = stablehlo.cosine %arg0 : tensor<10xf32>
    %2 = stablehlo.multiply %arg1, %arg1 : tensor<10xf32>
    %3 = stablehlo.log_plus_one %2 : tensor<10xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %5 = stablehlo.add %2, %4 : tensor<10xf32>
    %6 = stablehlo.multiply %0, %3 : tensor<10xf32>
    %7 = stablehlo.multiply %arg0, %arg0 : tensor<10xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %9 = stablehlo.add %8, %7 : tensor<10xf32>
    %10 = stablehlo.divide %6, %9 : tensor<10xf32>
    %11 = stablehlo.multiply %9, %9 : tensor<10xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %13 = stablehlo.divide %12, %11 : tensor<10xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%10 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<10xf32>, tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %16 = stablehlo.multiply %15, %13 : tensor<10xf32>
    %17 = stablehlo.multiply %16, %6 : tensor<10xf32>
    %18 = stablehlo.negate %17 : tensor<10xf32>
    %19 = stablehlo.divide %15, %9 : tensor<10xf32>
    %20 = stablehlo.multiply %arg0, %18 : tensor<10xf32>
    %21 = stablehlo.multiply %18, %arg0 : tensor<10xf32>
    %22 = stablehlo.add %20, %21 : tensor<10xf32>
    %23 = stablehlo.multiply %0, %19 : tensor<10xf32>
    %24 = stablehlo.multiply %19, %3 : tensor<10xf32>
    %25 = stablehlo.divide %23, %5 : tensor<10xf32>
    %26 = stablehlo.multiply %arg1, %25 : tensor<10xf32>
    %27 = stablehlo.multiply %25, %arg1 : tensor<10xf32>
    %28 = stablehlo.add %26, %27 : tensor<10xf32>
    %29 = stablehlo.multiply %24, %1 : tensor<10xf32>
    %30 = stablehlo.add %22, %29 : tensor<10xf32>
    return %14, %30, %28 : tensor<f32>, tensor<10xf32>, tensor<10xf32>
  }
}
