module @jit_transform_vmap attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x5xf32>, %arg1: tensor<3x5xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<8x5xf32>) -> tensor<3x8xf32>
    %1 = stablehlo.tanh %0 : tensor<3x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3x8xf32>, tensor<f32>) -> tensor<8xf32>
    %3 = stablehlo.slice %arg0 [0:8, 0:1] : (tensor<8x5xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.reshape %3 : (tensor<8x1xf32>) -> tensor<8xf32>
    %5 = stablehlo.add %2, %4 : tensor<8xf32>
    return %5 : tensor<8xf32>
  }
}
