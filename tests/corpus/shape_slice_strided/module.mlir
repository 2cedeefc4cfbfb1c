module @jit_shape_slice_strided attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<10xi32>, %arg2: tensor<2x3x4xi32>) -> (tensor<3x6xf32> {jax.result_info = "result[0]"}, tensor<3x3xf32> {jax.result_info = "result[1]"}, tensor<6x4xf32> {jax.result_info = "result[2]"}, tensor<3x3xf32> {jax.result_info = "result[3]"}, tensor<7xi32> {jax.result_info = "result[4]"}, tensor<3xi32> {jax.result_info = "result[5]"}, tensor<10xi32> {jax.result_info = "result[6]"}, tensor<0xi32> {jax.result_info = "result[7]"}, tensor<8xf32> {jax.result_info = "result[8]"}, tensor<6xf32> {jax.result_info = "result[9]"}, tensor<2x3x4xi32> {jax.result_info = "result[10]"}, tensor<2x3x4xi32> {jax.result_info = "result[11]"}, tensor<2x3x4xi32> {jax.result_info = "result[12]"}) {
    %0 = stablehlo.slice %arg0 [1:4, 2:8] : (tensor<6x8xf32>) -> tensor<3x6xf32>
    %1 = stablehlo.slice %arg0 [0:6:2, 1:8:3] : (tensor<6x8xf32>) -> tensor<3x3xf32>
    %2 = stablehlo.slice %arg0 [0:6, 1:8:2] : (tensor<6x8xf32>) -> tensor<6x4xf32>
    %3 = stablehlo.reverse %2, dims = [0, 1] : tensor<6x4xf32>
    %4 = stablehlo.slice %arg0 [0:5:2, 1:7:2] : (tensor<6x8xf32>) -> tensor<3x3xf32>
    %5 = stablehlo.slice %arg1 [3:10] : (tensor<10xi32>) -> tensor<7xi32>
    %6 = stablehlo.slice %arg1 [6:9] : (tensor<10xi32>) -> tensor<3xi32>
    %7 = stablehlo.reverse %arg1, dims = [0] : tensor<10xi32>
    %8 = stablehlo.slice %arg1 [1:1] : (tensor<10xi32>) -> tensor<0xi32>
    %9 = stablehlo.slice %arg0 [2:3, 0:8] : (tensor<6x8xf32>) -> tensor<1x8xf32>
    %10 = stablehlo.reshape %9 : (tensor<1x8xf32>) -> tensor<8xf32>
    %11 = stablehlo.slice %arg0 [0:6, 7:8] : (tensor<6x8xf32>) -> tensor<6x1xf32>
    %12 = stablehlo.reshape %11 : (tensor<6x1xf32>) -> tensor<6xf32>
    %13 = call @_flip(%arg2) : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    %14 = call @_flip_0(%arg2) : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    %15 = call @_flip_1(%arg2) : (tensor<2x3x4xi32>) -> tensor<2x3x4xi32>
    return %0, %1, %3, %4, %5, %6, %7, %8, %10, %12, %13, %14, %15 : tensor<3x6xf32>, tensor<3x3xf32>, tensor<6x4xf32>, tensor<3x3xf32>, tensor<7xi32>, tensor<3xi32>, tensor<10xi32>, tensor<0xi32>, tensor<8xf32>, tensor<6xf32>, tensor<2x3x4xi32>, tensor<2x3x4xi32>, tensor<2x3x4xi32>
  }
  func.func private @_flip(%arg0: tensor<2x3x4xi32>) -> tensor<2x3x4xi32> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<2x3x4xi32>
    return %0 : tensor<2x3x4xi32>
  }
  func.func private @_flip_0(%arg0: tensor<2x3x4xi32>) -> tensor<2x3x4xi32> {
    %0 = stablehlo.reverse %arg0, dims = [1, 2] : tensor<2x3x4xi32>
    return %0 : tensor<2x3x4xi32>
  }
  func.func private @_flip_1(%arg0: tensor<2x3x4xi32>) -> tensor<2x3x4xi32> {
    %0 = stablehlo.reverse %arg0, dims = [0, 1, 2] : tensor<2x3x4xi32>
    return %0 : tensor<2x3x4xi32>
  }
}
