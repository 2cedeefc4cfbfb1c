"builtin.module"() <{sym_name = "jit_sort_by_key"}> ({
  "func.func"() <{function_type = (tensor<16xi32>, tensor<16xf32>, tensor<16xi32>, tensor<16xi32>) -> (tensor<16xi32>, tensor<16xf32>, tensor<16xi32>, tensor<16xi32>, tensor<16xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16xi32>, %arg1: tensor<16xf32>, %arg2: tensor<16xi32>, %arg3: tensor<16xi32>):
    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg10: tensor<i32>, %arg11: tensor<i32>, %arg12: tensor<f32>, %arg13: tensor<f32>):
      %7 = "stablehlo.compare"(%arg10, %arg11) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%7) : (tensor<i1>) -> ()
    }) : (tensor<16xi32>, tensor<16xf32>) -> (tensor<16xi32>, tensor<16xf32>)
    %1:3 = "stablehlo.sort"(%arg3, %arg2, %arg1) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<i32>, %arg8: tensor<f32>, %arg9: tensor<f32>):
      %2 = "stablehlo.compare"(%arg6, %arg7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = "stablehlo.and"(%4, %2) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %6 = "stablehlo.or"(%3, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%6) : (tensor<i1>) -> ()
    }) : (tensor<16xi32>, tensor<16xi32>, tensor<16xf32>) -> (tensor<16xi32>, tensor<16xi32>, tensor<16xf32>)
    "func.return"(%0#0, %0#1, %1#0, %1#1, %1#2) : (tensor<16xi32>, tensor<16xf32>, tensor<16xi32>, tensor<16xi32>, tensor<16xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
