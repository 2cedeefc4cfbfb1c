module @jit_dot_odd_shapes attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>, %arg1: tensor<5x7xf32>, %arg2: tensor<1x9xf32>, %arg3: tensor<9x1xf32>, %arg4: tensor<7x1xf32>, %arg5: tensor<1x6xf32>, %arg6: tensor<13x17xf32>, %arg7: tensor<17x11xf32>) -> (tensor<3x7xf32> {jax.result_info = "result[0]"}, tensor<1x1xf32> {jax.result_info = "result[1]"}, tensor<7x6xf32> {jax.result_info = "result[2]"}, tensor<13x11xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xf32>, tensor<5x7xf32>) -> tensor<3x7xf32>
    %1 = stablehlo.dot_general %arg2, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<1x9xf32>, tensor<9x1xf32>) -> tensor<1x1xf32>
    %2 = stablehlo.dot_general %arg4, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<7x1xf32>, tensor<1x6xf32>) -> tensor<7x6xf32>
    %3 = stablehlo.dot_general %arg6, %arg7, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<13x17xf32>, tensor<17x11xf32>) -> tensor<13x11xf32>
    return %0, %1, %2, %3 : tensor<3x7xf32>, tensor<1x1xf32>, tensor<7x6xf32>, tensor<13x11xf32>
  }
}
