module @jit_h_triangular_solve_dtypes_a_bfloat16_4_4_b_bfloat16_4_1_leftside_true_lower_false_transposea_false_conjugatea_false_unitdiagonal_true attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xbf16>, %arg1: tensor<4x1xbf16>) -> (tensor<4x1xbf16> {jax.result_info = "result"}) {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = true}> : (tensor<4x4xbf16>, tensor<4x1xbf16>) -> tensor<4x1xbf16>
    return %0 : tensor<4x1xbf16>
  }
}
