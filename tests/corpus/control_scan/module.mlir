module @jit_control_scan attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8xf32>, %arg3: tensor<6x4xf32>, %arg4: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<6x8xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1:7 = stablehlo.while(%iterArg = %arg3, %iterArg_0 = %arg0, %iterArg_1 = %arg1, %iterArg_2 = %arg2, %iterArg_3 = %c, %iterArg_4 = %arg4, %iterArg_5 = %0) : tensor<6x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<i64>, tensor<8xf32>, tensor<6x8xf32>
    cond {
      %c_6 = stablehlo.constant dense<6> : tensor<i64>
      %2 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_3) : (tensor<6x4xf32>, tensor<i64>) -> tensor<4xf32>
      %3:2 = func.call @closed_call(%iterArg_0, %iterArg_1, %iterArg_2, %iterArg_4, %2) : (tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
      %4 = func.call @dynamic_update_index_in_dim(%iterArg_5, %3#1, %iterArg_3) : (tensor<6x8xf32>, tensor<8xf32>, tensor<i64>) -> tensor<6x8xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i64>
      %5 = stablehlo.add %iterArg_3, %c_6 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_0, %iterArg_1, %iterArg_2, %5, %3#0, %4 : tensor<6x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<i64>, tensor<8xf32>, tensor<6x8xf32>
    }
    return %1#5, %1#6 : tensor<8xf32>, tensor<6x8xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<6x4xf32>, %arg1: tensor<i64>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 4] : (tensor<6x4xf32>, tensor<i64>, tensor<i64>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @closed_call(%arg0: tensor<8x8xf32>, %arg1: tensor<8x4xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>, %arg4: tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    %0 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = stablehlo.dot_general %arg1, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %2 = stablehlo.add %0, %1 : tensor<8xf32>
    %3 = stablehlo.add %2, %arg2 : tensor<8xf32>
    %4 = stablehlo.tanh %3 : tensor<8xf32>
    return %4, %4 : tensor<8xf32>, tensor<8xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<6x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<i64>) -> tensor<6x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<6x8xf32>, tensor<1x8xf32>, tensor<i64>, tensor<i64>) -> tensor<6x8xf32>
    return %1 : tensor<6x8xf32>
  }
}
