"builtin.module"() <{sym_name = "jit_control_fori_loop"}> ({
  "func.func"() <{function_type = (tensor<8xf32>, tensor<i32>) -> (tensor<8xf32>, tensor<i32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<8xf32>, %arg3: tensor<i32>):
    %13 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i64>}> : () -> tensor<i64>
    %15:3 = "stablehlo.while"(%14, %13, %arg2) ({
    ^bb0(%arg13: tensor<i64>, %arg14: tensor<i64>, %arg15: tensor<8xf32>):
      %26 = "stablehlo.constant"() <{value = dense<10> : tensor<i64>}> : () -> tensor<i64>
      %27 = "stablehlo.compare"(%arg13, %26) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i64>, tensor<i64>) -> tensor<i1>
      "stablehlo.return"(%27) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg10: tensor<i64>, %arg11: tensor<i64>, %arg12: tensor<8xf32>):
      %23:2 = "func.call"(%arg11, %arg12) <{callee = @closed_call}> : (tensor<i64>, tensor<8xf32>) -> (tensor<i64>, tensor<8xf32>)
      %24 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
      %25 = "stablehlo.add"(%arg10, %24) : (tensor<i64>, tensor<i64>) -> tensor<i64>
      "stablehlo.return"(%25, %23#0, %23#1) : (tensor<i64>, tensor<i64>, tensor<8xf32>) -> ()
    }) : (tensor<i64>, tensor<i64>, tensor<8xf32>) -> (tensor<i64>, tensor<i64>, tensor<8xf32>)
    %16 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %17 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %18:3 = "stablehlo.while"(%16, %arg3, %17) ({
    ^bb0(%arg7: tensor<i32>, %arg8: tensor<i32>, %arg9: tensor<i32>):
      %22 = "stablehlo.compare"(%arg7, %arg8) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      "stablehlo.return"(%22) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<i32>):
      %19 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
      %20 = "stablehlo.add"(%arg4, %19) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      %21 = "stablehlo.add"(%arg6, %arg4) : (tensor<i32>, tensor<i32>) -> tensor<i32>
      "stablehlo.return"(%20, %arg5, %21) : (tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    }) : (tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<i32>, tensor<i32>, tensor<i32>)
    "func.return"(%15#2, %18#2) : (tensor<8xf32>, tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<i64>, tensor<8xf32>) -> (tensor<i64>, tensor<8xf32>), sym_name = "closed_call", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i64>, %arg1: tensor<8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<1> : tensor<i64>}> : () -> tensor<i64>
    %1 = "stablehlo.add"(%arg0, %0) : (tensor<i64>, tensor<i64>) -> tensor<i64>
    %2 = "stablehlo.constant"() <{value = dense<0.899999976> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %4 = "stablehlo.multiply"(%arg1, %3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %5 = "stablehlo.sine"(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
    %6 = "stablehlo.convert"(%arg0) : (tensor<i64>) -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %8 = "stablehlo.multiply"(%5, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.00999999977> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %11 = "stablehlo.multiply"(%8, %10) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %12 = "stablehlo.add"(%4, %11) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%1, %12) : (tensor<i64>, tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
