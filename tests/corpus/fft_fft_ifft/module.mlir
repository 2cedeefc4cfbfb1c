module @jit_fft_fft_ifft attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xcomplex<f32>>, %arg1: tensor<8x3xcomplex<f32>>, %arg2: tensor<12xcomplex<f64>>) -> (tensor<16xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<16xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<8x3xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[3]"}) {
    %0 = call @fft(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %1 = call @fft_0(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %2 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<8x3xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    %3 = call @fft_1(%2) : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    %4 = stablehlo.transpose %3, dims = [1, 0] : (tensor<3x8xcomplex<f32>>) -> tensor<8x3xcomplex<f32>>
    %5 = call @fft_2(%arg2) : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    return %0, %1, %4, %5 : tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<8x3xcomplex<f32>>, tensor<12xcomplex<f64>>
  }
  func.func private @fft(%arg0: tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    return %0 : tensor<16xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    return %0 : tensor<16xcomplex<f32>>
  }
  func.func private @fft_1(%arg0: tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [8] : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    return %0 : tensor<3x8xcomplex<f32>>
  }
  func.func private @fft_2(%arg0: tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [12] : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    return %0 : tensor<12xcomplex<f64>>
  }
}
