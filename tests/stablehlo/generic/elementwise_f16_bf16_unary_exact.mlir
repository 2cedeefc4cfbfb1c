"builtin.module"() <{sym_name = "jit_elementwise_f16_bf16_unary_exact"}> ({
  "func.func"() <{function_type = (tensor<60xf16>, tensor<60xbf16>) -> (tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xi1>, tensor<60xf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xi1>, tensor<60xbf16>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}, {jax.result_info = "result[13]"}, {jax.result_info = "result[14]"}, {jax.result_info = "result[15]"}, {jax.result_info = "result[16]"}, {jax.result_info = "result[17]"}, {jax.result_info = "result[18]"}, {jax.result_info = "result[19]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg10: tensor<60xf16>, %arg11: tensor<60xbf16>):
    %16 = "stablehlo.abs"(%arg10) : (tensor<60xf16>) -> tensor<60xf16>
    %17 = "stablehlo.negate"(%arg10) : (tensor<60xf16>) -> tensor<60xf16>
    %18 = "stablehlo.sign"(%arg10) : (tensor<60xf16>) -> tensor<60xf16>
    %19 = "stablehlo.floor"(%arg10) : (tensor<60xf16>) -> tensor<60xf16>
    %20 = "stablehlo.ceil"(%arg10) : (tensor<60xf16>) -> tensor<60xf16>
    %21 = "func.call"(%arg10) <{callee = @round}> : (tensor<60xf16>) -> tensor<60xf16>
    %22 = "stablehlo.round_nearest_afz"(%arg10) : (tensor<60xf16>) -> tensor<60xf16>
    %23 = "stablehlo.sqrt"(%arg10) : (tensor<60xf16>) -> tensor<60xf16>
    %24 = "stablehlo.is_finite"(%arg10) : (tensor<60xf16>) -> tensor<60xi1>
    %25 = "func.call"(%arg10) <{callee = @trunc}> : (tensor<60xf16>) -> tensor<60xf16>
    %26 = "stablehlo.abs"(%arg11) : (tensor<60xbf16>) -> tensor<60xbf16>
    %27 = "stablehlo.negate"(%arg11) : (tensor<60xbf16>) -> tensor<60xbf16>
    %28 = "stablehlo.sign"(%arg11) : (tensor<60xbf16>) -> tensor<60xbf16>
    %29 = "stablehlo.floor"(%arg11) : (tensor<60xbf16>) -> tensor<60xbf16>
    %30 = "stablehlo.ceil"(%arg11) : (tensor<60xbf16>) -> tensor<60xbf16>
    %31 = "func.call"(%arg11) <{callee = @round_0}> : (tensor<60xbf16>) -> tensor<60xbf16>
    %32 = "stablehlo.round_nearest_afz"(%arg11) : (tensor<60xbf16>) -> tensor<60xbf16>
    %33 = "stablehlo.sqrt"(%arg11) : (tensor<60xbf16>) -> tensor<60xbf16>
    %34 = "stablehlo.is_finite"(%arg11) : (tensor<60xbf16>) -> tensor<60xi1>
    %35 = "func.call"(%arg11) <{callee = @trunc_1}> : (tensor<60xbf16>) -> tensor<60xbf16>
    "func.return"(%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35) : (tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xi1>, tensor<60xf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xi1>, tensor<60xbf16>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xf16>) -> tensor<60xf16>, sym_name = "round", sym_visibility = "private"}> ({
  ^bb0(%arg9: tensor<60xf16>):
    %15 = "stablehlo.round_nearest_even"(%arg9) : (tensor<60xf16>) -> tensor<60xf16>
    "func.return"(%15) : (tensor<60xf16>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xf16>) -> tensor<60xf16>, sym_name = "trunc", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<60xf16>):
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f16>}> : () -> tensor<f16>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f16>) -> tensor<60xf16>
    %11 = "stablehlo.compare"(%arg8, %10) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<60xf16>, tensor<60xf16>) -> tensor<60xi1>
    %12 = "stablehlo.ceil"(%arg8) : (tensor<60xf16>) -> tensor<60xf16>
    %13 = "stablehlo.floor"(%arg8) : (tensor<60xf16>) -> tensor<60xf16>
    %14 = "func.call"(%11, %12, %13) <{callee = @_where}> : (tensor<60xi1>, tensor<60xf16>, tensor<60xf16>) -> tensor<60xf16>
    "func.return"(%14) : (tensor<60xf16>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xi1>, tensor<60xf16>, tensor<60xf16>) -> tensor<60xf16>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<60xi1>, %arg6: tensor<60xf16>, %arg7: tensor<60xf16>):
    %8 = "stablehlo.select"(%arg5, %arg6, %arg7) : (tensor<60xi1>, tensor<60xf16>, tensor<60xf16>) -> tensor<60xf16>
    "func.return"(%8) : (tensor<60xf16>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xbf16>) -> tensor<60xbf16>, sym_name = "round_0", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<60xbf16>):
    %7 = "stablehlo.round_nearest_even"(%arg4) : (tensor<60xbf16>) -> tensor<60xbf16>
    "func.return"(%7) : (tensor<60xbf16>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xbf16>) -> tensor<60xbf16>, sym_name = "trunc_1", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<60xbf16>):
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<bf16>}> : () -> tensor<bf16>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<bf16>) -> tensor<60xbf16>
    %3 = "stablehlo.compare"(%arg3, %2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<60xbf16>, tensor<60xbf16>) -> tensor<60xi1>
    %4 = "stablehlo.ceil"(%arg3) : (tensor<60xbf16>) -> tensor<60xbf16>
    %5 = "stablehlo.floor"(%arg3) : (tensor<60xbf16>) -> tensor<60xbf16>
    %6 = "func.call"(%3, %4, %5) <{callee = @_where_2}> : (tensor<60xi1>, tensor<60xbf16>, tensor<60xbf16>) -> tensor<60xbf16>
    "func.return"(%6) : (tensor<60xbf16>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xi1>, tensor<60xbf16>, tensor<60xbf16>) -> tensor<60xbf16>, sym_name = "_where_2", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<60xi1>, %arg1: tensor<60xbf16>, %arg2: tensor<60xbf16>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<60xi1>, tensor<60xbf16>, tensor<60xbf16>) -> tensor<60xbf16>
    "func.return"(%0) : (tensor<60xbf16>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
