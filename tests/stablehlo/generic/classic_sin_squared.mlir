"builtin.module"() <{sym_name = "jit_classic_sin_squared"}> ({
  "func.func"() <{function_type = (tensor<1000xf32>) -> tensor<1000xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<1000xf32>):
    %0 = "stablehlo.sine"(%arg0) : (tensor<1000xf32>) -> tensor<1000xf32>
    %1 = "stablehlo.multiply"(%0, %0) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
    "func.return"(%1) : (tensor<1000xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
