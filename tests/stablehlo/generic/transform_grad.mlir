"builtin.module"() <{sym_name = "jit_transform_grad"}> ({
  "func.func"() <{function_type = (tensor<10xf32>, tensor<10xf32>) -> (tensor<f32>, tensor<10xf32>, tensor<10xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1][0]"}, {jax.result_info = "result[1][1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<10xf32>, %arg1: tensor<10xf32>):
    %0 = "stablehlo.sine"(%arg0) : (tensor<10xf32>) -> tensor<10xf32>
    %1 = "stablehlo.cosine"(%arg0) : (tensor<10xf32>) -> tensor<10xf32>
    %2 = "stablehlo.multiply"(%arg1, %arg1) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %3 = "stablehlo.log_plus_one"(%2) : (tensor<10xf32>) -> tensor<10xf32>
    %4 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %6 = "stablehlo.add"(%2, %5) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %7 = "stablehlo.multiply"(%0, %3) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %8 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %9 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %11 = "stablehlo.add"(%10, %8) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %12 = "stablehlo.divide"(%7, %11) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %13 = "stablehlo.multiply"(%11, %11) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %14 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %16 = "stablehlo.divide"(%15, %13) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %17 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.reduce"(%12, %17) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %36 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%36) : (tensor<f32>) -> ()
    }) : (tensor<10xf32>, tensor<f32>) -> tensor<f32>
    %19 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.broadcast_in_dim"(%19) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %21 = "stablehlo.multiply"(%20, %16) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %22 = "stablehlo.multiply"(%21, %7) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %23 = "stablehlo.negate"(%22) : (tensor<10xf32>) -> tensor<10xf32>
    %24 = "stablehlo.divide"(%20, %11) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %25 = "stablehlo.multiply"(%arg0, %23) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %26 = "stablehlo.multiply"(%23, %arg0) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %27 = "stablehlo.add"(%25, %26) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %28 = "stablehlo.multiply"(%0, %24) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %29 = "stablehlo.multiply"(%24, %3) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %30 = "stablehlo.divide"(%28, %6) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %31 = "stablehlo.multiply"(%arg1, %30) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %32 = "stablehlo.multiply"(%30, %arg1) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %33 = "stablehlo.add"(%31, %32) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %34 = "stablehlo.multiply"(%29, %1) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %35 = "stablehlo.add"(%27, %34) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    "func.return"(%18, %35, %33) : (tensor<f32>, tensor<10xf32>, tensor<10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
