"builtin.module"() <{sym_name = "jit_elementwise_f32_compare"}> ({
  "func.func"() <{function_type = (tensor<81xf32>, tensor<81xf32>) -> tensor<6x81xi1>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<81xf32>, %arg1: tensor<81xf32>):
    %0 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %1 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %2 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %3 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %4 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %5 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<81xf32>, tensor<81xf32>) -> tensor<81xi1>
    %6 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %7 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %8 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %9 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %10 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %11 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %12 = "stablehlo.concatenate"(%6, %7, %8, %9, %10, %11) <{dimension = 0 : i64}> : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    "func.return"(%12) : (tensor<6x81xi1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
