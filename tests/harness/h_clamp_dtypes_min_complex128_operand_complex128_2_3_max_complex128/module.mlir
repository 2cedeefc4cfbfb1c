module @jit_h_clamp_dtypes_min_complex128_operand_complex128_2_3_max_complex128 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<complex<f64>>, %arg1: tensor<2x3xcomplex<f64>>, %arg2: tensor<complex<f64>>) -> (tensor<2x3xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<complex<f64>>) -> tensor<2x3xcomplex<f64>>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<complex<f64>>) -> tensor<2x3xcomplex<f64>>
    %2 = stablehlo.clamp %0, %arg1, %1 : tensor<2x3xcomplex<f64>>
    return %2 : tensor<2x3xcomplex<f64>>
  }
}
