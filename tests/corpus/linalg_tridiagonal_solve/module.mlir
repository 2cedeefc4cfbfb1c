module @jit_linalg_tridiagonal_solve attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x7xf32>, %arg1: tensor<2x7xf32>, %arg2: tensor<2x7xf32>, %arg3: tensor<2x7x3xf32>, %arg4: tensor<2x7xf64>, %arg5: tensor<2x7xf64>, %arg6: tensor<2x7xf64>, %arg7: tensor<2x7x3xf64>) -> (tensor<2x7x3xf32> {jax.result_info = "result[0]"}, tensor<2x7x3xf64> {jax.result_info = "result[1]"}) {
    %0:5 = stablehlo.custom_call @lapack_sgtsv_ffi(%arg0, %arg1, %arg2, %arg3) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [2], operand_index = 2, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [3], operand_index = 3, operand_tuple_indices = []>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [i, l], [i, m, n])->([i, o], [i, p], [i, q], [i, r, s], [i]) {i=2, j=7, k=7, l=7, m=7, n=3, o=7, p=7, q=7, r=7, s=3}, custom>} : (tensor<2x7xf32>, tensor<2x7xf32>, tensor<2x7xf32>, tensor<2x7x3xf32>) -> (tensor<2x7xf32>, tensor<2x7xf32>, tensor<2x7xf32>, tensor<2x7x3xf32>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x7x3xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x7x3xi1>
    %6 = stablehlo.select %5, %0#3, %4 : tensor<2x7x3xi1>, tensor<2x7x3xf32>
    %7:5 = stablehlo.custom_call @lapack_dgtsv_ffi(%arg4, %arg5, %arg6, %arg7) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [1], operand_index = 1, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [2], operand_index = 2, operand_tuple_indices = []>, #stablehlo.output_operand_alias<output_tuple_indices = [3], operand_index = 3, operand_tuple_indices = []>], result_layouts = [dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [i, k], [i, l], [i, m, n])->([i, o], [i, p], [i, q], [i, r, s], [i]) {i=2, j=7, k=7, l=7, m=7, n=3, o=7, p=7, q=7, r=7, s=3}, custom>} : (tensor<2x7xf64>, tensor<2x7xf64>, tensor<2x7xf64>, tensor<2x7x3xf64>) -> (tensor<2x7xf64>, tensor<2x7xf64>, tensor<2x7xf64>, tensor<2x7x3xf64>, tensor<2xi32>)
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %9 = stablehlo.compare EQ, %7#4, %8, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_1 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<2x7x3xf64>
    %12 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x7x3xi1>
    %13 = stablehlo.select %12, %7#3, %11 : tensor<2x7x3xi1>, tensor<2x7x3xf64>
    return %6, %13 : tensor<2x7x3xf32>, tensor<2x7x3xf64>
  }
}
