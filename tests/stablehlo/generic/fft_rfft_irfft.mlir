"builtin.module"() <{sym_name = "jit_fft_rfft_irfft"}> ({
  "func.func"() <{function_type = (tensor<2x16xf32>, tensor<2x9xcomplex<f32>>, tensor<10xf64>) -> (tensor<2x9xcomplex<f32>>, tensor<2x16xf32>, tensor<6xcomplex<f64>>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<2x16xf32>, %arg6: tensor<2x9xcomplex<f32>>, %arg7: tensor<10xf64>):
    %5 = "func.call"(%arg5) <{callee = @fft}> : (tensor<2x16xf32>) -> tensor<2x9xcomplex<f32>>
    %6 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %7 = "func.call"(%arg6, %6) <{callee = @_pad}> : (tensor<2x9xcomplex<f32>>, tensor<i64>) -> tensor<2x9xcomplex<f32>>
    %8 = "func.call"(%7) <{callee = @fft_0}> : (tensor<2x9xcomplex<f32>>) -> tensor<2x16xf32>
    %9 = "func.call"(%arg7) <{callee = @fft_1}> : (tensor<10xf64>) -> tensor<6xcomplex<f64>>
    "func.return"(%5, %8, %9) : (tensor<2x9xcomplex<f32>>, tensor<2x16xf32>, tensor<6xcomplex<f64>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x16xf32>) -> tensor<2x9xcomplex<f32>>, sym_name = "fft", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<2x16xf32>):
    %4 = "stablehlo.fft"(%arg4) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<2x16xf32>) -> tensor<2x9xcomplex<f32>>
    "func.return"(%4) : (tensor<2x9xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x9xcomplex<f32>>, tensor<i64>) -> tensor<2x9xcomplex<f32>>, sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg2: tensor<2x9xcomplex<f32>>, %arg3: tensor<i64>):
    %2 = "stablehlo.convert"(%arg3) : (tensor<i64>) -> tensor<complex<f32>>
    %3 = "stablehlo.pad"(%arg2, %2) <{edge_padding_high = array<i64: 0, 0>, edge_padding_low = array<i64: 0, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<2x9xcomplex<f32>>, tensor<complex<f32>>) -> tensor<2x9xcomplex<f32>>
    "func.return"(%3) : (tensor<2x9xcomplex<f32>>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<2x9xcomplex<f32>>) -> tensor<2x16xf32>, sym_name = "fft_0", sym_visibility = "private"}> ({
  ^bb0(%arg1: tensor<2x9xcomplex<f32>>):
    %1 = "stablehlo.fft"(%arg1) <{fft_length = array<i64: 16>, fft_type = #stablehlo<fft_type IRFFT>}> : (tensor<2x9xcomplex<f32>>) -> tensor<2x16xf32>
    "func.return"(%1) : (tensor<2x16xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<10xf64>) -> tensor<6xcomplex<f64>>, sym_name = "fft_1", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<10xf64>):
    %0 = "stablehlo.fft"(%arg0) <{fft_length = array<i64: 10>, fft_type = #stablehlo<fft_type RFFT>}> : (tensor<10xf64>) -> tensor<6xcomplex<f64>>
    "func.return"(%0) : (tensor<6xcomplex<f64>>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
