"builtin.module"() <{sym_name = "jit_reduce_pred"}> ({
  "func.func"() <{function_type = (tensor<4x5xi1>) -> (tensor<5xi1>, tensor<4xi1>, tensor<i1>, tensor<i1>, tensor<4xi64>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x5xi1>):
    %0 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg9: tensor<i1>, %arg10: tensor<i1>):
      %16 = "stablehlo.or"(%arg9, %arg10) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%16) : (tensor<i1>) -> ()
    }) : (tensor<4x5xi1>, tensor<i1>) -> tensor<5xi1>
    %2 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %3 = "stablehlo.reduce"(%arg0, %2) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg7: tensor<i1>, %arg8: tensor<i1>):
      %15 = "stablehlo.and"(%arg7, %arg8) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%15) : (tensor<i1>) -> ()
    }) : (tensor<4x5xi1>, tensor<i1>) -> tensor<4xi1>
    %4 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %5 = "stablehlo.reduce"(%arg0, %4) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg5: tensor<i1>, %arg6: tensor<i1>):
      %14 = "stablehlo.or"(%arg5, %arg6) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%14) : (tensor<i1>) -> ()
    }) : (tensor<4x5xi1>, tensor<i1>) -> tensor<i1>
    %6 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %7 = "stablehlo.reduce"(%arg0, %6) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg3: tensor<i1>, %arg4: tensor<i1>):
      %13 = "stablehlo.and"(%arg3, %arg4) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%13) : (tensor<i1>) -> ()
    }) : (tensor<4x5xi1>, tensor<i1>) -> tensor<i1>
    %8 = "stablehlo.convert"(%arg0) : (tensor<4x5xi1>) -> tensor<4x5xi32>
    %9 = "stablehlo.convert"(%8) : (tensor<4x5xi32>) -> tensor<4x5xi64>
    %10 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %11 = "stablehlo.reduce"(%9, %10) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %12 = "stablehlo.add"(%arg1, %arg2) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%12) : (tensor<i64>) -> ()
    }) : (tensor<4x5xi64>, tensor<i64>) -> tensor<4xi64>
    "func.return"(%1, %3, %5, %7, %11) : (tensor<5xi1>, tensor<4xi1>, tensor<i1>, tensor<i1>, tensor<4xi64>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
