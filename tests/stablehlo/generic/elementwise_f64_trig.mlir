"builtin.module"() <{sym_name = "jit_elementwise_f64_trig"}> ({
  "func.func"() <{function_type = (tensor<64xf64>, tensor<64xf64>) -> (tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<64xf64>, %arg1: tensor<64xf64>):
    %0 = "stablehlo.sine"(%arg0) : (tensor<64xf64>) -> tensor<64xf64>
    %1 = "stablehlo.cosine"(%arg0) : (tensor<64xf64>) -> tensor<64xf64>
    %2 = "stablehlo.tan"(%arg0) : (tensor<64xf64>) -> tensor<64xf64>
    %3 = "stablehlo.tanh"(%arg0) : (tensor<64xf64>) -> tensor<64xf64>
    %4 = "stablehlo.atan2"(%arg0, %arg1) : (tensor<64xf64>, tensor<64xf64>) -> tensor<64xf64>
    %5 = "chlo.atan"(%arg0) : (tensor<64xf64>) -> tensor<64xf64>
    "func.return"(%0, %1, %2, %3, %4, %5) : (tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>, tensor<64xf64>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
