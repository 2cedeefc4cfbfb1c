"builtin.module"() <{sym_name = "jit_linalg_eigh"}> ({
  "func.func"() <{function_type = (tensor<6x6xf32>) -> (tensor<6xf32>, tensor<6x6xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<6x6xf32>):
    %19:2 = "func.call"(%arg1) <{callee = @eigh}> : (tensor<6x6xf32>) -> (tensor<6xf32>, tensor<6x6xf32>)
    %20 = "stablehlo.broadcast_in_dim"(%19#0) <{broadcast_dimensions = array<i64: 1>}> : (tensor<6xf32>) -> tensor<1x6xf32>
    %21 = "stablehlo.broadcast_in_dim"(%20) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x6xf32>) -> tensor<6x6xf32>
    %22 = "stablehlo.multiply"(%19#1, %21) : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    %23 = "stablehlo.transpose"(%19#1) <{permutation = array<i64: 1, 0>}> : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %24 = "stablehlo.dot_general"(%22, %23) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    "func.return"(%19#0, %24) : (tensor<6xf32>, tensor<6x6xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x6xf32>) -> (tensor<6xf32>, tensor<6x6xf32>), sym_name = "eigh", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<6x6xf32>):
    %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<6x6xf32>) -> tensor<6x6xf32>
    %1 = "stablehlo.add"(%arg0, %0) : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    %2 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x6xf32>
    %4 = "stablehlo.divide"(%1, %3) : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    %5:3 = "stablehlo.custom_call"(%4) <{backend_config = "", call_target_name = "lapack_ssyevd_ffi", operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]}> {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=6, j=6, k=6, l=6, m=6}, custom>} : (tensor<6x6xf32>) -> (tensor<6x6xf32>, tensor<6xf32>, tensor<i32>)
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<i32>
    %8 = "stablehlo.compare"(%5#2, %7) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<1x1xi1>
    %10 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6x6xf32>
    %12 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xi1>) -> tensor<6x6xi1>
    %13 = "stablehlo.select"(%12, %5#0, %11) : (tensor<6x6xi1>, tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
    %14 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<1xi1>
    %15 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6xf32>
    %17 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64: 0>}> : (tensor<1xi1>) -> tensor<6xi1>
    %18 = "stablehlo.select"(%17, %5#1, %16) : (tensor<6xi1>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    "func.return"(%18, %13) : (tensor<6xf32>, tensor<6x6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
