"builtin.module"() <{sym_name = "jit_linalg_cholesky"}> ({
  "func.func"() <{function_type = (tensor<6x6xf32>, tensor<5x5xf64>) -> (tensor<6x6xf32>, tensor<5x5xf64>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<6x6xf32>, %arg3: tensor<5x5xf64>):
    %46 = "func.call"(%arg2) <{callee = @cholesky}> : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %47 = "func.call"(%arg3) <{callee = @cholesky_0}> : (tensor<5x5xf64>) -> tensor<5x5xf64>
    "func.return"(%46, %47) : (tensor<6x6xf32>, tensor<5x5xf64>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x6xf32>) -> tensor<6x6xf32>, sym_name = "cholesky", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<6x6xf32>):
    %23 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %24 = "stablehlo.add"(%arg1, %23) : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    %25 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x6xf32>
    %27 = "stablehlo.divide"(%24, %26) : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    %28:2 = "stablehlo.custom_call"(%27) <{backend_config = "", call_target_name = "lapack_spotrf_ffi", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=6, j=6, k=6, l=6}, custom>} : (tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<i32>)
    %29 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<i32>
    %31 = "stablehlo.compare"(%28#1, %30) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<1x1xi1>
    %33 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x6xf32>
    %35 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %36 = "stablehlo.select"(%35, %28#0, %34) : (tensor<6x6xi1>, tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    %37 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<6x6xi64>
    %38 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<i64>) -> tensor<6x6xi64>
    %40 = "stablehlo.add"(%37, %39) : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi64>
    %41 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<6x6xi64>
    %42 = "stablehlo.compare"(%40, %41) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %43 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x6xf32>
    %45 = "stablehlo.select"(%42, %36, %44) : (tensor<6x6xi1>, tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    "func.return"(%45) : (tensor<6x6xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<5x5xf64>) -> tensor<5x5xf64>, sym_name = "cholesky_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<5x5xf64>):
    %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<5x5xf64>) -> tensor<5x5xf64>
    %1 = "stablehlo.add"(%arg0, %0) : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
    %2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<5x5xf64>
    %4 = "stablehlo.divide"(%1, %3) : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
    %5:2 = "stablehlo.custom_call"(%4) <{backend_config = "", call_target_name = "lapack_dpotrf_ffi", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=5, j=5, k=5, l=5}, custom>} : (tensor<5x5xf64>) -> (tensor<5x5xf64>, tensor<i32>)
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<i32>
    %8 = "stablehlo.compare"(%5#1, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<1x1xi1>
    %10 = "stablehlo.constant"() <{value = dense<0x7FF8000000000000> : tensor<f64>}> : () -> tensor<f64>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<5x5xf64>
    %12 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %13 = "stablehlo.select"(%12, %5#0, %11) : (tensor<5x5xi1>, tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
    %14 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<5x5xi64>
    %15 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<i64>) -> tensor<5x5xi64>
    %17 = "stablehlo.add"(%14, %16) : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi64>
    %18 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<5x5xi64>
    %19 = "stablehlo.compare"(%17, %18) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %20 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<5x5xf64>
    %22 = "stablehlo.select"(%19, %13, %21) : (tensor<5x5xi1>, tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
    "func.return"(%22) : (tensor<5x5xf64>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
