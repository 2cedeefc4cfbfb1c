module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>, %arg1: tensor<f32>) -> (tensor<5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.compare GT, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %1 = stablehlo.convert %0 : (tensor<i1>) -> tensor<i32>
    %2 = "stablehlo.case"(%1) ({
      %6 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %7 = stablehlo.subtract %arg0, %6 : tensor<5xf32>
      stablehlo.return %7 : tensor<5xf32>
    }, {
      %6 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %7 = stablehlo.multiply %arg0, %6 : tensor<5xf32>
      stablehlo.return %7 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %4:4 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c_1, %iterArg_3 = %c, %iterArg_4 = %3) : tensor<5xf32>, tensor<i64>, tensor<i64>, tensor<5xf32>
    cond {
      %c_5 = stablehlo.constant dense<3> : tensor<i64>
      %6 = stablehlo.compare LT, %iterArg_2, %c_5, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    } do {
      %6:2 = func.call @closed_call(%iterArg, %iterArg_3, %iterArg_4) : (tensor<5xf32>, tensor<i64>, tensor<5xf32>) -> (tensor<i64>, tensor<5xf32>)
      %c_5 = stablehlo.constant dense<1> : tensor<i64>
      %7 = stablehlo.add %iterArg_2, %c_5 : tensor<i64>
      stablehlo.return %iterArg, %7, %6#0, %6#1 : tensor<5xf32>, tensor<i64>, tensor<i64>, tensor<5xf32>
    }
    %5 = stablehlo.add %2, %4#3 : tensor<5xf32>
    return %5 : tensor<5xf32>
  }
  func.func private @closed_call(%arg0: tensor<5xf32>, %arg1: tensor<i64>, %arg2: tensor<5xf32>) -> (tensor<i64>, tensor<5xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg1, %c : tensor<i64>
    %1 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %3 = stablehlo.multiply %arg0, %2 : tensor<5xf32>
    %4 = stablehlo.add %arg2, %3 : tensor<5xf32>
    return %0, %4 : tensor<i64>, tensor<5xf32>
  }
}
