"builtin.module"() <{sym_name = "jit_fft_fft2"}> ({
  "func.func"() <{function_type = (tensor<4x8xcomplex<f32>>, tensor<4x6xf32>) -> (tensor<4x8xcomplex<f32>>, tensor<4x8xcomplex<f32>>, tensor<4x4xcomplex<f32>>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<4x8xcomplex<f32>>, %arg4: tensor<4x6xf32>):
    %3 = "func.call"(%arg3) <{callee = @fft}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %4 = "func.call"(%arg3) <{callee = @fft_0}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    %5 = "func.call"(%arg4) <{callee = @fft_1}> : (tensor<4x6xf32>) -> tensor<4x4xcomplex<f32>>
    "func.return"(%3, %4, %5) : (tensor<4x8xcomplex<f32>>, tensor<4x8xcomplex<f32>>, tensor<4x4xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<4x8xcomplex<f32>>):
    %2 = "stablehlo.fft"(%arg2) <{fft_length = array<i64: 4, 8>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    "func.return"(%2) : (tensor<4x8xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>, sym_name = "fft_0", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<4x8xcomplex<f32>>):
    %1 = "stablehlo.fft"(%arg1) <{fft_length = array<i64: 4, 8>, fft_type = #stablehlo<fft_type IFFT>}> : (tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
    "func.return"(%1) : (tensor<4x8xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<4x6xf32>) -> tensor<4x4xcomplex<f32>>, sym_name = "fft_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4x6xf32>):
    %0 = "stablehlo.fft"(%arg0) <{fft_length = array<i64: 4, 6>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<4x6xf32>) -> tensor<4x4xcomplex<f32>>
    "func.return"(%0) : (tensor<4x4xcomplex<f32>>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
