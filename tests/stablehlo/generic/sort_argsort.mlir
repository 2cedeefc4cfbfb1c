"builtin.module"() <{sym_name = "jit_sort_argsort"}> ({
  "func.func"() <{function_type = (tensor<20xf32>, tensor<3x8xi32>) -> (tensor<20xi64>, tensor<3x8xi64>, tensor<3x8xi64>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg15: tensor<20xf32>, %arg16: tensor<3x8xi32>):
    %26 = "func.call"(%arg15) <{callee = @argsort}> : (tensor<20xf32>) -> tensor<20xi64>
    %27 = "func.call"(%arg16) <{callee = @argsort_0}> : (tensor<3x8xi32>) -> tensor<3x8xi64>
    %28 = "func.call"(%arg16) <{callee = @argsort_1}> : (tensor<3x8xi32>) -> tensor<3x8xi64>
    "func.return"(%26, %27, %28) : (tensor<20xi64>, tensor<3x8xi64>, tensor<3x8xi64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<20xf32>) -> tensor<20xi64>, sym_name = "argsort", sym_visibility = "private"}> ({
  ^bb0(%arg10: tensor<20xf32>):
    %9 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<20xi64>
    %10:2 = "stablehlo.sort"(%arg10, %9) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>, %arg13: tensor<i64>, %arg14: tensor<i64>):
      %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %12 = "stablehlo.compare"(%arg11, %11) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %14 = "stablehlo.select"(%12, %13, %arg11) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %15 = "stablehlo.compare"(%arg11, %arg11) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %16 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %17 = "stablehlo.select"(%15, %16, %14) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %18 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %19 = "stablehlo.compare"(%arg12, %18) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %21 = "stablehlo.select"(%19, %20, %arg12) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %22 = "stablehlo.compare"(%arg12, %arg12) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %23 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
      %24 = "stablehlo.select"(%22, %23, %21) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %25 = "stablehlo.compare"(%17, %24) <{compare_type = #stablehlo<comparison_type TOTALORDER>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%25) : (tensor<i1>) -> ()
    }) : (tensor<20xf32>, tensor<20xi64>) -> (tensor<20xf32>, tensor<20xi64>)
    "func.return"(%10#1) : (tensor<20xi64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x8xi32>) -> tensor<3x8xi64>, sym_name = "argsort_0", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<3x8xi32>):
    %6 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<3x8xi64>
    %7:2 = "stablehlo.sort"(%arg5, %6) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg6: tensor<i32>, %arg7: tensor<i32>, %arg8: tensor<i64>, %arg9: tensor<i64>):
      %8 = "stablehlo.compare"(%arg6, %arg7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%8) : (tensor<i1>) -> ()
    }) : (tensor<3x8xi32>, tensor<3x8xi64>) -> (tensor<3x8xi32>, tensor<3x8xi64>)
    "func.return"(%7#1) : (tensor<3x8xi64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x8xi32>) -> tensor<3x8xi64>, sym_name = "argsort_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3x8xi32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<3x8xi64>
    %1 = "stablehlo.reverse"(%arg0) <{dimensions = array<i64: 0>}> : (tensor<3x8xi32>) -> tensor<3x8xi32>
    %2 = "stablehlo.reverse"(%0) <{dimensions = array<i64: 0>}> : (tensor<3x8xi64>) -> tensor<3x8xi64>
    %3:2 = "stablehlo.sort"(%1, %2) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i64>, %arg4: tensor<i64>):
      %5 = "stablehlo.compare"(%arg1, %arg2) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%5) : (tensor<i1>) -> ()
    }) : (tensor<3x8xi32>, tensor<3x8xi64>) -> (tensor<3x8xi32>, tensor<3x8xi64>)
    %4 = "stablehlo.reverse"(%3#1) <{dimensions = array<i64: 0>}> : (tensor<3x8xi64>) -> tensor<3x8xi64>
    "func.return"(%4) : (tensor<3x8xi64>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
