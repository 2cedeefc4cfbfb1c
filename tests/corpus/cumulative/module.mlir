module @jit_cumulative attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x16xf32>, %arg1: tensor<20xi32>, %arg2: tensor<20xi1>) -> (tensor<5x16xf32> {jax.result_info = "result[0]"}, tensor<5x16xf32> {jax.result_info = "result[1]"}, tensor<5x16xf32> {jax.result_info = "result[2]"}, tensor<5x16xf32> {jax.result_info = "result[3]"}, tensor<5x16xf32> {jax.result_info = "result[4]"}, tensor<5x16xf32> {jax.result_info = "result[5]"}, tensor<5x16xf32> {jax.result_info = "result[6]"}, tensor<20xi32> {jax.result_info = "result[7]"}, tensor<20xi32> {jax.result_info = "result[8]"}, tensor<20xi32> {jax.result_info = "result[9]"}, tensor<6xi32> {jax.result_info = "result[10]"}) {
    %0 = call @cumsum(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %1 = call @cumsum_1(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %2 = call @cumsum_3(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %cst = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %4 = stablehlo.multiply %3, %arg0 : tensor<5x16xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %6 = stablehlo.add %5, %4 : tensor<5x16xf32>
    %7 = call @cumprod(%6) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %8 = call @cummax(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %9 = call @cummin(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %10 = call @cumlogsumexp(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %11 = call @cumsum_5(%arg1) : (tensor<20xi32>) -> tensor<20xi32>
    %12 = call @cummax_7(%arg1) : (tensor<20xi32>) -> tensor<20xi32>
    %13 = call @cumsum_8(%arg2) : (tensor<20xi1>) -> tensor<20xi32>
    %14 = stablehlo.slice %arg1 [0:6] : (tensor<20xi32>) -> tensor<6xi32>
    %c = stablehlo.constant dense<5> : tensor<i64>
    %15 = call @remainder(%14, %c) : (tensor<6xi32>, tensor<i64>) -> tensor<6xi32>
    %16 = call @cumprod_9(%15) : (tensor<6xi32>) -> tensor<6xi32>
    return %0, %1, %2, %7, %8, %9, %10, %11, %12, %13, %16 : tensor<5x16xf32>, tensor<5x16xf32>, tensor<5x16xf32>, tensor<5x16xf32>, tensor<5x16xf32>, tensor<5x16xf32>, tensor<5x16xf32>, tensor<20xi32>, tensor<20xi32>, tensor<20xi32>, tensor<6xi32>
  }
  func.func private @cumsum(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    return %0 : tensor<5x16xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[4, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 5, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x16xf32>, tensor<f32>) -> tensor<5x16xf32>
    return %1 : tensor<5x16xf32>
  }
  func.func private @cumsum_1(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %0 = call @cumsum_2(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    return %0 : tensor<5x16xf32>
  }
  func.func private @cumsum_2(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x16xf32>, tensor<f32>) -> tensor<5x16xf32>
    return %1 : tensor<5x16xf32>
  }
  func.func private @cumsum_3(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 15]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x16xf32>, tensor<f32>) -> tensor<5x16xf32>
    return %1 : tensor<5x16xf32>
  }
  func.func private @cumprod(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %0 = call @cumprod_4(%arg0) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    return %0 : tensor<5x16xf32>
  }
  func.func private @cumprod_4(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.multiply %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<5x16xf32>, tensor<f32>) -> tensor<5x16xf32>
    return %0 : tensor<5x16xf32>
  }
  func.func private @cummax(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x16xf32>, tensor<f32>) -> tensor<5x16xf32>
    return %1 : tensor<5x16xf32>
  }
  func.func private @cummin(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[4, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 5, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.minimum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<5x16xf32>, tensor<f32>) -> tensor<5x16xf32>
    return %1 : tensor<5x16xf32>
  }
  func.func private @cumlogsumexp(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      %2 = stablehlo.subtract %arg1, %arg2 : tensor<f32>
      %3 = stablehlo.compare NE, %2, %2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.add %arg1, %arg2 : tensor<f32>
      %5 = stablehlo.abs %2 : tensor<f32>
      %6 = stablehlo.negate %5 : tensor<f32>
      %7 = stablehlo.exponential %6 : tensor<f32>
      %8 = stablehlo.log_plus_one %7 : tensor<f32>
      %9 = stablehlo.add %1, %8 : tensor<f32>
      %10 = stablehlo.select %3, %4, %9 : tensor<i1>, tensor<f32>
      stablehlo.return %10 : tensor<f32>
    }) : (tensor<5x16xf32>, tensor<f32>) -> tensor<5x16xf32>
    return %0 : tensor<5x16xf32>
  }
  func.func private @cumsum_5(%arg0: tensor<20xi32>) -> tensor<20xi32> {
    %0 = call @cumsum_6(%arg0) : (tensor<20xi32>) -> tensor<20xi32>
    return %0 : tensor<20xi32>
  }
  func.func private @cumsum_6(%arg0: tensor<20xi32>) -> tensor<20xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[19, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 20>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<20xi32>, tensor<i32>) -> tensor<20xi32>
    return %1 : tensor<20xi32>
  }
  func.func private @cummax_7(%arg0: tensor<20xi32>) -> tensor<20xi32> {
    %c = stablehlo.constant dense<-2147483648> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[19, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 20>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<20xi32>, tensor<i32>) -> tensor<20xi32>
    return %1 : tensor<20xi32>
  }
  func.func private @cumsum_8(%arg0: tensor<20xi1>) -> tensor<20xi32> {
    %0 = stablehlo.convert %arg0 : (tensor<20xi1>) -> tensor<20xi32>
    %1 = call @cumsum_6(%0) : (tensor<20xi32>) -> tensor<20xi32>
    return %1 : tensor<20xi32>
  }
  func.func private @remainder(%arg0: tensor<6xi32>, %arg1: tensor<i64>) -> tensor<6xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<6xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
    %12 = stablehlo.and %11, %6 : tensor<6xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %14 = stablehlo.add %4, %13 : tensor<6xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<6xi1>, tensor<6xi32>
    return %15 : tensor<6xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @cumprod_9(%arg0: tensor<6xi32>) -> tensor<6xi32> {
    %0 = call @cumprod_10(%arg0) : (tensor<6xi32>) -> tensor<6xi32>
    return %0 : tensor<6xi32>
  }
  func.func private @cumprod_10(%arg0: tensor<6xi32>) -> tensor<6xi32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = "stablehlo.reduce_window"(%arg0, %c) <{base_dilations = array<i64: 1>, padding = dense<[[5, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 6>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %1 = stablehlo.multiply %arg1, %arg2 : tensor<i32>
      stablehlo.return %1 : tensor<i32>
    }) : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    return %0 : tensor<6xi32>
  }
}
