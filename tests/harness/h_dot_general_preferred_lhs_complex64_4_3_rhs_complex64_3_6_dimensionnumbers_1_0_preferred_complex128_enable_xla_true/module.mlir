module @jit_h_dot_general_preferred_lhs_complex64_4_3_rhs_complex64_3_6_dimensionnumbers_1_0_preferred_complex128_enable_xla_true attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xcomplex<f32>>, %arg1: tensor<3x6xcomplex<f32>>) -> (tensor<4x6xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xcomplex<f32>>, tensor<3x6xcomplex<f32>>) -> tensor<4x6xcomplex<f64>>
    return %0 : tensor<4x6xcomplex<f64>>
  }
}
