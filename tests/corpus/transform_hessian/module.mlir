module @jit_transform_hessian attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>, %arg1: tensor<3x5xf32>) -> (tensor<5x5xf32> {jax.result_info = "result[0]"}, tensor<5x5xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %1 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %3 = stablehlo.add %0, %2 : tensor<5x5xi64>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %5 = stablehlo.convert %4 : (tensor<5x5xi1>) -> tensor<5x5xf32>
    %6 = stablehlo.slice %5 [0:5, 0:5] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %7 = stablehlo.convert %6 : tensor<5x5xf32>
    %8 = stablehlo.slice %arg0 [1:5] : (tensor<5xf32>) -> tensor<4xf32>
    %9 = stablehlo.slice %7 [0:5, 1:5] : (tensor<5x5xf32>) -> tensor<5x4xf32>
    %10 = stablehlo.slice %arg0 [0:4] : (tensor<5xf32>) -> tensor<4xf32>
    %11 = stablehlo.slice %7 [0:5, 0:4] : (tensor<5x5xf32>) -> tensor<5x4xf32>
    %12 = stablehlo.multiply %10, %10 : tensor<4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %14 = stablehlo.multiply %13, %10 : tensor<4xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<5x4xf32>
    %17 = stablehlo.multiply %11, %16 : tensor<5x4xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %19 = stablehlo.multiply %18, %10 : tensor<4xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %21 = stablehlo.multiply %20, %11 : tensor<5x4xf32>
    %22 = stablehlo.subtract %8, %12 : tensor<4xf32>
    %23 = stablehlo.subtract %9, %17 : tensor<5x4xf32>
    %24 = stablehlo.multiply %22, %22 : tensor<4xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %26 = stablehlo.multiply %25, %22 : tensor<4xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<5x4xf32>
    %29 = stablehlo.multiply %23, %28 : tensor<5x4xf32>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %31 = stablehlo.multiply %30, %22 : tensor<4xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %33 = stablehlo.multiply %32, %23 : tensor<5x4xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %35 = stablehlo.multiply %34, %24 : tensor<4xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %37 = stablehlo.multiply %36, %29 : tensor<5x4xf32>
    %38 = stablehlo.slice %arg0 [0:4] : (tensor<5xf32>) -> tensor<4xf32>
    %39 = stablehlo.slice %7 [0:5, 0:4] : (tensor<5x5xf32>) -> tensor<5x4xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %41 = stablehlo.subtract %40, %38 : tensor<4xf32>
    %42 = stablehlo.negate %39 : tensor<5x4xf32>
    %43 = stablehlo.multiply %41, %41 : tensor<4xf32>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %45 = stablehlo.multiply %44, %41 : tensor<4xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<5x4xf32>
    %48 = stablehlo.multiply %42, %47 : tensor<5x4xf32>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %50 = stablehlo.multiply %49, %41 : tensor<4xf32>
    %cst_10 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %52 = stablehlo.multiply %51, %42 : tensor<5x4xf32>
    %53 = stablehlo.add %35, %43 : tensor<4xf32>
    %54 = stablehlo.add %37, %48 : tensor<5x4xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.reduce(%53 init: %cst_11) applies stablehlo.add across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%54 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<5x4xf32>, tensor<f32>) -> tensor<5xf32>
    %57 = stablehlo.iota dim = 0 : tensor<1x1xi64>
    %58 = stablehlo.iota dim = 1 : tensor<1x1xi64>
    %c_13 = stablehlo.constant dense<0> : tensor<i64>
    %59 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i64>) -> tensor<1x1xi64>
    %60 = stablehlo.add %57, %59 : tensor<1x1xi64>
    %61 = stablehlo.compare EQ, %60, %58, SIGNED : (tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi1>
    %62 = stablehlo.convert %61 : (tensor<1x1xi1>) -> tensor<1x1xf32>
    %63 = stablehlo.slice %62 [0:1, 0:1] : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %64 = stablehlo.reshape %63 : (tensor<1x1xf32>) -> tensor<1xf32>
    %65 = stablehlo.convert %64 : tensor<1xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0] : (tensor<1xf32>) -> tensor<1x4xf32>
    %67 = stablehlo.broadcast_in_dim %50, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %68 = stablehlo.broadcast_in_dim %52, dims = [0, 2] : (tensor<5x4xf32>) -> tensor<5x1x4xf32>
    %69 = stablehlo.multiply %66, %67 : tensor<1x4xf32>
    %70 = stablehlo.broadcast_in_dim %66, dims = [1, 2] : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %71 = stablehlo.broadcast_in_dim %70, dims = [0, 1, 2] : (tensor<1x1x4xf32>) -> tensor<5x1x4xf32>
    %72 = stablehlo.multiply %71, %68 : tensor<5x1x4xf32>
    %73 = stablehlo.negate %69 : tensor<1x4xf32>
    %74 = stablehlo.negate %72 : tensor<5x1x4xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %75 = stablehlo.pad %73, %cst_14, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x5xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %76 = stablehlo.pad %74, %cst_15, low = [0, 0, 0], high = [0, 0, 1], interior = [0, 0, 0] : (tensor<5x1x4xf32>, tensor<f32>) -> tensor<5x1x5xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %77 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
    %78 = stablehlo.multiply %77, %66 : tensor<1x4xf32>
    %79 = stablehlo.broadcast_in_dim %31, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %80 = stablehlo.broadcast_in_dim %33, dims = [0, 2] : (tensor<5x4xf32>) -> tensor<5x1x4xf32>
    %81 = stablehlo.multiply %78, %79 : tensor<1x4xf32>
    %82 = stablehlo.broadcast_in_dim %78, dims = [1, 2] : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [0, 1, 2] : (tensor<1x1x4xf32>) -> tensor<5x1x4xf32>
    %84 = stablehlo.multiply %83, %80 : tensor<5x1x4xf32>
    %85 = stablehlo.negate %81 : tensor<1x4xf32>
    %86 = stablehlo.negate %84 : tensor<5x1x4xf32>
    %87 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %88 = stablehlo.broadcast_in_dim %21, dims = [0, 2] : (tensor<5x4xf32>) -> tensor<5x1x4xf32>
    %89 = stablehlo.multiply %85, %87 : tensor<1x4xf32>
    %90 = stablehlo.broadcast_in_dim %87, dims = [1, 2] : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %91 = stablehlo.broadcast_in_dim %90, dims = [0, 1, 2] : (tensor<1x1x4xf32>) -> tensor<5x1x4xf32>
    %92 = stablehlo.multiply %86, %91 : tensor<5x1x4xf32>
    %93 = stablehlo.broadcast_in_dim %85, dims = [1, 2] : (tensor<1x4xf32>) -> tensor<1x1x4xf32>
    %94 = stablehlo.broadcast_in_dim %93, dims = [0, 1, 2] : (tensor<1x1x4xf32>) -> tensor<5x1x4xf32>
    %95 = stablehlo.multiply %94, %88 : tensor<5x1x4xf32>
    %96 = stablehlo.add %92, %95 : tensor<5x1x4xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %97 = stablehlo.pad %89, %cst_17, low = [0, 0], high = [0, 1], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x5xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %98 = stablehlo.pad %96, %cst_18, low = [0, 0, 0], high = [0, 0, 1], interior = [0, 0, 0] : (tensor<5x1x4xf32>, tensor<f32>) -> tensor<5x1x5xf32>
    %99 = stablehlo.add %75, %97 : tensor<1x5xf32>
    %100 = stablehlo.add %76, %98 : tensor<5x1x5xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %101 = stablehlo.pad %81, %cst_19, low = [0, 1], high = [0, 0], interior = [0, 0] : (tensor<1x4xf32>, tensor<f32>) -> tensor<1x5xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %102 = stablehlo.pad %84, %cst_20, low = [0, 0, 1], high = [0, 0, 0], interior = [0, 0, 0] : (tensor<5x1x4xf32>, tensor<f32>) -> tensor<5x1x5xf32>
    %103 = stablehlo.add %99, %101 : tensor<1x5xf32>
    %104 = stablehlo.add %100, %102 : tensor<5x1x5xf32>
    %105 = stablehlo.slice %103 [0:1, 0:5] : (tensor<1x5xf32>) -> tensor<1x5xf32>
    %106 = stablehlo.slice %104 [0:5, 0:1, 0:5] : (tensor<5x1x5xf32>) -> tensor<5x1x5xf32>
    %107 = stablehlo.reshape %105 : (tensor<1x5xf32>) -> tensor<5xf32>
    %108 = stablehlo.reshape %106 : (tensor<5x1x5xf32>) -> tensor<5x5xf32>
    %109 = stablehlo.transpose %108, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %110 = stablehlo.slice %109 [0:5, 0:5] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %111 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %112 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_21 = stablehlo.constant dense<0> : tensor<i64>
    %113 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %114 = stablehlo.add %111, %113 : tensor<5x5xi64>
    %115 = stablehlo.compare EQ, %114, %112, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %116 = stablehlo.convert %115 : (tensor<5x5xi1>) -> tensor<5x5xf32>
    %117 = stablehlo.slice %116 [0:5, 0:5] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %118 = stablehlo.convert %117 : tensor<5x5xf32>
    %119 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3xf32>
    %120 = stablehlo.dot_general %arg1, %118, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<5x5xf32>) -> tensor<3x5xf32>
    %121 = stablehlo.tanh %119 : tensor<3xf32>
    %122 = stablehlo.transpose %120, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
    %123 = stablehlo.broadcast_in_dim %121, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %124 = stablehlo.broadcast_in_dim %123, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<5x3xf32>
    %125 = stablehlo.multiply %122, %124 : tensor<5x3xf32>
    %126 = stablehlo.transpose %120, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
    %127 = stablehlo.add %126, %125 : tensor<5x3xf32>
    %cst_22 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %128 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %129 = stablehlo.subtract %128, %121 : tensor<3xf32>
    %130 = stablehlo.broadcast_in_dim %129, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %131 = stablehlo.broadcast_in_dim %130, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<5x3xf32>
    %132 = stablehlo.multiply %127, %131 : tensor<5x3xf32>
    %cst_23 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %133 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %134 = stablehlo.subtract %133, %121 : tensor<3xf32>
    %135 = stablehlo.negate %132 : tensor<5x3xf32>
    %136 = stablehlo.multiply %121, %121 : tensor<3xf32>
    %cst_24 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %137 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %138 = stablehlo.multiply %137, %121 : tensor<3xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %140 = stablehlo.broadcast_in_dim %139, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<5x3xf32>
    %141 = stablehlo.multiply %132, %140 : tensor<5x3xf32>
    %cst_25 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %142 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %143 = stablehlo.multiply %142, %121 : tensor<3xf32>
    %cst_26 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %144 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<5x3xf32>
    %145 = stablehlo.multiply %144, %132 : tensor<5x3xf32>
    %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %146 = stablehlo.reduce(%136 init: %cst_27) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    %cst_28 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %147 = stablehlo.reduce(%141 init: %cst_28) applies stablehlo.add across dimensions = [1] : (tensor<5x3xf32>, tensor<f32>) -> tensor<5xf32>
    %148 = stablehlo.iota dim = 0 : tensor<1x1xi64>
    %149 = stablehlo.iota dim = 1 : tensor<1x1xi64>
    %c_29 = stablehlo.constant dense<0> : tensor<i64>
    %150 = stablehlo.broadcast_in_dim %c_29, dims = [] : (tensor<i64>) -> tensor<1x1xi64>
    %151 = stablehlo.add %148, %150 : tensor<1x1xi64>
    %152 = stablehlo.compare EQ, %151, %149, SIGNED : (tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi1>
    %153 = stablehlo.convert %152 : (tensor<1x1xi1>) -> tensor<1x1xf32>
    %154 = stablehlo.slice %153 [0:1, 0:1] : (tensor<1x1xf32>) -> tensor<1x1xf32>
    %155 = stablehlo.reshape %154 : (tensor<1x1xf32>) -> tensor<1xf32>
    %156 = stablehlo.convert %155 : tensor<1xf32>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0] : (tensor<1xf32>) -> tensor<1x3xf32>
    %158 = stablehlo.broadcast_in_dim %143, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %159 = stablehlo.broadcast_in_dim %145, dims = [0, 2] : (tensor<5x3xf32>) -> tensor<5x1x3xf32>
    %160 = stablehlo.multiply %157, %158 : tensor<1x3xf32>
    %161 = stablehlo.broadcast_in_dim %157, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<1x1x3xf32>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<1x1x3xf32>) -> tensor<5x1x3xf32>
    %163 = stablehlo.multiply %162, %159 : tensor<5x1x3xf32>
    %164 = stablehlo.broadcast_in_dim %134, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %165 = stablehlo.broadcast_in_dim %135, dims = [0, 2] : (tensor<5x3xf32>) -> tensor<5x1x3xf32>
    %166 = stablehlo.multiply %160, %164 : tensor<1x3xf32>
    %167 = stablehlo.broadcast_in_dim %164, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<1x1x3xf32>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0, 1, 2] : (tensor<1x1x3xf32>) -> tensor<5x1x3xf32>
    %169 = stablehlo.multiply %163, %168 : tensor<5x1x3xf32>
    %170 = stablehlo.broadcast_in_dim %160, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<1x1x3xf32>
    %171 = stablehlo.broadcast_in_dim %170, dims = [0, 1, 2] : (tensor<1x1x3xf32>) -> tensor<5x1x3xf32>
    %172 = stablehlo.multiply %171, %165 : tensor<5x1x3xf32>
    %173 = stablehlo.add %169, %172 : tensor<5x1x3xf32>
    %174 = stablehlo.broadcast_in_dim %121, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %175 = stablehlo.broadcast_in_dim %132, dims = [0, 2] : (tensor<5x3xf32>) -> tensor<5x1x3xf32>
    %176 = stablehlo.multiply %166, %174 : tensor<1x3xf32>
    %177 = stablehlo.broadcast_in_dim %174, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<1x1x3xf32>
    %178 = stablehlo.broadcast_in_dim %177, dims = [0, 1, 2] : (tensor<1x1x3xf32>) -> tensor<5x1x3xf32>
    %179 = stablehlo.multiply %173, %178 : tensor<5x1x3xf32>
    %180 = stablehlo.broadcast_in_dim %166, dims = [1, 2] : (tensor<1x3xf32>) -> tensor<1x1x3xf32>
    %181 = stablehlo.broadcast_in_dim %180, dims = [0, 1, 2] : (tensor<1x1x3xf32>) -> tensor<5x1x3xf32>
    %182 = stablehlo.multiply %181, %175 : tensor<5x1x3xf32>
    %183 = stablehlo.add %179, %182 : tensor<5x1x3xf32>
    %184 = stablehlo.add %166, %176 : tensor<1x3xf32>
    %185 = stablehlo.add %173, %183 : tensor<5x1x3xf32>
    %186 = stablehlo.dot_general %184, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x3xf32>, tensor<3x5xf32>) -> tensor<1x5xf32>
    %187 = stablehlo.dot_general %185, %arg1, contracting_dims = [2] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x1x3xf32>, tensor<3x5xf32>) -> tensor<5x1x5xf32>
    %188 = stablehlo.slice %186 [0:1, 0:5] : (tensor<1x5xf32>) -> tensor<1x5xf32>
    %189 = stablehlo.slice %187 [0:5, 0:1, 0:5] : (tensor<5x1x5xf32>) -> tensor<5x1x5xf32>
    %190 = stablehlo.reshape %188 : (tensor<1x5xf32>) -> tensor<5xf32>
    %191 = stablehlo.reshape %189 : (tensor<5x1x5xf32>) -> tensor<5x5xf32>
    %192 = stablehlo.transpose %191, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %193 = stablehlo.slice %192 [0:5, 0:5] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    return %110, %193 : tensor<5x5xf32>, tensor<5x5xf32>
  }
}
