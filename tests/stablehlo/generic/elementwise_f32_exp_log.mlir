"builtin.module"() <{sym_name = "jit_elementwise_f32_exp_log"}> ({
  "func.func"() <{function_type = (tensor<69xf32>, tensor<94xf32>) -> (tensor<69xf32>, tensor<69xf32>, tensor<69xf32>, tensor<69xf32>, tensor<69xf32>, tensor<94xf32>, tensor<94xf32>, tensor<94xf32>, tensor<94xf32>, tensor<69xf32>, tensor<94xf32>, tensor<94xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<69xf32>, %arg1: tensor<94xf32>):
    %0 = "stablehlo.exponential"(%arg0) : (tensor<69xf32>) -> tensor<69xf32>
    %1 = "stablehlo.exponential_minus_one"(%arg0) : (tensor<69xf32>) -> tensor<69xf32>
    %2 = "stablehlo.log"(%arg0) : (tensor<69xf32>) -> tensor<69xf32>
    %3 = "stablehlo.log_plus_one"(%arg0) : (tensor<69xf32>) -> tensor<69xf32>
    %4 = "stablehlo.negate"(%arg0) : (tensor<69xf32>) -> tensor<69xf32>
    %5 = "stablehlo.exponential"(%4) : (tensor<69xf32>) -> tensor<69xf32>
    %6 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<69xf32>
    %8 = "stablehlo.add"(%7, %5) : (tensor<69xf32>, tensor<69xf32>) -> tensor<69xf32>
    %9 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<69xf32>
    %11 = "stablehlo.divide"(%10, %8) : (tensor<69xf32>, tensor<69xf32>) -> tensor<69xf32>
    %12 = "stablehlo.exponential"(%arg1) : (tensor<94xf32>) -> tensor<94xf32>
    %13 = "stablehlo.log"(%arg1) : (tensor<94xf32>) -> tensor<94xf32>
    %14 = "stablehlo.log_plus_one"(%arg1) : (tensor<94xf32>) -> tensor<94xf32>
    %15 = "stablehlo.constant"() <{value = dense<1.000000e-03> : tensor<f32>}> : () -> tensor<f32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<94xf32>
    %17 = "stablehlo.multiply"(%arg1, %16) : (tensor<94xf32>, tensor<94xf32>) -> tensor<94xf32>
    %18 = "stablehlo.exponential_minus_one"(%17) : (tensor<94xf32>) -> tensor<94xf32>
    %19 = "stablehlo.constant"() <{value = dense<0.693147182> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<69xf32>
    %21 = "stablehlo.multiply"(%20, %arg0) : (tensor<69xf32>, tensor<69xf32>) -> tensor<69xf32>
    %22 = "stablehlo.exponential"(%21) : (tensor<69xf32>) -> tensor<69xf32>
    %23 = "stablehlo.log"(%arg1) : (tensor<94xf32>) -> tensor<94xf32>
    %24 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.log"(%24) : (tensor<f32>) -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<94xf32>
    %27 = "stablehlo.divide"(%23, %26) : (tensor<94xf32>, tensor<94xf32>) -> tensor<94xf32>
    %28 = "stablehlo.log"(%arg1) : (tensor<94xf32>) -> tensor<94xf32>
    %29 = "stablehlo.constant"() <{value = dense<0.434294492> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<94xf32>
    %31 = "stablehlo.multiply"(%28, %30) : (tensor<94xf32>, tensor<94xf32>) -> tensor<94xf32>
    "func.return"(%0, %1, %2, %3, %11, %12, %13, %14, %18, %22, %27, %31) : (tensor<69xf32>, tensor<69xf32>, tensor<69xf32>, tensor<69xf32>, tensor<69xf32>, tensor<94xf32>, tensor<94xf32>, tensor<94xf32>, tensor<94xf32>, tensor<69xf32>, tensor<94xf32>, tensor<94xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
