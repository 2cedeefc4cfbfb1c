"builtin.module"() <{sym_name = "jit_elementwise_f32_unary_exact"}> ({
  "func.func"() <{function_type = (tensor<60xf32>) -> (tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xi1>, tensor<60xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<60xf32>):
    %8 = "stablehlo.abs"(%arg5) : (tensor<60xf32>) -> tensor<60xf32>
    %9 = "stablehlo.negate"(%arg5) : (tensor<60xf32>) -> tensor<60xf32>
    %10 = "stablehlo.sign"(%arg5) : (tensor<60xf32>) -> tensor<60xf32>
    %11 = "stablehlo.floor"(%arg5) : (tensor<60xf32>) -> tensor<60xf32>
    %12 = "stablehlo.ceil"(%arg5) : (tensor<60xf32>) -> tensor<60xf32>
    %13 = "func.call"(%arg5) <{callee = @round}> : (tensor<60xf32>) -> tensor<60xf32>
    %14 = "stablehlo.round_nearest_afz"(%arg5) : (tensor<60xf32>) -> tensor<60xf32>
    %15 = "stablehlo.sqrt"(%arg5) : (tensor<60xf32>) -> tensor<60xf32>
    %16 = "stablehlo.is_finite"(%arg5) : (tensor<60xf32>) -> tensor<60xi1>
    %17 = "func.call"(%arg5) <{callee = @trunc}> : (tensor<60xf32>) -> tensor<60xf32>
    "func.return"(%8, %9, %10, %11, %12, %13, %14, %15, %16, %17) : (tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xf32>, tensor<60xi1>, tensor<60xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xf32>) -> tensor<60xf32>, sym_name = "round", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<60xf32>):
    %7 = "stablehlo.round_nearest_even"(%arg4) : (tensor<60xf32>) -> tensor<60xf32>
    "func.return"(%7) : (tensor<60xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xf32>) -> tensor<60xf32>, sym_name = "trunc", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<60xf32>):
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<60xf32>
    %3 = "stablehlo.compare"(%arg3, %2) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<60xf32>, tensor<60xf32>) -> tensor<60xi1>
    %4 = "stablehlo.ceil"(%arg3) : (tensor<60xf32>) -> tensor<60xf32>
    %5 = "stablehlo.floor"(%arg3) : (tensor<60xf32>) -> tensor<60xf32>
    %6 = "func.call"(%3, %4, %5) <{callee = @_where}> : (tensor<60xi1>, tensor<60xf32>, tensor<60xf32>) -> tensor<60xf32>
    "func.return"(%6) : (tensor<60xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<60xi1>, tensor<60xf32>, tensor<60xf32>) -> tensor<60xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<60xi1>, %arg1: tensor<60xf32>, %arg2: tensor<60xf32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<60xi1>, tensor<60xf32>, tensor<60xf32>) -> tensor<60xf32>
    "func.return"(%0) : (tensor<60xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
