"builtin.module"() <{sym_name = "jit_elementwise_f32_select_clamp"}> ({
  "func.func"() <{function_type = (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg9: tensor<32xi1>, %arg10: tensor<32xf32>, %arg11: tensor<32xf32>, %arg12: tensor<32xf32>, %arg13: tensor<32xf32>):
    %10 = "stablehlo.select"(%arg9, %arg10, %arg11) : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %11 = "stablehlo.constant"() <{value = dense<-1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %13 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %14 = "stablehlo.broadcast_in_dim"(%12) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %15 = "stablehlo.clamp"(%13, %arg10, %14) : (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %16 = "stablehlo.clamp"(%arg12, %arg10, %arg13) : (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %17 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %19 = "stablehlo.compare"(%arg10, %18) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xi1>
    %20 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %22 = "stablehlo.multiply"(%21, %arg10) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %23 = "func.call"(%19, %arg10, %22) <{callee = @_where}> : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %24 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f64>}> : () -> tensor<f64>
    %25 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %26 = "func.call"(%arg10, %24, %25) <{callee = @clip}> : (tensor<32xf32>, tensor<f64>, tensor<f64>) -> tensor<32xf32>
    %27 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %28 = "func.call"(%arg9, %arg10, %27) <{callee = @_where_0}> : (tensor<32xi1>, tensor<32xf32>, tensor<f64>) -> tensor<32xf32>
    "func.return"(%10, %15, %16, %23, %26, %28) : (tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>, sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg6: tensor<32xi1>, %arg7: tensor<32xf32>, %arg8: tensor<32xf32>):
    %9 = "stablehlo.select"(%arg6, %arg7, %arg8) : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    "func.return"(%9) : (tensor<32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<32xf32>, tensor<f64>, tensor<f64>) -> tensor<32xf32>, sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<32xf32>, %arg4: tensor<f64>, %arg5: tensor<f64>):
    %3 = "stablehlo.convert"(%arg4) : (tensor<f64>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %5 = "stablehlo.maximum"(%4, %arg3) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    %6 = "stablehlo.convert"(%arg5) : (tensor<f64>) -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %8 = "stablehlo.minimum"(%7, %5) : (tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    "func.return"(%8) : (tensor<32xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<32xi1>, tensor<32xf32>, tensor<f64>) -> tensor<32xf32>, sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<32xi1>, %arg1: tensor<32xf32>, %arg2: tensor<f64>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f64>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<32xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<32xi1>, tensor<32xf32>, tensor<32xf32>) -> tensor<32xf32>
    "func.return"(%2) : (tensor<32xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
