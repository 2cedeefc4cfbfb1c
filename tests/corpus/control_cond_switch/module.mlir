module @jit_control_cond_switch attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i1>, %arg1: tensor<5xf32>, %arg2: tensor<5xf32>, %arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<5xf32> {jax.result_info = "result[1]"}, tensor<5xf32> {jax.result_info = "result[2]"}, tensor<5xf32> {jax.result_info = "result[3]"}, tensor<5xf32> {jax.result_info = "result[4]"}, tensor<5xf32> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %16 = stablehlo.cosine %arg1 : tensor<5xf32>
      %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %17 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %18 = stablehlo.multiply %16, %17 : tensor<5xf32>
      stablehlo.return %18 : tensor<5xf32>
    }, {
      %16 = stablehlo.sine %arg1 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%arg2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.compare GT, %2, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %4 = stablehlo.convert %3 : (tensor<i1>) -> tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %16 = stablehlo.negate %arg2 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }, {
      %cst_8 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
      %16 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %17 = stablehlo.multiply %arg2, %16 : tensor<5xf32>
      stablehlo.return %17 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%arg2 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.compare LT, %6, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.convert %7 : (tensor<i1>) -> tensor<i32>
    %9 = "stablehlo.case"(%8) ({
      %16 = stablehlo.negate %arg2 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }, {
      %cst_8 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
      %16 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %17 = stablehlo.multiply %arg2, %16 : tensor<5xf32>
      stablehlo.return %17 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %10 = stablehlo.clamp %c, %arg3, %c_3 : tensor<i32>
    %11 = "stablehlo.case"(%10) ({
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %16 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %17 = stablehlo.add %arg1, %16 : tensor<5xf32>
      stablehlo.return %17 : tensor<5xf32>
    }, {
      %16 = stablehlo.exponential %arg1 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }, {
      %16 = stablehlo.multiply %arg1, %arg1 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<2> : tensor<i32>
    %12 = stablehlo.clamp %c_4, %arg4, %c_5 : tensor<i32>
    %13 = "stablehlo.case"(%12) ({
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %16 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %17 = stablehlo.add %arg1, %16 : tensor<5xf32>
      stablehlo.return %17 : tensor<5xf32>
    }, {
      %16 = stablehlo.exponential %arg1 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }, {
      %16 = stablehlo.multiply %arg1, %arg1 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<2> : tensor<i32>
    %14 = stablehlo.clamp %c_6, %arg5, %c_7 : tensor<i32>
    %15 = "stablehlo.case"(%14) ({
      %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %16 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %17 = stablehlo.add %arg1, %16 : tensor<5xf32>
      stablehlo.return %17 : tensor<5xf32>
    }, {
      %16 = stablehlo.exponential %arg1 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }, {
      %16 = stablehlo.multiply %arg1, %arg1 : tensor<5xf32>
      stablehlo.return %16 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    return %1, %5, %9, %11, %13, %15 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
  }
}
