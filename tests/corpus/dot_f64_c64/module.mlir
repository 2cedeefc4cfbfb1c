module @jit_dot_f64_c64 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x7xf64>, %arg1: tensor<7x3xf64>, %arg2: tensor<4x6xcomplex<f32>>, %arg3: tensor<6x3xcomplex<f32>>) -> (tensor<5x3xf64> {jax.result_info = "result[0]"}, tensor<4x3xcomplex<f32>> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x7xf64>, tensor<7x3xf64>) -> tensor<5x3xf64>
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x6xcomplex<f32>>, tensor<6x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
    return %0, %1 : tensor<5x3xf64>, tensor<4x3xcomplex<f32>>
  }
}
