module @jit_nn_logsumexp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x12xf32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}, tensor<f32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<5x12xf32>, tensor<f32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<5xf32>
    %3 = stablehlo.is_finite %2 : (tensor<5xf32>) -> tensor<5xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %5 = stablehlo.select %3, %2, %4 : tensor<5xi1>, tensor<5xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<5xf32>) -> tensor<5x1xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x12xf32>
    %8 = stablehlo.subtract %arg0, %7 : tensor<5x12xf32>
    %9 = stablehlo.exponential %8 : tensor<5x12xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%9 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<5x12xf32>, tensor<f32>) -> tensor<5xf32>
    %11 = stablehlo.sign %10 : tensor<5xf32>
    %12 = stablehlo.abs %10 : tensor<5xf32>
    %13 = stablehlo.log %12 : tensor<5xf32>
    %14 = stablehlo.add %13, %5 : tensor<5xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %15 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.maximum across dimensions = [0] : (tensor<5x12xf32>, tensor<f32>) -> tensor<12xf32>
    %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %17 = stablehlo.maximum %16, %15 : tensor<12xf32>
    %18 = stablehlo.is_finite %17 : (tensor<12xf32>) -> tensor<12xi1>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %20 = stablehlo.select %18, %17, %19 : tensor<12xi1>, tensor<12xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [1] : (tensor<12xf32>) -> tensor<1x12xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x12xf32>) -> tensor<5x12xf32>
    %23 = stablehlo.subtract %arg0, %22 : tensor<5x12xf32>
    %24 = stablehlo.exponential %23 : tensor<5x12xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<5x12xf32>, tensor<f32>) -> tensor<12xf32>
    %26 = stablehlo.sign %25 : tensor<12xf32>
    %27 = stablehlo.abs %25 : tensor<12xf32>
    %28 = stablehlo.log %27 : tensor<12xf32>
    %29 = stablehlo.add %28, %20 : tensor<12xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %30 = stablehlo.reduce(%arg0 init: %cst_7) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<5x12xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %31 = stablehlo.maximum %cst_8, %30 : tensor<f32>
    %32 = stablehlo.is_finite %31 : (tensor<f32>) -> tensor<i1>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.select %32, %31, %cst_9 : tensor<i1>, tensor<f32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<5x12xf32>
    %36 = stablehlo.subtract %arg0, %35 : tensor<5x12xf32>
    %37 = stablehlo.exponential %36 : tensor<5x12xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%37 init: %cst_10) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x12xf32>, tensor<f32>) -> tensor<f32>
    %39 = stablehlo.sign %38 : tensor<f32>
    %40 = stablehlo.abs %38 : tensor<f32>
    %41 = stablehlo.log %40 : tensor<f32>
    %42 = stablehlo.add %41, %33 : tensor<f32>
    return %14, %29, %42 : tensor<5xf32>, tensor<12xf32>, tensor<f32>
  }
}
