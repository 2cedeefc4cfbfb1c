module @jit_model_cnn_train_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x1x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<3x3x4x8xf32>, %arg3: tensor<8xf32>, %arg4: tensor<8x10xf32>, %arg5: tensor<10xf32>, %arg6: tensor<8x12x12x1xf32>, %arg7: tensor<8xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<3x3x1x4xf32> {jax.result_info = "result[1][0]"}, tensor<4xf32> {jax.result_info = "result[1][1]"}, tensor<3x3x4x8xf32> {jax.result_info = "result[1][2]"}, tensor<8xf32> {jax.result_info = "result[1][3]"}, tensor<8x10xf32> {jax.result_info = "result[1][4]"}, tensor<10xf32> {jax.result_info = "result[1][5]"}) {
    %0 = stablehlo.convolution(%arg6, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x12x12x1xf32>, tensor<3x3x1x4xf32>) -> tensor<8x12x12x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x4xf32>) -> tensor<8x12x12x4xf32>
    %3 = stablehlo.add %0, %2 : tensor<8x12x12x4xf32>
    %4 = call @relu(%3) : (tensor<8x12x12x4xf32>) -> tensor<8x12x12x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x12x4xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<8x12x12x4xf32>, tensor<8x12x12x4xf32>) -> tensor<8x12x12x4xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x12x12x4xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<f32>
    %9 = "stablehlo.reduce_window"(%4, %8) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %82 = stablehlo.maximum %arg8, %arg9 : tensor<f32>
      stablehlo.return %82 : tensor<f32>
    }) : (tensor<8x12x12x4xf32>, tensor<f32>) -> tensor<8x6x6x4xf32>
    %10 = stablehlo.convolution(%9, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x4xf32>, tensor<3x3x4x8xf32>) -> tensor<8x3x3x8xf32>
    %11 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2, 3] : (tensor<1x1x1x8xf32>) -> tensor<8x3x3x8xf32>
    %13 = stablehlo.add %10, %12 : tensor<8x3x3x8xf32>
    %14 = call @relu_0(%13) : (tensor<8x3x3x8xf32>) -> tensor<8x3x3x8xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x3x3x8xf32>
    %16 = stablehlo.compare GT, %13, %15, FLOAT : (tensor<8x3x3x8xf32>, tensor<8x3x3x8xf32>) -> tensor<8x3x3x8xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x3x3x8xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.reduce(%14 init: %cst_4) applies stablehlo.add across dimensions = [1, 2] : (tensor<8x3x3x8xf32>, tensor<f32>) -> tensor<8x8xf32>
    %cst_5 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %20 = stablehlo.divide %18, %19 : tensor<8x8xf32>
    %21 = stablehlo.dot_general %20, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %22 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %24 = stablehlo.add %21, %23 : tensor<8x10xf32>
    %25 = call @_one_hot(%arg7) : (tensor<8xi32>) -> tensor<8x10xf32>
    %26:3 = call @log_softmax(%24) : (tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>)
    %27 = stablehlo.multiply %25, %26#0 : tensor<8x10xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %28 = stablehlo.reduce(%27 init: %cst_6) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %cst_8 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %30 = stablehlo.divide %29, %cst_8 : tensor<f32>
    %31 = stablehlo.negate %30 : tensor<f32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %32 = stablehlo.negate %cst_9 : tensor<f32>
    %cst_10 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %33 = stablehlo.divide %32, %cst_10 : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %36 = stablehlo.multiply %25, %35 : tensor<8x10xf32>
    %37 = call @log_softmax_1(%26#1, %26#2, %36) : (tensor<8x10xf32>, tensor<8x1xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %38 = stablehlo.reduce(%37 init: %cst_11) applies stablehlo.add across dimensions = [0] : (tensor<8x10xf32>, tensor<f32>) -> tensor<10xf32>
    %39 = stablehlo.reshape %38 : (tensor<10xf32>) -> tensor<1x10xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.reduce(%39 init: %cst_12) applies stablehlo.add across dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32>
    %41 = stablehlo.dot_general %37, %20, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x8xf32>) -> tensor<10x8xf32>
    %42 = stablehlo.transpose %41, dims = [1, 0] : (tensor<10x8xf32>) -> tensor<8x10xf32>
    %43 = stablehlo.dot_general %37, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x8xf32>
    %cst_13 = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<8x8xf32>
    %45 = stablehlo.divide %43, %44 : tensor<8x8xf32>
    %46 = stablehlo.broadcast_in_dim %45, dims = [0, 3] : (tensor<8x8xf32>) -> tensor<8x3x3x8xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<8x3x3x8xf32>
    %48 = stablehlo.select %16, %46, %47 : tensor<8x3x3x8xi1>, tensor<8x3x3x8xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.reduce(%48 init: %cst_15) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x3x3x8xf32>, tensor<f32>) -> tensor<8xf32>
    %50 = stablehlo.reshape %49 : (tensor<8xf32>) -> tensor<1x1x1x8xf32>
    %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_16) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %52 = stablehlo.convolution(%9, %48) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], lhs_dilate = [1, 1], rhs_dilate = [2, 2], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x6x6x4xf32>, tensor<8x3x3x8xf32>) -> tensor<3x3x4x8xf32>
    %53 = stablehlo.reverse %arg2, dims = [0, 1] : tensor<3x3x4x8xf32>
    %54 = stablehlo.convolution(%48, %53) dim_numbers = [b, 0, 1, f]x[0, 1, o, i]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[2, 1], [2, 1]], lhs_dilate = [2, 2], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x3x3x8xf32>, tensor<3x3x4x8xf32>) -> tensor<8x6x6x4xf32>
    %cst_17 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %55 = stablehlo.pad %4, %cst_17, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<8x12x12x4xf32>, tensor<f32>) -> tensor<8x12x12x4xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = "stablehlo.select_and_scatter"(%55, %54, %cst_18) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %82 = stablehlo.compare GE, %arg8, %arg9, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %82 : tensor<i1>
    }, {
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %82 = stablehlo.add %arg8, %arg9 : tensor<f32>
      stablehlo.return %82 : tensor<f32>
    }) : (tensor<8x12x12x4xf32>, tensor<8x6x6x4xf32>, tensor<f32>) -> tensor<8x12x12x4xf32>
    %57 = stablehlo.slice %56 [0:8, 0:12, 0:12, 0:4] : (tensor<8x12x12x4xf32>) -> tensor<8x12x12x4xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<8x12x12x4xf32>
    %59 = stablehlo.select %6, %57, %58 : tensor<8x12x12x4xi1>, tensor<8x12x12x4xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %60 = stablehlo.reduce(%59 init: %cst_20) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<8x12x12x4xf32>, tensor<f32>) -> tensor<4xf32>
    %61 = stablehlo.reshape %60 : (tensor<4xf32>) -> tensor<1x1x1x4xf32>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.reduce(%61 init: %cst_21) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<1x1x1x4xf32>, tensor<f32>) -> tensor<4xf32>
    %63 = stablehlo.convolution(%arg6, %59) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<8x12x12x1xf32>, tensor<8x12x12x4xf32>) -> tensor<3x3x1x4xf32>
    %cst_22 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3x3x1x4xf32>
    %65 = stablehlo.multiply %64, %63 : tensor<3x3x1x4xf32>
    %66 = stablehlo.subtract %arg0, %65 : tensor<3x3x1x4xf32>
    %cst_23 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %68 = stablehlo.multiply %67, %62 : tensor<4xf32>
    %69 = stablehlo.subtract %arg1, %68 : tensor<4xf32>
    %cst_24 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<3x3x4x8xf32>
    %71 = stablehlo.multiply %70, %52 : tensor<3x3x4x8xf32>
    %72 = stablehlo.subtract %arg2, %71 : tensor<3x3x4x8xf32>
    %cst_25 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %73 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %74 = stablehlo.multiply %73, %51 : tensor<8xf32>
    %75 = stablehlo.subtract %arg3, %74 : tensor<8xf32>
    %cst_26 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<8x10xf32>
    %77 = stablehlo.multiply %76, %42 : tensor<8x10xf32>
    %78 = stablehlo.subtract %arg4, %77 : tensor<8x10xf32>
    %cst_27 = stablehlo.constant dense<5.000000e-02> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %80 = stablehlo.multiply %79, %40 : tensor<10xf32>
    %81 = stablehlo.subtract %arg5, %80 : tensor<10xf32>
    return %31, %66, %69, %72, %75, %78, %81 : tensor<f32>, tensor<3x3x1x4xf32>, tensor<4xf32>, tensor<3x3x4x8xf32>, tensor<8xf32>, tensor<8x10xf32>, tensor<10xf32>
  }
  func.func private @relu(%arg0: tensor<8x12x12x4xf32>) -> tensor<8x12x12x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x12x12x4xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x12x12x4xf32>
    return %1 : tensor<8x12x12x4xf32>
  }
  func.func private @relu_0(%arg0: tensor<8x3x3x8xf32>) -> tensor<8x3x3x8xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x3x3x8xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x3x3x8xf32>
    return %1 : tensor<8x3x3x8xf32>
  }
  func.func private @_one_hot(%arg0: tensor<8xi32>) -> tensor<8x10xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x10xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x10xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x10xi32>) -> tensor<8x10xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<8x10xi32>, tensor<8x10xi32>) -> tensor<8x10xi1>
    %5 = stablehlo.convert %4 : (tensor<8x10xi1>) -> tensor<8x10xf32>
    return %5 : tensor<8x10xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> (tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.log %8 : tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x10xf32>
    return %11, %6, %8 : tensor<8x10xf32>, tensor<8x10xf32>, tensor<8x1xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<8x10xf32>, %arg1: tensor<8x1xf32>, %arg2: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %0 = stablehlo.negate %arg2 : tensor<8x10xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.reshape %1 : (tensor<8xf32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf32>, tensor<f32>) -> tensor<8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<8xf32>) -> tensor<8x10xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<8x10xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<8x10xf32>
    return %7 : tensor<8x10xf32>
  }
}
