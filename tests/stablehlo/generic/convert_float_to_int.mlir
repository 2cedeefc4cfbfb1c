"builtin.module"() <{sym_name = "jit_convert_float_to_int"}> ({
  "func.func"() <{function_type = (tensor<29xf32>, tensor<20xf64>) -> (tensor<29xi8>, tensor<29xi16>, tensor<29xi32>, tensor<29xi64>, tensor<29xui8>, tensor<29xui16>, tensor<29xui32>, tensor<29xui64>, tensor<20xi32>, tensor<20xi64>, tensor<20xui32>, tensor<20xui64>, tensor<20xi8>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<29xf32>, %arg1: tensor<20xf64>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xi8>
    %1 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xi16>
    %2 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xi32>
    %3 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xi64>
    %4 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xui8>
    %5 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xui16>
    %6 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xui32>
    %7 = "stablehlo.convert"(%arg0) : (tensor<29xf32>) -> tensor<29xui64>
    %8 = "stablehlo.convert"(%arg1) : (tensor<20xf64>) -> tensor<20xi32>
    %9 = "stablehlo.convert"(%arg1) : (tensor<20xf64>) -> tensor<20xi64>
    %10 = "stablehlo.convert"(%arg1) : (tensor<20xf64>) -> tensor<20xui32>
    %11 = "stablehlo.convert"(%arg1) : (tensor<20xf64>) -> tensor<20xui64>
    %12 = "stablehlo.convert"(%arg1) : (tensor<20xf64>) -> tensor<20xi8>
    "func.return"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12) : (tensor<29xi8>, tensor<29xi16>, tensor<29xi32>, tensor<29xi64>, tensor<29xui8>, tensor<29xui16>, tensor<29xui32>, tensor<29xui64>, tensor<20xi32>, tensor<20xi64>, tensor<20xui32>, tensor<20xui64>, tensor<20xi8>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
