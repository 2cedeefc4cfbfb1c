"builtin.module"() <{sym_name = "jit_reduce_precision"}> ({
  "func.func"() <{function_type = (tensor<53xf32>, tensor<45xf64>) -> (tensor<53xf32>, tensor<53xf32>, tensor<53xf32>, tensor<53xf32>, tensor<45xf64>, tensor<45xf64>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<53xf32>, %arg1: tensor<45xf64>):
    %0 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}> : (tensor<53xf32>) -> tensor<53xf32>
    %1 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<53xf32>) -> tensor<53xf32>
    %2 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 4 : i32, mantissa_bits = 3 : i32}> : (tensor<53xf32>) -> tensor<53xf32>
    %3 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 2 : i32, mantissa_bits = 1 : i32}> : (tensor<53xf32>) -> tensor<53xf32>
    %4 = "stablehlo.reduce_precision"(%arg1) <{exponent_bits = 11 : i32, mantissa_bits = 20 : i32}> : (tensor<45xf64>) -> tensor<45xf64>
    %5 = "stablehlo.reduce_precision"(%arg1) <{exponent_bits = 8 : i32, mantissa_bits = 23 : i32}> : (tensor<45xf64>) -> tensor<45xf64>
    "func.return"(%0, %1, %2, %3, %4, %5) : (tensor<53xf32>, tensor<53xf32>, tensor<53xf32>, tensor<53xf32>, tensor<45xf64>, tensor<45xf64>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
