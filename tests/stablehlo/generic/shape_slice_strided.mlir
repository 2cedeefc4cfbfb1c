"builtin.module"() <{sym_name = "jit_shape_slice_strided"}> ({
  "func.func"() <{function_type = (tensor<6x8xf32>, tensor<10xi32>, tensor<2x3x4xi32>) -> (tensor<3x6xf32>, tensor<3x3xf32>, tensor<6x4xf32>, tensor<3x3xf32>, tensor<7xi32>, tensor<3xi32>, tensor<10xi32>, tensor<0xi32>, tensor<8xf32>, tensor<6xf32>, tensor<2x3x4xi32>, tensor<2x3x4xi32>, tensor<2x3x4xi32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<6x8xf32>, %arg4: tensor<10xi32>, %arg5: tensor<2x3x4xi32>):
    %3 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 4, 8>, start_indices = array<i64: 1, 2>, strides = array<i64: 1, 1>}> : (tensor<6x8xf32>) -> tensor<3x6xf32>
    %4 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 6, 8>, start_indices = array<i64: 0, 1>, strides = array<i64: 2, 3>}> : (tensor<6x8xf32>) -> tensor<3x3xf32>
    %5 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 6, 8>, start_indices = array<i64: 0, 1>, strides = array<i64: 1, 2>}> : (tensor<6x8xf32>) -> tensor<6x4xf32>
    %6 = "stablehlo.reverse"(%5) <{dimensions = array<i64: 0, 1>}> : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %7 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 5, 7>, start_indices = array<i64: 0, 1>, strides = array<i64: 2, 2>}> : (tensor<6x8xf32>) -> tensor<3x3xf32>
    %8 = "stablehlo.slice"(%arg4) <{limit_indices = array<i64: 10>, start_indices = array<i64: 3>, strides = array<i64: 1>}> : (tensor<10xi32>) -> tensor<7xi32>
    %9 = "stablehlo.slice"(%arg4) <{limit_indices = array<i64: 9>, start_indices = array<i64: 6>, strides = array<i64: 1>}> : (tensor<10xi32>) -> tensor<3xi32>
    %10 = "stablehlo.reverse"(%arg4) <{dimensions = array<i64: 0>}> : (tensor<10xi32>) -> tensor<10xi32>
    %11 = "stablehlo.slice"(%arg4) <{limit_indices = array<i64: 1>, start_indices = array<i64: 1>, strides = array<i64: 1>}> : (tensor<10xi32>) -> tensor<0xi32>
    %12 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 3, 8>, start_indices = array<i64: 2, 0>, strides = array<i64: 1, 1>}> : (tensor<6x8xf32>) -> tensor<1x8xf32>
    %13 = "stablehlo.reshape"(%12) : (tensor<1x8xf32>) -> tensor<8xf32>
    %14 = "stablehlo.slice"(%arg3) <{limit_indices = array<i64: 6, 8>, start_indices = array<i64: 0, 7>, strides = array<i64: 1, 1>}> : (tensor<6x8xf32>) -> tensor<6x1xf32>
    %15 = "stablehlo.reshape"(%14) : (tensor<6x1xf32>) -> tensor<6xf32>
    %16 = "func.call"(%arg5) <{callee = @_flip}> : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    %17 = "func.call"(%arg5) <{callee = @_flip_0}> : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    %18 = "func.call"(%arg5) <{callee = @_flip_1}> : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    "func.return"(%3, %4, %6, %7, %8, %9, %10, %11, %13, %15, %16, %17, %18) : (tensor<3x6xf32>, tensor<3x3xf32>, tensor<6x4xf32>, tensor<3x3xf32>, tensor<7xi32>, tensor<3xi32>, tensor<10xi32>, tensor<0xi32>, tensor<8xf32>, tensor<6xf32>, tensor<2x3x4xi32>, tensor<2x3x4xi32>, tensor<2x3x4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>, sym_name = "_flip", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<2x3x4xi32>):
    %2 = "stablehlo.reverse"(%arg2) <{dimensions = array<i64: 0>}> : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    "func.return"(%2) : (tensor<2x3x4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>, sym_name = "_flip_0", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<2x3x4xi32>):
    %1 = "stablehlo.reverse"(%arg1) <{dimensions = array<i64: 1, 2>}> : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    "func.return"(%1) : (tensor<2x3x4xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>, sym_name = "_flip_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x3x4xi32>):
    %0 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0, 1, 2>}> : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    "func.return"(%0) : (tensor<2x3x4xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
