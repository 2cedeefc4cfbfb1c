"builtin.module"() <{sym_name = "jit_sort_top_k"}> ({
  "func.func"() <{function_type = (tensor<4x10xf32>, tensor<3x7xi32>) -> (tensor<4x3xf32>, tensor<4x3xi32>, tensor<3x2xi32>, tensor<3x2xi32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x10xf32>, %arg1: tensor<3x7xi32>):
    %0:2 = "chlo.top_k"(%arg0) <{k = 3 : i64}> : (tensor<4x10xf32>) -> (tensor<4x3xf32>, tensor<4x3xi32>)
    %1:2 = "chlo.top_k"(%arg1) <{k = 2 : i64}> : (tensor<3x7xi32>) -> (tensor<3x2xi32>, tensor<3x2xi32>)
    "func.return"(%0#0, %0#1, %1#0, %1#1) : (tensor<4x3xf32>, tensor<4x3xi32>, tensor<3x2xi32>, tensor<3x2xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
