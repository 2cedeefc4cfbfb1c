module @jit_model_transformer_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<32x32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32x64xf32>, %arg9: tensor<64xf32>, %arg10: tensor<64x32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<2x8x32xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<32xf32> {jax.result_info = "result[1][0]"}, tensor<32xf32> {jax.result_info = "result[1][1]"}, tensor<32x32xf32> {jax.result_info = "result[1][2]"}, tensor<32x32xf32> {jax.result_info = "result[1][3]"}, tensor<32x32xf32> {jax.result_info = "result[1][4]"}, tensor<32x32xf32> {jax.result_info = "result[1][5]"}, tensor<32xf32> {jax.result_info = "result[1][6]"}, tensor<32xf32> {jax.result_info = "result[1][7]"}, tensor<32x64xf32> {jax.result_info = "result[1][8]"}, tensor<64xf32> {jax.result_info = "result[1][9]"}, tensor<64x32xf32> {jax.result_info = "result[1][10]"}, tensor<32xf32> {jax.result_info = "result[1][11]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg12 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %5 = stablehlo.subtract %arg12, %4 : tensor<2x8x32xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<2x8x32xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_2 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<2x8x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %12 = stablehlo.subtract %arg12, %11 : tensor<2x8x32xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<2x8x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<2x8x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<2x8x32xf32>
    %18 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<2x8x32xf32>
    %21 = stablehlo.broadcast_in_dim %arg1, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %23 = stablehlo.add %20, %22 : tensor<2x8x32xf32>
    %24 = stablehlo.dot_general %23, %arg2, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %25 = stablehlo.reshape %24 : (tensor<2x8x32xf32>) -> tensor<2x8x4x8xf32>
    %26 = stablehlo.dot_general %23, %arg3, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %27 = stablehlo.reshape %26 : (tensor<2x8x32xf32>) -> tensor<2x8x4x8xf32>
    %28 = stablehlo.dot_general %23, %arg4, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %29 = stablehlo.reshape %28 : (tensor<2x8x32xf32>) -> tensor<2x8x4x8xf32>
    %30 = stablehlo.dot_general %25, %27, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %cst_4 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %32 = stablehlo.divide %30, %31 : tensor<2x4x8x8xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %33 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %34 = call @tril(%33) : (tensor<8x8xi1>) -> tensor<8x8xi1>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f64>
    %35:3 = call @_where(%34, %32, %cst_5) : (tensor<8x8xi1>, tensor<2x4x8x8xf32>, tensor<f64>) -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>)
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %36 = stablehlo.reduce(%35#0 init: %cst_6) applies stablehlo.maximum across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %37 = stablehlo.reshape %36 : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %38 = stablehlo.broadcast_in_dim %37, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %39 = stablehlo.compare EQ, %35#0, %38, FLOAT : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xi1>
    %40 = stablehlo.convert %39 : (tensor<2x4x8x8xi1>) -> tensor<2x4x8x8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_7) applies stablehlo.add across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %cst_8 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<2x4x8xf32>
    %43 = stablehlo.maximum %42, %36 : tensor<2x4x8xf32>
    %44 = stablehlo.compare EQ, %36, %43, FLOAT : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xi1>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<2x4x8xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<2x4x8xf32>
    %47 = stablehlo.select %44, %45, %46 : tensor<2x4x8xi1>, tensor<2x4x8xf32>
    %cst_11 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<2x4x8xf32>
    %49 = stablehlo.compare EQ, %48, %43, FLOAT : (tensor<2x4x8xf32>, tensor<2x4x8xf32>) -> tensor<2x4x8xi1>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %50 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x4x8xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<2x4x8xf32>
    %52 = stablehlo.select %49, %50, %51 : tensor<2x4x8xi1>, tensor<2x4x8xf32>
    %53 = stablehlo.divide %47, %52 : tensor<2x4x8xf32>
    %54 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %56 = stablehlo.subtract %35#0, %55 : tensor<2x4x8x8xf32>
    %57 = stablehlo.exponential %56 : tensor<2x4x8x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.reduce(%57 init: %cst_14) applies stablehlo.add across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %61 = stablehlo.divide %57, %60 : tensor<2x4x8x8xf32>
    %62 = stablehlo.multiply %59, %59 : tensor<2x4x8x1xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<2x4x8x1xf32>
    %64 = stablehlo.divide %63, %62 : tensor<2x4x8x1xf32>
    %65 = stablehlo.dot_general %29, %61, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x8x4x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %66 = stablehlo.transpose %65, dims = [0, 3, 1, 2] : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %67 = stablehlo.reshape %66 : (tensor<2x8x4x8xf32>) -> tensor<2x8x32xf32>
    %68 = stablehlo.dot_general %67, %arg5, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %69 = stablehlo.add %arg12, %68 : tensor<2x8x32xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %70 = stablehlo.reduce(%69 init: %cst_16) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_17 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %73 = stablehlo.divide %71, %72 : tensor<2x8x1xf32>
    %74 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %75 = stablehlo.subtract %69, %74 : tensor<2x8x32xf32>
    %76 = stablehlo.multiply %75, %75 : tensor<2x8x32xf32>
    %cst_18 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %78 = stablehlo.multiply %77, %75 : tensor<2x8x32xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %79 = stablehlo.reduce(%76 init: %cst_19) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %cst_20 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %81 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %82 = stablehlo.divide %80, %81 : tensor<2x8x1xf32>
    %83 = stablehlo.broadcast_in_dim %73, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %84 = stablehlo.subtract %69, %83 : tensor<2x8x32xf32>
    %cst_21 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %85 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %86 = stablehlo.add %82, %85 : tensor<2x8x1xf32>
    %87 = stablehlo.rsqrt %86 : tensor<2x8x1xf32>
    %88 = stablehlo.divide %87, %86 : tensor<2x8x1xf32>
    %cst_22 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %89 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %90 = stablehlo.multiply %89, %88 : tensor<2x8x1xf32>
    %91 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %92 = stablehlo.multiply %84, %91 : tensor<2x8x32xf32>
    %93 = stablehlo.broadcast_in_dim %arg6, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %95 = stablehlo.multiply %92, %94 : tensor<2x8x32xf32>
    %96 = stablehlo.broadcast_in_dim %arg7, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %98 = stablehlo.add %95, %97 : tensor<2x8x32xf32>
    %99 = stablehlo.dot_general %98, %arg8, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x64xf32>) -> tensor<2x8x64xf32>
    %100 = stablehlo.broadcast_in_dim %arg9, dims = [2] : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %101 = stablehlo.broadcast_in_dim %100, dims = [0, 1, 2] : (tensor<1x1x64xf32>) -> tensor<2x8x64xf32>
    %102 = stablehlo.add %99, %101 : tensor<2x8x64xf32>
    %103 = stablehlo.multiply %102, %102 : tensor<2x8x64xf32>
    %104 = stablehlo.multiply %103, %102 : tensor<2x8x64xf32>
    %105 = stablehlo.multiply %102, %102 : tensor<2x8x64xf32>
    %cst_23 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %106 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %107 = stablehlo.multiply %106, %105 : tensor<2x8x64xf32>
    %cst_24 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %108 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %109 = stablehlo.multiply %108, %104 : tensor<2x8x64xf32>
    %110 = stablehlo.add %102, %109 : tensor<2x8x64xf32>
    %cst_25 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %112 = stablehlo.multiply %111, %110 : tensor<2x8x64xf32>
    %113 = stablehlo.tanh %112 : tensor<2x8x64xf32>
    %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %114 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %115 = stablehlo.subtract %114, %113 : tensor<2x8x64xf32>
    %cst_27 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %116 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %117 = stablehlo.add %116, %113 : tensor<2x8x64xf32>
    %cst_28 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %119 = stablehlo.multiply %118, %117 : tensor<2x8x64xf32>
    %120 = stablehlo.multiply %102, %119 : tensor<2x8x64xf32>
    %121 = stablehlo.dot_general %120, %arg10, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<64x32xf32>) -> tensor<2x8x32xf32>
    %122 = stablehlo.add %69, %121 : tensor<2x8x32xf32>
    %123 = stablehlo.broadcast_in_dim %arg11, dims = [2] : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %125 = stablehlo.add %122, %124 : tensor<2x8x32xf32>
    %126 = stablehlo.multiply %125, %125 : tensor<2x8x32xf32>
    %cst_29 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %127 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %128 = stablehlo.multiply %127, %125 : tensor<2x8x32xf32>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %129 = stablehlo.reduce(%126 init: %cst_30) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<f32>
    %cst_31 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %130 = stablehlo.divide %129, %cst_31 : tensor<f32>
    %cst_32 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_33 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %131 = stablehlo.divide %cst_32, %cst_33 : tensor<f32>
    %132 = stablehlo.broadcast_in_dim %131, dims = [] : (tensor<f32>) -> tensor<2x8x32xf32>
    %133 = stablehlo.multiply %132, %128 : tensor<2x8x32xf32>
    %cst_34 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %134 = stablehlo.reduce(%133 init: %cst_34) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %135 = stablehlo.reshape %134 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_35 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %136 = stablehlo.reduce(%135 init: %cst_35) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %137 = stablehlo.dot_general %133, %120, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x64xf32>) -> tensor<32x64xf32>
    %138 = stablehlo.transpose %137, dims = [1, 0] : (tensor<32x64xf32>) -> tensor<64x32xf32>
    %139 = stablehlo.dot_general %133, %arg10, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<64x32xf32>) -> tensor<2x8x64xf32>
    %140 = stablehlo.multiply %102, %139 : tensor<2x8x64xf32>
    %141 = stablehlo.multiply %139, %119 : tensor<2x8x64xf32>
    %cst_36 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %143 = stablehlo.multiply %142, %140 : tensor<2x8x64xf32>
    %144 = stablehlo.multiply %143, %115 : tensor<2x8x64xf32>
    %145 = stablehlo.multiply %144, %113 : tensor<2x8x64xf32>
    %146 = stablehlo.add %144, %145 : tensor<2x8x64xf32>
    %cst_37 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %147 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %148 = stablehlo.multiply %147, %146 : tensor<2x8x64xf32>
    %149 = stablehlo.add %141, %148 : tensor<2x8x64xf32>
    %cst_38 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %150 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<2x8x64xf32>
    %151 = stablehlo.multiply %150, %148 : tensor<2x8x64xf32>
    %152 = stablehlo.multiply %151, %107 : tensor<2x8x64xf32>
    %153 = stablehlo.add %149, %152 : tensor<2x8x64xf32>
    %cst_39 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %154 = stablehlo.reduce(%153 init: %cst_39) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x64xf32>, tensor<f32>) -> tensor<64xf32>
    %155 = stablehlo.reshape %154 : (tensor<64xf32>) -> tensor<1x1x64xf32>
    %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %156 = stablehlo.reduce(%155 init: %cst_40) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x64xf32>, tensor<f32>) -> tensor<64xf32>
    %157 = stablehlo.dot_general %153, %98, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<2x8x32xf32>) -> tensor<64x32xf32>
    %158 = stablehlo.transpose %157, dims = [1, 0] : (tensor<64x32xf32>) -> tensor<32x64xf32>
    %159 = stablehlo.dot_general %153, %arg8, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x64xf32>, tensor<32x64xf32>) -> tensor<2x8x32xf32>
    %cst_41 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %160 = stablehlo.reduce(%159 init: %cst_41) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %161 = stablehlo.reshape %160 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_42 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %162 = stablehlo.reduce(%161 init: %cst_42) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %163 = stablehlo.multiply %92, %159 : tensor<2x8x32xf32>
    %cst_43 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %164 = stablehlo.reduce(%163 init: %cst_43) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %165 = stablehlo.reshape %164 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %166 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<1x1x32xf32>) -> tensor<2x8x32xf32>
    %167 = stablehlo.multiply %159, %166 : tensor<2x8x32xf32>
    %cst_44 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %168 = stablehlo.reduce(%165 init: %cst_44) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %169 = stablehlo.multiply %84, %167 : tensor<2x8x32xf32>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %170 = stablehlo.reduce(%169 init: %cst_45) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %171 = stablehlo.reshape %170 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %172 = stablehlo.broadcast_in_dim %87, dims = [0, 1, 2] : (tensor<2x8x1xf32>) -> tensor<2x8x32xf32>
    %173 = stablehlo.multiply %167, %172 : tensor<2x8x32xf32>
    %174 = stablehlo.multiply %171, %90 : tensor<2x8x1xf32>
    %175 = stablehlo.negate %173 : tensor<2x8x32xf32>
    %cst_46 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %176 = stablehlo.reduce(%175 init: %cst_46) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %177 = stablehlo.reshape %176 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %178 = stablehlo.add %133, %173 : tensor<2x8x32xf32>
    %cst_47 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %179 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %180 = stablehlo.divide %174, %179 : tensor<2x8x1xf32>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %181 = stablehlo.reduce(%180 init: %cst_48) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %182 = stablehlo.broadcast_in_dim %181, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %183 = stablehlo.multiply %182, %78 : tensor<2x8x32xf32>
    %184 = stablehlo.negate %183 : tensor<2x8x32xf32>
    %cst_49 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %185 = stablehlo.reduce(%184 init: %cst_49) applies stablehlo.add across dimensions = [2] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<2x8xf32>
    %186 = stablehlo.reshape %185 : (tensor<2x8xf32>) -> tensor<2x8x1xf32>
    %187 = stablehlo.add %178, %183 : tensor<2x8x32xf32>
    %188 = stablehlo.add %177, %186 : tensor<2x8x1xf32>
    %cst_50 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %189 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<2x8x1xf32>
    %190 = stablehlo.divide %188, %189 : tensor<2x8x1xf32>
    %cst_51 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %191 = stablehlo.reduce(%190 init: %cst_51) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf32>, tensor<f32>) -> tensor<2x8xf32>
    %192 = stablehlo.broadcast_in_dim %191, dims = [0, 1] : (tensor<2x8xf32>) -> tensor<2x8x32xf32>
    %193 = stablehlo.add %187, %192 : tensor<2x8x32xf32>
    %194 = stablehlo.dot_general %193, %67, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %195 = stablehlo.transpose %194, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %196 = stablehlo.dot_general %193, %arg5, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %197 = stablehlo.reshape %196 : (tensor<2x8x32xf32>) -> tensor<2x8x4x8xf32>
    %198 = stablehlo.transpose %197, dims = [0, 2, 3, 1] : (tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %199 = stablehlo.dot_general %198, %29, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [3], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %200 = stablehlo.dot_general %198, %61, batching_dims = [0, 1] x [0, 1], contracting_dims = [3] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %201 = stablehlo.transpose %200, dims = [0, 3, 1, 2] : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %202 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %203 = stablehlo.multiply %199, %202 : tensor<2x4x8x8xf32>
    %204 = stablehlo.multiply %203, %57 : tensor<2x4x8x8xf32>
    %cst_52 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %205 = stablehlo.reduce(%204 init: %cst_52) applies stablehlo.add across dimensions = [3] : (tensor<2x4x8x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %206 = stablehlo.reshape %205 : (tensor<2x4x8xf32>) -> tensor<2x4x8x1xf32>
    %207 = stablehlo.negate %206 : tensor<2x4x8x1xf32>
    %208 = stablehlo.broadcast_in_dim %59, dims = [0, 1, 2, 3] : (tensor<2x4x8x1xf32>) -> tensor<2x4x8x8xf32>
    %209 = stablehlo.divide %199, %208 : tensor<2x4x8x8xf32>
    %cst_53 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %210 = stablehlo.reduce(%207 init: %cst_53) applies stablehlo.add across dimensions = [3] : (tensor<2x4x8x1xf32>, tensor<f32>) -> tensor<2x4x8xf32>
    %211 = stablehlo.broadcast_in_dim %210, dims = [0, 1, 2] : (tensor<2x4x8xf32>) -> tensor<2x4x8x8xf32>
    %212 = stablehlo.add %209, %211 : tensor<2x4x8x8xf32>
    %213 = stablehlo.multiply %212, %57 : tensor<2x4x8x8xf32>
    %214 = call @_where_0(%35#1, %35#2, %213) : (tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>, tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
    %cst_54 = stablehlo.constant dense<2.82842708> : tensor<f32>
    %215 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %216 = stablehlo.divide %214, %215 : tensor<2x4x8x8xf32>
    %217 = stablehlo.dot_general %216, %25, batching_dims = [0, 1] x [0, 2], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %218 = stablehlo.transpose %217, dims = [0, 2, 1, 3] : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %219 = stablehlo.dot_general %216, %27, batching_dims = [0, 1] x [0, 2], contracting_dims = [3] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x4x8x8xf32>, tensor<2x8x4x8xf32>) -> tensor<2x4x8x8xf32>
    %220 = stablehlo.transpose %219, dims = [0, 2, 1, 3] : (tensor<2x4x8x8xf32>) -> tensor<2x8x4x8xf32>
    %221 = stablehlo.reshape %201 : (tensor<2x8x4x8xf32>) -> tensor<2x8x32xf32>
    %222 = stablehlo.dot_general %221, %23, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %223 = stablehlo.transpose %222, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %224 = stablehlo.dot_general %221, %arg4, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %225 = stablehlo.reshape %218 : (tensor<2x8x4x8xf32>) -> tensor<2x8x32xf32>
    %226 = stablehlo.dot_general %225, %23, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %227 = stablehlo.transpose %226, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %228 = stablehlo.dot_general %225, %arg3, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %229 = stablehlo.add %224, %228 : tensor<2x8x32xf32>
    %230 = stablehlo.reshape %220 : (tensor<2x8x4x8xf32>) -> tensor<2x8x32xf32>
    %231 = stablehlo.dot_general %230, %23, contracting_dims = [0, 1] x [0, 1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<2x8x32xf32>) -> tensor<32x32xf32>
    %232 = stablehlo.transpose %231, dims = [1, 0] : (tensor<32x32xf32>) -> tensor<32x32xf32>
    %233 = stablehlo.dot_general %230, %arg2, contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x32xf32>, tensor<32x32xf32>) -> tensor<2x8x32xf32>
    %234 = stablehlo.add %229, %233 : tensor<2x8x32xf32>
    %cst_55 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %235 = stablehlo.reduce(%234 init: %cst_55) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %236 = stablehlo.reshape %235 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_56 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %237 = stablehlo.reduce(%236 init: %cst_56) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    %238 = stablehlo.multiply %17, %234 : tensor<2x8x32xf32>
    %cst_57 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %239 = stablehlo.reduce(%238 init: %cst_57) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x8x32xf32>, tensor<f32>) -> tensor<32xf32>
    %240 = stablehlo.reshape %239 : (tensor<32xf32>) -> tensor<1x1x32xf32>
    %cst_58 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %241 = stablehlo.reduce(%240 init: %cst_58) applies stablehlo.add across dimensions = [0, 1] : (tensor<1x1x32xf32>, tensor<f32>) -> tensor<32xf32>
    return %130, %241, %237, %232, %227, %223, %195, %168, %162, %158, %156, %138, %136 : tensor<f32>, tensor<32xf32>, tensor<32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<32xf32>
  }
  func.func private @tril(%arg0: tensor<8x8xi1>) -> tensor<8x8xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<8x8xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<8x8xi64>
    %2 = stablehlo.add %0, %1 : tensor<8x8xi64>
    %3 = stablehlo.iota dim = 1 : tensor<8x8xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<8x8xi64>, tensor<8x8xi64>) -> tensor<8x8xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<8x8xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<8x8xi1>, tensor<8x8xi1>
    return %6 : tensor<8x8xi1>
  }
  func.func private @_where(%arg0: tensor<8x8xi1>, %arg1: tensor<2x4x8x8xf32>, %arg2: tensor<f64>) -> (tensor<2x4x8x8xf32>, tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>) {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2, 3] : (tensor<8x8xi1>) -> tensor<2x4x8x8xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    return %3, %1, %4 : tensor<2x4x8x8xf32>, tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>
  }
  func.func private @_where_0(%arg0: tensor<2x4x8x8xi1>, %arg1: tensor<2x4x8x8xf32>, %arg2: tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x8x8xf32>
    %1 = stablehlo.select %arg0, %arg2, %0 : tensor<2x4x8x8xi1>, tensor<2x4x8x8xf32>
    return %1 : tensor<2x4x8x8xf32>
  }
}
