module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<5x4xf32>) -> (tensor<3xi64> {jax.result_info = "result[0]"}, tensor<3x4xf32> {jax.result_info = "result[1]"}, tensor<3x5xf32> {jax.result_info = "result[2]"}, tensor<6xf32> {jax.result_info = "result[3]"}, tensor<3xf32> {jax.result_info = "result[4]"}, tensor<f32> {jax.result_info = "result[5]"}, tensor<3x4xf32> {jax.result_info = "result[6]"}, tensor<4xf32> {jax.result_info = "result[7]"}, tensor<3x4xf32> {jax.result_info = "result[8]"}, tensor<3x4xf32> {jax.result_info = "result[9]"}) {
    %0 = call @argmax(%arg0) : (tensor<3x4xf32>) -> tensor<3xi64>
    %1 = call @cumsum(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %2 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<5x4xf32>) -> tensor<3x5xf32>
    %3 = stablehlo.reshape %arg0 : (tensor<3x4xf32>) -> tensor<12xf32>
    %4 = call @sort(%3) : (tensor<12xf32>) -> tensor<12xf32>
    %5 = stablehlo.slice %4 [0:12:2] : (tensor<12xf32>) -> tensor<6xf32>
    %6 = stablehlo.reshape %arg0 : (tensor<3x4xf32>) -> tensor<12xf32>
    %values, %indices = chlo.top_k(%6, k = 3) : tensor<12xf32> -> (tensor<3xf32>, tensor<3xi32>)
    %7 = call @norm(%arg0) : (tensor<3x4xf32>) -> tensor<f32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %9 = stablehlo.multiply %8, %arg0 : tensor<3x4xf32>
    %10 = stablehlo.negate %arg0 : tensor<3x4xf32>
    %cst_0 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<3x4xf32>
    %13 = chlo.erfc %12 : tensor<3x4xf32> -> tensor<3x4xf32>
    %14 = stablehlo.multiply %9, %13 : tensor<3x4xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %15 = stablehlo.reduce(%arg1 init: %cst_1) applies stablehlo.maximum across dimensions = [0] : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %17 = stablehlo.maximum %16, %15 : tensor<4xf32>
    %18 = stablehlo.is_finite %17 : (tensor<4xf32>) -> tensor<4xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %20 = stablehlo.select %18, %17, %19 : tensor<4xi1>, tensor<4xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x4xf32>) -> tensor<5x4xf32>
    %23 = stablehlo.subtract %arg1, %22 : tensor<5x4xf32>
    %24 = stablehlo.exponential %23 : tensor<5x4xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.reduce(%24 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<5x4xf32>, tensor<f32>) -> tensor<4xf32>
    %26 = stablehlo.abs %25 : tensor<4xf32>
    %27 = stablehlo.log %26 : tensor<4xf32>
    %28 = stablehlo.add %27, %20 : tensor<4xf32>
    %cst_5 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %29 = call @clip(%arg0, %cst_5, %cst_6) : (tensor<3x4xf32>, tensor<f64>, tensor<f64>) -> tensor<3x4xf32>
    %30 = stablehlo.convert %29 : (tensor<3x4xf32>) -> tensor<3x4xbf16>
    %31 = stablehlo.convert %30 : (tensor<3x4xbf16>) -> tensor<3x4xf32>
    %32 = call @_roll_static(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0, %1, %2, %5, %values, %7, %14, %28, %31, %32 : tensor<3xi64>, tensor<3x4xf32>, tensor<3x5xf32>, tensor<6xf32>, tensor<3xf32>, tensor<f32>, tensor<3x4xf32>, tensor<4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
  }
  func.func private @argmax(%arg0: tensor<3x4xf32>) -> tensor<3xi64> {
    %0 = stablehlo.iota dim = 1 : tensor<3x4xi64>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<3x4xf32>, tensor<3x4xi64>, tensor<f32>, tensor<i64>) -> (tensor<3xf32>, tensor<3xi64>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i64>, %arg4: tensor<i64>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i64>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i64>
    }
    return %1#1 : tensor<3xi64>
  }
  func.func private @cumsum(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[2, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 3, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
    return %1 : tensor<3x4xf32>
  }
  func.func private @sort(%arg0: tensor<12xf32>) -> tensor<12xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<12xf32>) -> tensor<12xf32>
    return %0 : tensor<12xf32>
  }
  func.func private @norm(%arg0: tensor<3x4xf32>) -> tensor<f32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<3x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.sqrt %1 : tensor<f32>
    return %2 : tensor<f32>
  }
  func.func private @clip(%arg0: tensor<3x4xf32>, %arg1: tensor<f64>, %arg2: tensor<f64>) -> tensor<3x4xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<3x4xf32>
    %3 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<3x4xf32>
    return %5 : tensor<3x4xf32>
  }
  func.func private @_roll_static(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = stablehlo.slice %arg0 [0:3, 3:4] : (tensor<3x4xf32>) -> tensor<3x1xf32>
    %1 = stablehlo.slice %arg0 [0:3, 0:3] : (tensor<3x4xf32>) -> tensor<3x3xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 1 : (tensor<3x1xf32>, tensor<3x3xf32>) -> tensor<3x4xf32>
    return %2 : tensor<3x4xf32>
  }
}
