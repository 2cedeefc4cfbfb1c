"builtin.module"() <{sym_name = "jit_convert_float_to_float"}> ({
  "func.func"() <{function_type = (tensor<40xf32>, tensor<12xf64>, tensor<10xf16>, tensor<10xbf16>) -> (tensor<40xf16>, tensor<40xbf16>, tensor<40xf8E4M3FN>, tensor<40xf8E5M2>, tensor<12xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xbf16>, tensor<10xf16>, tensor<40xf64>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<40xf32>, %arg1: tensor<12xf64>, %arg2: tensor<10xf16>, %arg3: tensor<10xbf16>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<40xf32>) -> tensor<40xf16>
    %1 = "stablehlo.convert"(%arg0) : (tensor<40xf32>) -> tensor<40xbf16>
    %2 = "stablehlo.convert"(%arg0) : (tensor<40xf32>) -> tensor<40xf8E4M3FN>
    %3 = "stablehlo.convert"(%arg0) : (tensor<40xf32>) -> tensor<40xf8E5M2>
    %4 = "stablehlo.convert"(%arg1) : (tensor<12xf64>) -> tensor<12xf32>
    %5 = "stablehlo.convert"(%arg2) : (tensor<10xf16>) -> tensor<10xf32>
    %6 = "stablehlo.convert"(%arg3) : (tensor<10xbf16>) -> tensor<10xf32>
    %7 = "stablehlo.convert"(%arg2) : (tensor<10xf16>) -> tensor<10xbf16>
    %8 = "stablehlo.convert"(%arg3) : (tensor<10xbf16>) -> tensor<10xf16>
    %9 = "stablehlo.convert"(%arg0) : (tensor<40xf32>) -> tensor<40xf64>
    "func.return"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9) : (tensor<40xf16>, tensor<40xbf16>, tensor<40xf8E4M3FN>, tensor<40xf8E5M2>, tensor<12xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xbf16>, tensor<10xf16>, tensor<40xf64>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
