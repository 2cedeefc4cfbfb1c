"builtin.module"() <{sym_name = "jit_elementwise_pred_ops"}> ({
  "func.func"() <{function_type = (tensor<16xi1>, tensor<16xi1>, tensor<16xi32>, tensor<16xf32>) -> (tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi32>, tensor<16xf32>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16xi1>, %arg1: tensor<16xi1>, %arg2: tensor<16xi32>, %arg3: tensor<16xf32>):
    %0 = "stablehlo.and"(%arg0, %arg1) : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %1 = "stablehlo.or"(%arg0, %arg1) : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %2 = "stablehlo.xor"(%arg0, %arg1) : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %3 = "stablehlo.not"(%arg0) : (tensor<16xi1>) -> tensor<16xi1>
    %4 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %5 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %6 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %7 = "stablehlo.not"(%arg1) : (tensor<16xi1>) -> tensor<16xi1>
    %8 = "stablehlo.select"(%arg0, %arg1, %7) : (tensor<16xi1>, tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    %9 = "stablehlo.convert"(%arg0) : (tensor<16xi1>) -> tensor<16xi32>
    %10 = "stablehlo.convert"(%arg0) : (tensor<16xi1>) -> tensor<16xf32>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16xi32>
    %13 = "stablehlo.compare"(%arg2, %12) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %14 = "stablehlo.convert"(%13) : (tensor<16xi1>) -> tensor<16xi1>
    %15 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<16xf32>
    %17 = "stablehlo.compare"(%arg3, %16) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xi1>
    %18 = "stablehlo.convert"(%17) : (tensor<16xi1>) -> tensor<16xi1>
    %19 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<16xi32>
    %21 = "stablehlo.compare"(%arg2, %20) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<16xi32>, tensor<16xi32>) -> tensor<16xi1>
    %22 = "stablehlo.and"(%21, %arg0) : (tensor<16xi1>, tensor<16xi1>) -> tensor<16xi1>
    "func.return"(%0, %1, %2, %3, %4, %5, %6, %8, %9, %10, %14, %18, %22) : (tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>, tensor<16xi32>, tensor<16xf32>, tensor<16xi1>, tensor<16xi1>, tensor<16xi1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
