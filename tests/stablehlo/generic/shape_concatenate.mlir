"builtin.module"() <{sym_name = "jit_shape_concatenate"}> ({
  "func.func"() <{function_type = (tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x5xf32>, tensor<4xf32>, tensor<4xf32>) -> (tensor<6x3xf32>, tensor<2x11xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<9xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x3xf32>, %arg1: tensor<4x3xf32>, %arg2: tensor<2x5xf32>, %arg3: tensor<4xf32>, %arg4: tensor<4xf32>):
    %0 = "stablehlo.concatenate"(%arg0, %arg1) <{dimension = 0 : i64}> : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    %1 = "stablehlo.concatenate"(%arg0, %arg2, %arg0) <{dimension = 1 : i64}> : (tensor<2x3xf32>, tensor<2x5xf32>, tensor<2x3xf32>) -> tensor<2x11xf32>
    %2 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %3 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1x4xf32>
    %4 = "stablehlo.concatenate"(%2, %3) <{dimension = 0 : i64}> : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
    %5 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %6 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %7 = "stablehlo.concatenate"(%5, %6) <{dimension = 1 : i64}> : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x2xf32>
    %8 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 1>, start_indices = array<i64: 0>, strides = array<i64: 1>}> : (tensor<4xf32>) -> tensor<1xf32>
    %9 = "stablehlo.concatenate"(%arg3, %arg4, %8) <{dimension = 0 : i64}> : (tensor<4xf32>, tensor<4xf32>, tensor<1xf32>) -> tensor<9xf32>
    "func.return"(%0, %1, %4, %7, %9) : (tensor<6x3xf32>, tensor<2x11xf32>, tensor<2x4xf32>, tensor<4x2xf32>, tensor<9xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
