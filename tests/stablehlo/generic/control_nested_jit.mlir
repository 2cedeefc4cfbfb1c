"builtin.module"() <{sym_name = "jit_control_nested_jit"}> ({
  "func.func"() <{function_type = (tensor<12xf32>) -> (tensor<12xf32>, tensor<4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg13: tensor<12xf32>):
    %26 = "func.call"(%arg13) <{callee = @middle}> : (tensor<12xf32>) -> tensor<12xf32>
    %27 = "stablehlo.reshape"(%arg13) : (tensor<12xf32>) -> tensor<4x3xf32>
    %28 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %30 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %31:3 = "stablehlo.while"(%27, %30, %29) ({
    ^bb0(%arg17: tensor<4x3xf32>, %arg18: tensor<i64>, %arg19: tensor<4xf32>):
      %37 = "stablehlo.constant"() <{value = dense<4> : tensor<i64>}> : () -> tensor<i64>
      %38 = "stablehlo.compare"(%arg18, %37) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%38) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg14: tensor<4x3xf32>, %arg15: tensor<i64>, %arg16: tensor<4xf32>):
      %32 = "func.call"(%arg14, %arg15) <{callee = @dynamic_index_in_dim}> : (tensor<4x3xf32>, tensor<i64>) -> tensor<3xf32>
      %33 = "func.call"(%32) <{callee = @closed_call}> : (tensor<3xf32>) -> tensor<f32>
      %34 = "func.call"(%arg16, %33, %arg15) <{callee = @dynamic_update_index_in_dim}> : (tensor<4xf32>, tensor<f32>, tensor<i64>) -> tensor<4xf32>
      %35 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
      %36 = "stablehlo.add"(%arg15, %35) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%arg14, %36, %34) : (tensor<4x3xf32>, tensor<i64>, tensor<4xf32>) -> ()
    }) : (tensor<4x3xf32>, tensor<i64>, tensor<4xf32>) -> (tensor<4x3xf32>, tensor<i64>, tensor<4xf32>)
    "func.return"(%26, %31#2) : (tensor<12xf32>, tensor<4xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<12xf32>) -> tensor<12xf32>, sym_name = "middle", sym_visibility = "private"}> ({
  ^bb0(%arg12: tensor<12xf32>):
    %18 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %19 = "func.call"(%arg12, %18) <{callee = @inner}> : (tensor<12xf32>, tensor<f64>) -> tensor<12xf32>
    %20 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<12xf32>
    %22 = "stablehlo.multiply"(%arg12, %21) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %23 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %24 = "func.call"(%22, %23) <{callee = @inner}> : (tensor<12xf32>, tensor<f64>) -> tensor<12xf32>
    %25 = "stablehlo.add"(%19, %24) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    "func.return"(%25) : (tensor<12xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<12xf32>, tensor<f64>) -> tensor<12xf32>, sym_name = "inner", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<12xf32>, %arg11: tensor<f64>):
    %14 = "stablehlo.tanh"(%arg10) : (tensor<12xf32>) -> tensor<12xf32>
    %15 = "stablehlo.convert"(%arg11) : (tensor<f64>) -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<12xf32>
    %17 = "stablehlo.multiply"(%14, %16) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    "func.return"(%17) : (tensor<12xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x3xf32>, tensor<i64>) -> tensor<3xf32>, sym_name = "dynamic_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<4x3xf32>, %arg9: tensor<i64>):
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %12 = "stablehlo.dynamic_slice"(%arg8, %arg9, %11) <{slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x3xf32>
    %13 = "stablehlo.reshape"(%12) : (tensor<1x3xf32>) -> tensor<3xf32>
    "func.return"(%13) : (tensor<3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3xf32>) -> tensor<f32>, sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<3xf32>):
    %6 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %7 = "func.call"(%arg5, %6) <{callee = @inner_0}> : (tensor<3xf32>, tensor<f64>) -> tensor<3xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%7, %8) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %10 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%10) : (tensor<f32>) -> ()
    }) : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    "func.return"(%9) : (tensor<f32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3xf32>, tensor<f64>) -> tensor<3xf32>, sym_name = "inner_0", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<3xf32>, %arg4: tensor<f64>):
    %2 = "stablehlo.tanh"(%arg3) : (tensor<3xf32>) -> tensor<3xf32>
    %3 = "stablehlo.convert"(%arg4) : (tensor<f64>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
    %5 = "stablehlo.multiply"(%2, %4) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "func.return"(%5) : (tensor<3xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4xf32>, tensor<f32>, tensor<i64>) -> tensor<4xf32>, sym_name = "dynamic_update_index_in_dim", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xf32>, %arg1: tensor<f32>, %arg2: tensor<i64>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1xf32>
    %1 = "stablehlo.dynamic_update_slice"(%arg0, %0, %arg2) : (tensor<4xf32>, tensor<1xf32>, tensor<i64>) -> tensor<4xf32>
    "func.return"(%1) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
