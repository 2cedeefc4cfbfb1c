module @jit_transform_jvp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xf32>) -> (tensor<4x3xf32> {jax.result_info = "result[0]"}, tensor<4x3xf32> {jax.result_info = "result[1]"}, tensor<4x3xf32> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.negate %arg0 : tensor<4x6xf32>
    %1 = stablehlo.negate %arg1 : tensor<4x6xf32>
    %2 = stablehlo.multiply %0, %arg0 : tensor<4x6xf32>
    %3 = stablehlo.multiply %1, %arg0 : tensor<4x6xf32>
    %4 = stablehlo.multiply %0, %arg1 : tensor<4x6xf32>
    %5 = stablehlo.add %3, %4 : tensor<4x6xf32>
    %6 = stablehlo.exponential %2 : tensor<4x6xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<4x6xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %9 = stablehlo.dot_general %6, %8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %10 = stablehlo.dot_general %7, %8, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %11 = stablehlo.slice %arg0 [0:4, 0:3] : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %12 = stablehlo.slice %arg1 [0:4, 0:3] : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %13 = stablehlo.cosine %11 : tensor<4x3xf32>
    %14 = stablehlo.sine %11 : tensor<4x3xf32>
    %15 = stablehlo.multiply %12, %14 : tensor<4x3xf32>
    %16 = stablehlo.negate %15 : tensor<4x3xf32>
    %17 = stablehlo.add %9, %13 : tensor<4x3xf32>
    %18 = stablehlo.add %10, %16 : tensor<4x3xf32>
    %19 = stablehlo.negate %arg0 : tensor<4x6xf32>
    %20 = stablehlo.multiply %19, %arg0 : tensor<4x6xf32>
    %21 = stablehlo.exponential %20 : tensor<4x6xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x3xf32>
    %23 = stablehlo.dot_general %21, %22, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %24 = stablehlo.slice %arg0 [0:4, 0:3] : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %25 = stablehlo.cosine %24 : tensor<4x3xf32>
    %26 = stablehlo.sine %24 : tensor<4x3xf32>
    %27 = stablehlo.add %23, %25 : tensor<4x3xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %29 = stablehlo.multiply %28, %arg1 : tensor<4x6xf32>
    %30 = stablehlo.negate %29 : tensor<4x6xf32>
    %31 = stablehlo.multiply %30, %arg0 : tensor<4x6xf32>
    %32 = stablehlo.multiply %19, %29 : tensor<4x6xf32>
    %33 = stablehlo.add %31, %32 : tensor<4x6xf32>
    %34 = stablehlo.multiply %33, %21 : tensor<4x6xf32>
    %35 = stablehlo.dot_general %34, %22, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %36 = stablehlo.slice %29 [0:4, 0:3] : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %37 = stablehlo.multiply %36, %26 : tensor<4x3xf32>
    %38 = stablehlo.negate %37 : tensor<4x3xf32>
    %39 = stablehlo.add %35, %38 : tensor<4x3xf32>
    return %17, %18, %39 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>
  }
}
