"builtin.module"() <{sym_name = "jit_elementwise_f64_binary"}> ({
  "func.func"() <{function_type = (tensor<228xf64>, tensor<228xf64>, tensor<185xf64>, tensor<185xf64>) -> (tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<185xf64>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg7: tensor<228xf64>, %arg8: tensor<228xf64>, %arg9: tensor<185xf64>, %arg10: tensor<185xf64>):
    %19 = "stablehlo.add"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %20 = "stablehlo.subtract"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %21 = "stablehlo.multiply"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %22 = "stablehlo.divide"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %23 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %24 = "stablehlo.minimum"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %25 = "stablehlo.remainder"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %26 = "func.call"(%arg7, %arg8) <{callee = @remainder}> : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %27 = "func.call"(%arg7, %arg8) <{callee = @fmax}> : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %28 = "chlo.next_after"(%arg7, %arg8) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %29 = "stablehlo.power"(%arg9, %arg10) : (tensor<185xf64>, tensor<185xf64>) -> tensor<185xf64>
    "func.return"(%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29) : (tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<228xf64>, tensor<185xf64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>, sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<228xf64>, %arg6: tensor<228xf64>):
    %5 = "stablehlo.remainder"(%arg5, %arg6) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<228xf64>
    %8 = "stablehlo.compare"(%5, %7) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xi1>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<228xf64>
    %11 = "stablehlo.compare"(%5, %10) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xi1>
    %12 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %13 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<228xf64>
    %14 = "stablehlo.compare"(%arg6, %13) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xi1>
    %15 = "stablehlo.compare"(%11, %14) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<228xi1>, tensor<228xi1>) -> tensor<228xi1>
    %16 = "stablehlo.and"(%15, %8) : (tensor<228xi1>, tensor<228xi1>) -> tensor<228xi1>
    %17 = "stablehlo.add"(%5, %arg6) : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    %18 = "stablehlo.select"(%16, %17, %5) : (tensor<228xi1>, tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    "func.return"(%18) : (tensor<228xf64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>, sym_name = "fmax", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<228xf64>, %arg4: tensor<228xf64>):
    %1 = "stablehlo.compare"(%arg3, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xi1>
    %2 = "stablehlo.compare"(%arg4, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<228xf64>, tensor<228xf64>) -> tensor<228xi1>
    %3 = "stablehlo.or"(%1, %2) : (tensor<228xi1>, tensor<228xi1>) -> tensor<228xi1>
    %4 = "func.call"(%3, %arg3, %arg4) <{callee = @_where}> : (tensor<228xi1>, tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    "func.return"(%4) : (tensor<228xf64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<228xi1>, tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<228xi1>, %arg1: tensor<228xf64>, %arg2: tensor<228xf64>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<228xi1>, tensor<228xf64>, tensor<228xf64>) -> tensor<228xf64>
    "func.return"(%0) : (tensor<228xf64>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
