"builtin.module"() <{sym_name = "jit_control_scan"}> ({
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<6x4xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<6x8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg10: tensor<8x8xf32>, %arg11: tensor<8x4xf32>, %arg12: tensor<8xf32>, %arg13: tensor<6x4xf32>, %arg14: tensor<8xf32>):
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x8xf32>
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %14:7 = "stablehlo.while"(%arg13, %arg10, %arg11, %arg12, %13, %arg14, %12) ({
    ^bb0(%arg22: tensor<6x4xf32>, %arg23: tensor<8x8xf32>, %arg24: tensor<8x4xf32>, %arg25: tensor<8xf32>, %arg26: tensor<i64>, %arg27: tensor<8xf32>, %arg28: tensor<6x8xf32>):
      %20 = "stablehlo.constant"() <{value = dense<6> : tensor<i64>}> : () -> tensor<i64>
      %21 = "stablehlo.compare"(%arg26, %20) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%21) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg15: tensor<6x4xf32>, %arg16: tensor<8x8xf32>, %arg17: tensor<8x4xf32>, %arg18: tensor<8xf32>, %arg19: tensor<i64>, %arg20: tensor<8xf32>, %arg21: tensor<6x8xf32>):
      %15 = "func.call"(%arg15, %arg19) <{callee = @dynamic_index_in_dim}> : (tensor<6x4xf32>, tensor<i64>) -> tensor<4xf32>
      %16:2 = "func.call"(%arg16, %arg17, %arg18, %arg20, %15) <{callee = @closed_call}> : (tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>)
      %17 = "func.call"(%arg21, %16#1, %arg19) <{callee = @dynamic_update_index_in_dim}> : (tensor<6x8xf32>, tensor<8xf32>, tensor<i64>) -> tensor<6x8xf32>
      %18 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
      %19 = "stablehlo.add"(%arg19, %18) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%arg15, %arg16, %arg17, %arg18, %19, %16#0, %17) : (tensor<6x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<i64>, tensor<8xf32>, tensor<6x8xf32>) -> ()
    }) : (tensor<6x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<i64>, tensor<8xf32>, tensor<6x8xf32>) -> (tensor<6x4xf32>, tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<i64>, tensor<8xf32>, tensor<6x8xf32>)
    "func.return"(%14#5, %14#6) : (tensor<8xf32>, tensor<6x8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x4xf32>, tensor<i64>) -> tensor<4xf32>, sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<6x4xf32>, %arg9: tensor<i64>):
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %9 = "stablehlo.dynamic_slice"(%arg8, %arg9, %8) <{slice_sizes = array<i64: 1, 4>}> : (tensor<6x4xf32>, tensor<i64>, tensor<i64>) -> tensor<1x4xf32>
    %10 = "stablehlo.reshape"(%9) : (tensor<1x4xf32>) -> tensor<4xf32>
    "func.return"(%10) : (tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x8xf32>, tensor<8x4xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4xf32>) -> (tensor<8xf32>, tensor<8xf32>), sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<8x8xf32>, %arg4: tensor<8x4xf32>, %arg5: tensor<8xf32>, %arg6: tensor<8xf32>, %arg7: tensor<4xf32>):
    %3 = "stablehlo.dot_general"(%arg3, %arg6) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %4 = "stablehlo.dot_general"(%arg4, %arg7) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8xf32>
    %5 = "stablehlo.add"(%3, %4) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %6 = "stablehlo.add"(%5, %arg5) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %7 = "stablehlo.tanh"(%6) : (tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%7, %7) : (tensor<8xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x8xf32>, tensor<8xf32>, tensor<i64>) -> tensor<6x8xf32>, sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<6x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<i64>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %1 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %2 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2, %1) : (tensor<6x8xf32>, tensor<1x8xf32>, tensor<i64>, tensor<i64>) -> tensor<6x8xf32>
    "func.return"(%2) : (tensor<6x8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
