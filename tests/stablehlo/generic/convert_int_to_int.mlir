"builtin.module"() <{sym_name = "jit_convert_int_to_int"}> ({
  "func.func"() <{function_type = (tensor<14xi32>, tensor<14xui8>, tensor<14xui64>) -> (tensor<14xi8>, tensor<14xui8>, tensor<14xi16>, tensor<14xui32>, tensor<14xi64>, tensor<14xui64>, tensor<14xi32>, tensor<14xi64>, tensor<14xui16>, tensor<14xi32>, tensor<14xi8>, tensor<14xui32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<14xi32>, %arg1: tensor<14xui8>, %arg2: tensor<14xui64>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<14xi32>) -> tensor<14xi8>
    %1 = "stablehlo.convert"(%arg0) : (tensor<14xi32>) -> tensor<14xui8>
    %2 = "stablehlo.convert"(%arg0) : (tensor<14xi32>) -> tensor<14xi16>
    %3 = "stablehlo.convert"(%arg0) : (tensor<14xi32>) -> tensor<14xui32>
    %4 = "stablehlo.convert"(%arg0) : (tensor<14xi32>) -> tensor<14xi64>
    %5 = "stablehlo.convert"(%arg0) : (tensor<14xi32>) -> tensor<14xui64>
    %6 = "stablehlo.convert"(%arg1) : (tensor<14xui8>) -> tensor<14xi32>
    %7 = "stablehlo.convert"(%arg1) : (tensor<14xui8>) -> tensor<14xi64>
    %8 = "stablehlo.convert"(%arg1) : (tensor<14xui8>) -> tensor<14xui16>
    %9 = "stablehlo.convert"(%arg2) : (tensor<14xui64>) -> tensor<14xi32>
    %10 = "stablehlo.convert"(%arg2) : (tensor<14xui64>) -> tensor<14xi8>
    %11 = "stablehlo.convert"(%arg2) : (tensor<14xui64>) -> tensor<14xui32>
    "func.return"(%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11) : (tensor<14xi8>, tensor<14xui8>, tensor<14xi16>, tensor<14xui32>, tensor<14xi64>, tensor<14xui64>, tensor<14xi32>, tensor<14xi64>, tensor<14xui16>, tensor<14xi32>, tensor<14xi8>, tensor<14xui32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
