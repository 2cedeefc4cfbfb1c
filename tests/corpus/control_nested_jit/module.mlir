module @jit_control_nested_jit attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf32>) -> (tensor<12xf32> {jax.result_info = "result[0]"}, tensor<4xf32> {jax.result_info = "result[1]"}) {
    %0 = call @middle(%arg0) : (tensor<12xf32>) -> tensor<12xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<12xf32>) -> tensor<4x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3:3 = stablehlo.while(%iterArg = %1, %iterArg_0 = %c, %iterArg_1 = %2) : tensor<4x3xf32>, tensor<i64>, tensor<4xf32>
    cond {
      %c_2 = stablehlo.constant dense<4> : tensor<i64>
      %4 = stablehlo.compare LT, %iterArg_0, %c_2, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_0) : (tensor<4x3xf32>, tensor<i64>) -> tensor<3xf32>
      %5 = func.call @closed_call(%4) : (tensor<3xf32>) -> tensor<f32>
      %6 = func.call @dynamic_update_index_in_dim(%iterArg_1, %5, %iterArg_0) : (tensor<4xf32>, tensor<f32>, tensor<i64>) -> tensor<4xf32>
      %c_2 = stablehlo.constant dense<1> : tensor<i64>
      %7 = stablehlo.add %iterArg_0, %c_2 : tensor<i64>
      stablehlo.return %iterArg, %7, %6 : tensor<4x3xf32>, tensor<i64>, tensor<4xf32>
    }
    return %0, %3#2 : tensor<12xf32>, tensor<4xf32>
  }
  func.func private @middle(%arg0: tensor<12xf32>) -> tensor<12xf32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %0 = call @inner(%arg0, %cst) : (tensor<12xf32>, tensor<f64>) -> tensor<12xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<12xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %3 = call @inner(%2, %cst_1) : (tensor<12xf32>, tensor<f64>) -> tensor<12xf32>
    %4 = stablehlo.add %0, %3 : tensor<12xf32>
    return %4 : tensor<12xf32>
  }
  func.func private @inner(%arg0: tensor<12xf32>, %arg1: tensor<f64>) -> tensor<12xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<12xf32>
    %1 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %3 = stablehlo.multiply %0, %2 : tensor<12xf32>
    return %3 : tensor<12xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x3xf32>, %arg1: tensor<i64>) -> tensor<3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3xf32>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
  func.func private @closed_call(%arg0: tensor<3xf32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %0 = call @inner_0(%arg0, %cst) : (tensor<3xf32>, tensor<f64>) -> tensor<3xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst_0) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @inner_0(%arg0: tensor<3xf32>, %arg1: tensor<f64>) -> tensor<3xf32> {
    %0 = stablehlo.tanh %arg0 : tensor<3xf32>
    %1 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %3 = stablehlo.multiply %0, %2 : tensor<3xf32>
    return %3 : tensor<3xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<i64>) -> tensor<4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<4xf32>, tensor<1xf32>, tensor<i64>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
