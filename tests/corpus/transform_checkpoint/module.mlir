module @jit_transform_checkpoint attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xf32>, %arg1: tensor<6x6xf32>, %arg2: tensor<6x6xf32>) -> (tensor<6x6xf32> {jax.result_info = "result[0]"}, tensor<6x6xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %1 = stablehlo.tanh %0 : tensor<4x6xf32>
    %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %3 = stablehlo.sine %2 : tensor<4x6xf32>
    %4 = stablehlo.multiply %1, %3 : tensor<4x6xf32>
    %5 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %6 = stablehlo.tanh %5 : tensor<4x6xf32>
    %7 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %8 = stablehlo.sine %7 : tensor<4x6xf32>
    %9 = stablehlo.multiply %6, %8 : tensor<4x6xf32>
    %10 = stablehlo.multiply %9, %9 : tensor<4x6xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %12 = stablehlo.multiply %11, %9 : tensor<4x6xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%10 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %15 = stablehlo.multiply %14, %12 : tensor<4x6xf32>
    %16:3 = stablehlo.optimization_barrier %4, %arg2, %15 : tensor<4x6xf32>, tensor<6x6xf32>, tensor<4x6xf32>
    %17 = stablehlo.dot_general %16#0, %16#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %18 = stablehlo.tanh %17 : tensor<4x6xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %20 = stablehlo.subtract %19, %18 : tensor<4x6xf32>
    %21 = stablehlo.dot_general %16#0, %16#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %22 = stablehlo.sine %21 : tensor<4x6xf32>
    %23 = stablehlo.cosine %21 : tensor<4x6xf32>
    %24 = stablehlo.multiply %18, %16#2 : tensor<4x6xf32>
    %25 = stablehlo.multiply %16#2, %22 : tensor<4x6xf32>
    %26 = stablehlo.multiply %24, %23 : tensor<4x6xf32>
    %27 = stablehlo.dot_general %26, %16#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
    %28 = stablehlo.transpose %27, dims = [1, 0] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %29 = stablehlo.dot_general %26, %16#1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %30 = stablehlo.multiply %25, %20 : tensor<4x6xf32>
    %31 = stablehlo.multiply %30, %18 : tensor<4x6xf32>
    %32 = stablehlo.add %30, %31 : tensor<4x6xf32>
    %33 = stablehlo.dot_general %32, %16#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
    %34 = stablehlo.transpose %33, dims = [1, 0] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %35 = stablehlo.add %28, %34 : tensor<6x6xf32>
    %36 = stablehlo.dot_general %32, %16#1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %37 = stablehlo.add %29, %36 : tensor<4x6xf32>
    %38:3 = stablehlo.optimization_barrier %arg0, %arg1, %37 : tensor<4x6xf32>, tensor<6x6xf32>, tensor<4x6xf32>
    %39 = stablehlo.dot_general %38#0, %38#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %40 = stablehlo.tanh %39 : tensor<4x6xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x6xf32>
    %42 = stablehlo.subtract %41, %40 : tensor<4x6xf32>
    %43 = stablehlo.dot_general %38#0, %38#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
    %44 = stablehlo.sine %43 : tensor<4x6xf32>
    %45 = stablehlo.cosine %43 : tensor<4x6xf32>
    %46 = stablehlo.multiply %40, %38#2 : tensor<4x6xf32>
    %47 = stablehlo.multiply %38#2, %44 : tensor<4x6xf32>
    %48 = stablehlo.multiply %46, %45 : tensor<4x6xf32>
    %49 = stablehlo.dot_general %48, %38#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
    %50 = stablehlo.transpose %49, dims = [1, 0] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %51 = stablehlo.multiply %47, %42 : tensor<4x6xf32>
    %52 = stablehlo.multiply %51, %40 : tensor<4x6xf32>
    %53 = stablehlo.add %51, %52 : tensor<4x6xf32>
    %54 = stablehlo.dot_general %53, %38#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
    %55 = stablehlo.transpose %54, dims = [1, 0] : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %56 = stablehlo.add %50, %55 : tensor<6x6xf32>
    return %56, %35 : tensor<6x6xf32>, tensor<6x6xf32>
  }
}
