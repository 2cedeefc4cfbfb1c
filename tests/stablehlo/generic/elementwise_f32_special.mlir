"builtin.module"() <{sym_name = "jit_elementwise_f32_special"}> ({
  "func.func"() <{function_type = (tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) -> (tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<40xf32>, %arg1: tensor<40xf32>, %arg2: tensor<40xf32>):
    %0 = "stablehlo.rsqrt"(%arg2) : (tensor<40xf32>) -> tensor<40xf32>
    %1 = "stablehlo.cbrt"(%arg0) : (tensor<40xf32>) -> tensor<40xf32>
    %2 = "chlo.erf"(%arg0) : (tensor<40xf32>) -> tensor<40xf32>
    %3 = "chlo.erf_inv"(%arg1) : (tensor<40xf32>) -> tensor<40xf32>
    %4 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<40xf32>
    %6 = "stablehlo.multiply"(%arg1, %5) : (tensor<40xf32>, tensor<40xf32>) -> tensor<40xf32>
    %7 = "chlo.sinh"(%6) : (tensor<40xf32>) -> tensor<40xf32>
    %8 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<40xf32>
    %10 = "stablehlo.multiply"(%arg1, %9) : (tensor<40xf32>, tensor<40xf32>) -> tensor<40xf32>
    %11 = "chlo.cosh"(%10) : (tensor<40xf32>) -> tensor<40xf32>
    %12 = "chlo.asinh"(%arg0) : (tensor<40xf32>) -> tensor<40xf32>
    %13 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<40xf32>
    %15 = "stablehlo.add"(%arg2, %14) : (tensor<40xf32>, tensor<40xf32>) -> tensor<40xf32>
    %16 = "chlo.acosh"(%15) : (tensor<40xf32>) -> tensor<40xf32>
    %17 = "chlo.atanh"(%arg1) : (tensor<40xf32>) -> tensor<40xf32>
    %18 = "chlo.asin"(%arg1) : (tensor<40xf32>) -> tensor<40xf32>
    %19 = "chlo.acos"(%arg1) : (tensor<40xf32>) -> tensor<40xf32>
    %20 = "chlo.lgamma"(%arg2) : (tensor<40xf32>) -> tensor<40xf32>
    %21 = "chlo.digamma"(%arg2) : (tensor<40xf32>) -> tensor<40xf32>
    "func.return"(%0, %1, %2, %3, %7, %11, %12, %16, %17, %18, %19, %20, %21) : (tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>, tensor<40xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
