"builtin.module"() <{sym_name = "jit_fft_fft_ifft"}> ({
  "func.func"() <{function_type = (tensor<16xcomplex<f32>>, tensor<8x3xcomplex<f32>>, tensor<12xcomplex<f64>>) -> (tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<8x3xcomplex<f32>>, tensor<12xcomplex<f64>>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<16xcomplex<f32>>, %arg5: tensor<8x3xcomplex<f32>>, %arg6: tensor<12xcomplex<f64>>):
    %4 = "func.call"(%arg4) <{callee = @fft}> : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %5 = "func.call"(%arg4) <{callee = @fft_0}> : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %6 = "stablehlo.transpose"(%arg5) <{permutation = array<i64: 1, 0>}> : (tensor<8x3xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    %7 = "func.call"(%6) <{callee = @fft_1}> : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    %8 = "stablehlo.transpose"(%7) <{permutation = array<i64: 1, 0>}> : (tensor<3x8xcomplex<f32>>) -> tensor<8x3xcomplex<f32>>
    %9 = "func.call"(%arg6) <{callee = @fft_2}> : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    "func.return"(%4, %5, %8, %9) : (tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<8x3xcomplex<f32>>, tensor<12xcomplex<f64>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<16xcomplex<f32>>):
    %3 = "stablehlo.fft"(%arg3) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    "func.return"(%3) : (tensor<16xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>, sym_name = "fft_0", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<16xcomplex<f32>>):
    %2 = "stablehlo.fft"(%arg2) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type IFFT>}> : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    "func.return"(%2) : (tensor<16xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>, sym_name = "fft_1", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<3x8xcomplex<f32>>):
    %1 = "stablehlo.fft"(%arg1) <{fft_length = array<i64: 8>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<3x8xcomplex<f32>>) -> tensor<3x8xcomplex<f32>>
    "func.return"(%1) : (tensor<3x8xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>, sym_name = "fft_2", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<12xcomplex<f64>>):
    %0 = "stablehlo.fft"(%arg0) <{fft_length = array<i64: 12>, fft_type = #stablehlo<fft_type FFT>}> : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    "func.return"(%0) : (tensor<12xcomplex<f64>>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
