"builtin.module"() <{sym_name = "jit_shape_reshape"}> ({
  "func.func"() <{function_type = (tensor<2x3x4xf32>, tensor<f32>, tensor<3x4xf32>) -> (tensor<6x4xf32>, tensor<24xf32>, tensor<2x1x12x1xf32>, tensor<4x6xf32>, tensor<1x1xf32>, tensor<2x2xf32>, tensor<3x1x4x1xf32>, tensor<3x4xf32>, tensor<1x2x1x3x4xf32>, tensor<12xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x3x4xf32>, %arg1: tensor<f32>, %arg2: tensor<3x4xf32>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %1 = "stablehlo.reshape"(%arg0) : (tensor<2x3x4xf32>) -> tensor<24xf32>
    %2 = "stablehlo.reshape"(%arg0) : (tensor<2x3x4xf32>) -> tensor<2x1x12x1xf32>
    %3 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 2, 1, 0>}> : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
    %4 = "stablehlo.reshape"(%3) : (tensor<4x3x2xf32>) -> tensor<4x6xf32>
    %5 = "stablehlo.reshape"(%arg1) : (tensor<f32>) -> tensor<1x1xf32>
    %6 = "stablehlo.reshape"(%arg0) : (tensor<2x3x4xf32>) -> tensor<24x1xf32>
    %7 = "stablehlo.slice"(%6) <{limit_indices = array<i64: 9, 1>, start_indices = array<i64: 5, 0>, strides = array<i64: 1, 1>}> : (tensor<24x1xf32>) -> tensor<4x1xf32>
    %8 = "stablehlo.reshape"(%7) : (tensor<4x1xf32>) -> tensor<2x2xf32>
    %9 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 0, 2>}> : (tensor<3x4xf32>) -> tensor<3x1x4x1xf32>
    %10 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 1, 3, 4>, start_indices = array<i64: 0, 0, 0>, strides = array<i64: 1, 1, 1>}> : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 2, 3>}> : (tensor<1x3x4xf32>) -> tensor<1x1x3x4xf32>
    %12 = "stablehlo.reshape"(%11) : (tensor<1x1x3x4xf32>) -> tensor<3x4xf32>
    %13 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 1, 3, 4>}> : (tensor<2x3x4xf32>) -> tensor<1x2x1x3x4xf32>
    %14 = "stablehlo.reshape"(%arg2) : (tensor<3x4xf32>) -> tensor<12xf32>
    "func.return"(%0, %1, %2, %4, %5, %8, %9, %12, %13, %14) : (tensor<6x4xf32>, tensor<24xf32>, tensor<2x1x12x1xf32>, tensor<4x6xf32>, tensor<1x1xf32>, tensor<2x2xf32>, tensor<3x1x4x1xf32>, tensor<3x4xf32>, tensor<1x2x1x3x4xf32>, tensor<12xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
