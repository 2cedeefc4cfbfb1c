"builtin.module"() <{sym_name = "jit_elementwise_compare_f64_f16_bf16"}> ({
  "func.func"() <{function_type = (tensor<81xf64>, tensor<81xf64>, tensor<81xf16>, tensor<81xf16>, tensor<81xbf16>, tensor<81xbf16>) -> (tensor<6x81xi1>, tensor<6x81xi1>, tensor<6x81xi1>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<81xf64>, %arg1: tensor<81xf64>, %arg2: tensor<81xf16>, %arg3: tensor<81xf16>, %arg4: tensor<81xbf16>, %arg5: tensor<81xbf16>):
    %0 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %1 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %2 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %3 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %4 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %5 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<81xf64>, tensor<81xf64>) -> tensor<81xi1>
    %6 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %7 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %8 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %9 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %10 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %11 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %12 = "stablehlo.concatenate"(%6, %7, %8, %9, %10, %11) <{dimension = 0 : i64}> : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    %13 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %14 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %15 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %16 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %17 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %18 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<81xf16>, tensor<81xf16>) -> tensor<81xi1>
    %19 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %20 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %21 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %22 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %23 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %24 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %25 = "stablehlo.concatenate"(%19, %20, %21, %22, %23, %24) <{dimension = 0 : i64}> : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    %26 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %27 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %28 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %29 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %30 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %31 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<81xbf16>, tensor<81xbf16>) -> tensor<81xi1>
    %32 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %33 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %34 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %35 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %36 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %37 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64: 1>}> : (tensor<81xi1>) -> tensor<1x81xi1>
    %38 = "stablehlo.concatenate"(%32, %33, %34, %35, %36, %37) <{dimension = 0 : i64}> : (tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>, tensor<1x81xi1>) -> tensor<6x81xi1>
    "func.return"(%12, %25, %38) : (tensor<6x81xi1>, tensor<6x81xi1>, tensor<6x81xi1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
