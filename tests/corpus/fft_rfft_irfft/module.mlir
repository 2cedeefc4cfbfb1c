module @jit_fft_rfft_irfft attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x16xf32>, %arg1: tensor<2x9xcomplex<f32>>, %arg2: tensor<10xf64>) -> (tensor<2x9xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<2x16xf32> {jax.result_info = "result[1]"}, tensor<6xcomplex<f64>> {jax.result_info = "result[2]"}) {
    %0 = call @fft(%arg0) : (tensor<2x16xf32>) -> tensor<2x9xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = call @_pad(%arg1, %c) : (tensor<2x9xcomplex<f32>>, tensor<i64>) -> tensor<2x9xcomplex<f32>>
    %2 = call @fft_0(%1) : (tensor<2x9xcomplex<f32>>) -> tensor<2x16xf32>
    %3 = call @fft_1(%arg2) : (tensor<10xf64>) -> tensor<6xcomplex<f64>>
    return %0, %2, %3 : tensor<2x9xcomplex<f32>>, tensor<2x16xf32>, tensor<6xcomplex<f64>>
  }
  func.func private @fft(%arg0: tensor<2x16xf32>) -> tensor<2x9xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [16] : (tensor<2x16xf32>) -> tensor<2x9xcomplex<f32>>
    return %0 : tensor<2x9xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<2x9xcomplex<f32>>, %arg1: tensor<i64>) -> tensor<2x9xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<2x9xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x9xcomplex<f32>>
    return %1 : tensor<2x9xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<2x9xcomplex<f32>>) -> tensor<2x16xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [16] : (tensor<2x9xcomplex<f32>>) -> tensor<2x16xf32>
    return %0 : tensor<2x16xf32>
  }
  func.func private @fft_1(%arg0: tensor<10xf64>) -> tensor<6xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [10] : (tensor<10xf64>) -> tensor<6xcomplex<f64>>
    return %0 : tensor<6xcomplex<f64>>
  }
}
