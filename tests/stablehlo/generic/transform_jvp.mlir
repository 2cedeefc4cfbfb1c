"builtin.module"() <{sym_name = "jit_transform_jvp"}> ({
  "func.func"() <{function_type = (tensor<4x6xf32>, tensor<4x6xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x6xf32>, %arg1: tensor<4x6xf32>):
    %0 = "stablehlo.negate"(%arg0) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %1 = "stablehlo.negate"(%arg1) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %2 = "stablehlo.multiply"(%0, %arg0) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %3 = "stablehlo.multiply"(%1, %arg0) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %4 = "stablehlo.multiply"(%0, %arg1) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %5 = "stablehlo.add"(%3, %4) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %6 = "stablehlo.exponential"(%2) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %7 = "stablehlo.multiply"(%5, %6) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %8 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x3xf32>
    %10 = "stablehlo.dot_general"(%6, %9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %11 = "stablehlo.dot_general"(%7, %9) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %12 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %13 = "stablehlo.slice"(%arg1) <{limit_indices = array<i64: 4, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %14 = "stablehlo.cosine"(%12) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %15 = "stablehlo.sine"(%12) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %16 = "stablehlo.multiply"(%13, %15) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %17 = "stablehlo.negate"(%16) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %18 = "stablehlo.add"(%10, %14) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %19 = "stablehlo.add"(%11, %17) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %20 = "stablehlo.negate"(%arg0) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %21 = "stablehlo.multiply"(%20, %arg0) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %22 = "stablehlo.exponential"(%21) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %23 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x3xf32>
    %25 = "stablehlo.dot_general"(%22, %24) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %26 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 4, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %27 = "stablehlo.cosine"(%26) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %28 = "stablehlo.sine"(%26) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %29 = "stablehlo.add"(%25, %27) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %30 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x6xf32>
    %32 = "stablehlo.multiply"(%31, %arg1) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %33 = "stablehlo.negate"(%32) : (tensor<4x6xf32>) -> tensor<4x6xf32>
    %34 = "stablehlo.multiply"(%33, %arg0) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %35 = "stablehlo.multiply"(%20, %32) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %36 = "stablehlo.add"(%34, %35) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %37 = "stablehlo.multiply"(%36, %22) : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
    %38 = "stablehlo.dot_general"(%37, %24) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
    %39 = "stablehlo.slice"(%32) <{limit_indices = array<i64: 4, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %40 = "stablehlo.multiply"(%39, %28) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %41 = "stablehlo.negate"(%40) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %42 = "stablehlo.add"(%38, %41) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    "func.return"(%18, %19, %42) : (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
