module @jit_control_while_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<i32>) -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %arg0, %iterArg_2 = %arg0, %iterArg_3 = %c) : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<i32>
    cond {
      %2 = stablehlo.multiply %iterArg_2, %iterArg_2 : tensor<6xf32>
      %3 = stablehlo.subtract %2, %iterArg : tensor<6xf32>
      %4 = stablehlo.abs %3 : tensor<6xf32>
      %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %5 = stablehlo.reduce(%4 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
      %cst_4 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %6 = stablehlo.reduce(%iterArg init: %cst_4) applies stablehlo.maximum across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
      %cst_5 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
      %7 = stablehlo.multiply %cst_5, %6 : tensor<f32>
      %8 = stablehlo.compare GT, %5, %7, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_6 = stablehlo.constant dense<50> : tensor<i32>
      %9 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %10 = stablehlo.and %8, %9 : tensor<i1>
      stablehlo.return %10 : tensor<i1>
    } do {
      %2 = stablehlo.divide %iterArg_1, %iterArg_2 : tensor<6xf32>
      %3 = stablehlo.add %iterArg_2, %2 : tensor<6xf32>
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %5 = stablehlo.multiply %4, %3 : tensor<6xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %iterArg_3, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_1, %5, %6 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<i32>
    }
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%iterArg = %arg1, %iterArg_1 = %c_0) : tensor<i32>, tensor<i32>
    cond {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.compare NE, %iterArg, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<2> : tensor<i64>
      %2 = func.call @remainder(%iterArg, %c_2) : (tensor<i32>, tensor<i64>) -> tensor<i32>
      %c_3 = stablehlo.constant dense<0> : tensor<i32>
      %3 = stablehlo.compare EQ, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_4 = stablehlo.constant dense<2> : tensor<i64>
      %4 = func.call @floor_divide(%iterArg, %c_4) : (tensor<i32>, tensor<i64>) -> tensor<i32>
      %c_5 = stablehlo.constant dense<3> : tensor<i32>
      %5 = stablehlo.multiply %c_5, %iterArg : tensor<i32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %6 = stablehlo.add %5, %c_6 : tensor<i32>
      %7 = func.call @_where(%3, %4, %6) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_1, %c_7 : tensor<i32>
      stablehlo.return %7, %8 : tensor<i32>, tensor<i32>
    }
    return %0#2, %1#1 : tensor<6xf32>, tensor<i32>
  }
  func.func private @remainder(%arg0: tensor<i32>, %arg1: tensor<i64>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare NE, %3, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.compare LT, %3, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.compare NE, %5, %6, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %8 = stablehlo.and %7, %4 : tensor<i1>
    %9 = stablehlo.add %3, %2 : tensor<i32>
    %10 = stablehlo.select %8, %9, %3 : tensor<i1>, tensor<i32>
    return %10 : tensor<i32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @floor_divide(%arg0: tensor<i32>, %arg1: tensor<i64>) -> tensor<i32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.divide %arg0, %0 : tensor<i32>
    %2 = stablehlo.sign %arg0 : tensor<i32>
    %3 = stablehlo.sign %0 : tensor<i32>
    %4 = stablehlo.compare NE, %2, %3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %5 = stablehlo.remainder %arg0, %0 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.compare NE, %5, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.and %4, %6 : tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.subtract %1, %c_0 : tensor<i32>
    %9 = call @_where(%7, %8, %1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    return %9 : tensor<i32>
  }
}
