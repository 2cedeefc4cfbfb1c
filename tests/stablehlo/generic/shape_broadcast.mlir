"builtin.module"() <{sym_name = "jit_shape_broadcast"}> ({
  "func.func"() <{function_type = (tensor<5xf32>, tensor<4xf32>, tensor<f32>, tensor<1x5xf32>) -> (tensor<3x4x5xf32>, tensor<5x4xf32>, tensor<1x5xf32>, tensor<1x5xf32>, tensor<2x4x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<5xf32>, %arg1: tensor<4xf32>, %arg2: tensor<f32>, %arg3: tensor<1x5xf32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 2>}> : (tensor<5xf32>) -> tensor<3x4x5xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xf32>) -> tensor<5x1xf32>
    %2 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %3 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<5x1xf32>) -> tensor<5x4xf32>
    %4 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x4xf32>) -> tensor<5x4xf32>
    %5 = "stablehlo.add"(%3, %4) : (tensor<5x4xf32>, tensor<5x4xf32>) -> tensor<5x4xf32>
    %6 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x5xf32>
    %7 = "stablehlo.multiply"(%6, %arg3) : (tensor<1x5xf32>, tensor<1x5xf32>) -> tensor<1x5xf32>
    %8 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<5xf32>) -> tensor<1x5xf32>
    %9 = "stablehlo.add"(%arg3, %8) : (tensor<1x5xf32>, tensor<1x5xf32>) -> tensor<1x5xf32>
    %10 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<2x4x3xf32>
    "func.return"(%0, %5, %7, %9, %10) : (tensor<3x4x5xf32>, tensor<5x4xf32>, tensor<1x5xf32>, tensor<1x5xf32>, tensor<2x4x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
