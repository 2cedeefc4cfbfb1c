module @jit_control_fori_loop attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<i32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_3 = %c, %iterArg_4 = %arg0) : tensor<i64>, tensor<i64>, tensor<8xf32>
    cond {
      %c_5 = stablehlo.constant dense<10> : tensor<i64>
      %2 = stablehlo.compare LT, %iterArg, %c_5, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2:2 = func.call @closed_call(%iterArg_3, %iterArg_4) : (tensor<i64>, tensor<8xf32>) -> (tensor<i64>, tensor<8xf32>)
      %c_5 = stablehlo.constant dense<1> : tensor<i64>
      %3 = stablehlo.add %iterArg, %c_5 : tensor<i64>
      stablehlo.return %3, %2#0, %2#1 : tensor<i64>, tensor<i64>, tensor<8xf32>
    }
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %1:3 = stablehlo.while(%iterArg = %c_1, %iterArg_3 = %arg1, %iterArg_4 = %c_2) : tensor<i32>, tensor<i32>, tensor<i32>
    cond {
      %2 = stablehlo.compare LT, %iterArg, %iterArg_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_5 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_5 : tensor<i32>
      %3 = stablehlo.add %iterArg_4, %iterArg : tensor<i32>
      stablehlo.return %2, %iterArg_3, %3 : tensor<i32>, tensor<i32>, tensor<i32>
    }
    return %0#2, %1#2 : tensor<8xf32>, tensor<i32>
  }
  func.func private @closed_call(%arg0: tensor<i64>, %arg1: tensor<8xf32>) -> (tensor<i64>, tensor<8xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %cst = stablehlo.constant dense<0.899999976> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<8xf32>
    %3 = stablehlo.sine %arg1 : tensor<8xf32>
    %4 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %6 = stablehlo.multiply %3, %5 : tensor<8xf32>
    %cst_0 = stablehlo.constant dense<0.00999999977> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<8xf32>
    %9 = stablehlo.add %2, %8 : tensor<8xf32>
    return %0, %9 : tensor<i64>, tensor<8xf32>
  }
}
