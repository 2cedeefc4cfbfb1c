"builtin.module"() <{sym_name = "jit_reduce_f64_f16_bf16"}> ({
  "func.func"() <{function_type = (tensor<3x4x5xf64>, tensor<6x16xf16>, tensor<6x16xbf16>) -> (tensor<4x5xf64>, tensor<3xf64>, tensor<3x4xf64>, tensor<f64>, tensor<3x5xf64>, tensor<6xf16>, tensor<16xf16>, tensor<f16>, tensor<16xbf16>, tensor<6xbf16>, tensor<6xbf16>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<3x4x5xf64>, %arg1: tensor<6x16xf16>, %arg2: tensor<6x16xbf16>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg23: tensor<f64>, %arg24: tensor<f64>):
      %45 = "stablehlo.add"(%arg23, %arg24) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%45) : (tensor<f64>) -> ()
    }) : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<4x5xf64>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %3 = "stablehlo.reduce"(%arg0, %2) <{dimensions = array<i64: 1, 2>}> ({
    ^bb0(%arg21: tensor<f64>, %arg22: tensor<f64>):
      %44 = "stablehlo.add"(%arg21, %arg22) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%44) : (tensor<f64>) -> ()
    }) : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<3xf64>
    %4 = "stablehlo.constant"() <{value = dense<0xFFF0000000000000> : tensor<f64>}> : () -> tensor<f64>
    %5 = "stablehlo.reduce"(%arg0, %4) <{dimensions = array<i64: 2>}> ({
    ^bb0(%arg19: tensor<f64>, %arg20: tensor<f64>):
      %43 = "stablehlo.maximum"(%arg19, %arg20) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%43) : (tensor<f64>) -> ()
    }) : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<3x4xf64>
    %6 = "stablehlo.constant"() <{value = dense<0x7FF0000000000000> : tensor<f64>}> : () -> tensor<f64>
    %7 = "stablehlo.reduce"(%arg0, %6) <{dimensions = array<i64: 0, 1, 2>}> ({
    ^bb0(%arg17: tensor<f64>, %arg18: tensor<f64>):
      %42 = "stablehlo.minimum"(%arg17, %arg18) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%42) : (tensor<f64>) -> ()
    }) : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<f64>
    %8 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %9 = "stablehlo.reduce"(%arg0, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg15: tensor<f64>, %arg16: tensor<f64>):
      %41 = "stablehlo.multiply"(%arg15, %arg16) : (tensor<f64>, tensor<f64>) -> tensor<f64>
      "stablehlo.return"(%41) : (tensor<f64>) -> ()
    }) : (tensor<3x4x5xf64>, tensor<f64>) -> tensor<3x5xf64>
    %10 = "stablehlo.convert"(%arg1) : (tensor<6x16xf16>) -> tensor<6x16xf32>
    %11 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %12 = "stablehlo.reduce"(%10, %11) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg13: tensor<f32>, %arg14: tensor<f32>):
      %40 = "stablehlo.add"(%arg13, %arg14) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%40) : (tensor<f32>) -> ()
    }) : (tensor<6x16xf32>, tensor<f32>) -> tensor<6xf32>
    %13 = "stablehlo.convert"(%12) : (tensor<6xf32>) -> tensor<6xf16>
    %14 = "stablehlo.constant"() <{value = dense<0xFC00> : tensor<f16>}> : () -> tensor<f16>
    %15 = "stablehlo.reduce"(%arg1, %14) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg11: tensor<f16>, %arg12: tensor<f16>):
      %39 = "stablehlo.maximum"(%arg11, %arg12) : (tensor<f16>, tensor<f16>) -> tensor<f16>
      "stablehlo.return"(%39) : (tensor<f16>) -> ()
    }) : (tensor<6x16xf16>, tensor<f16>) -> tensor<16xf16>
    %16 = "stablehlo.convert"(%arg1) : (tensor<6x16xf16>) -> tensor<6x16xf32>
    %17 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.reduce"(%16, %17) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %38 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%38) : (tensor<f32>) -> ()
    }) : (tensor<6x16xf32>, tensor<f32>) -> tensor<f32>
    %19 = "stablehlo.constant"() <{value = dense<9.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.divide"(%18, %19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %21 = "stablehlo.convert"(%20) : (tensor<f32>) -> tensor<f16>
    %22 = "stablehlo.convert"(%arg2) : (tensor<6x16xbf16>) -> tensor<6x16xf32>
    %23 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %24 = "stablehlo.reduce"(%22, %23) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %37 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%37) : (tensor<f32>) -> ()
    }) : (tensor<6x16xf32>, tensor<f32>) -> tensor<16xf32>
    %25 = "stablehlo.convert"(%24) : (tensor<16xf32>) -> tensor<16xbf16>
    %26 = "stablehlo.constant"() <{value = dense<0xFF80> : tensor<bf16>}> : () -> tensor<bf16>
    %27 = "stablehlo.reduce"(%arg2, %26) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<bf16>, %arg6: tensor<bf16>):
      %36 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<bf16>, tensor<bf16>) -> tensor<bf16>
      "stablehlo.return"(%36) : (tensor<bf16>) -> ()
    }) : (tensor<6x16xbf16>, tensor<bf16>) -> tensor<6xbf16>
    %28 = "stablehlo.convert"(%arg2) : (tensor<6x16xbf16>) -> tensor<6x16xf32>
    %29 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.reduce"(%28, %29) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %35 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%35) : (tensor<f32>) -> ()
    }) : (tensor<6x16xf32>, tensor<f32>) -> tensor<6xf32>
    %31 = "stablehlo.constant"() <{value = dense<1.600000e+01> : tensor<f32>}> : () -> tensor<f32>
    %32 = "stablehlo.broadcast_in_dim"(%31) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6xf32>
    %33 = "stablehlo.divide"(%30, %32) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %34 = "stablehlo.convert"(%33) : (tensor<6xf32>) -> tensor<6xbf16>
    "func.return"(%1, %3, %5, %7, %9, %13, %15, %21, %25, %27, %34) : (tensor<4x5xf64>, tensor<3xf64>, tensor<3x4xf64>, tensor<f64>, tensor<3x5xf64>, tensor<6xf16>, tensor<16xf16>, tensor<f16>, tensor<16xbf16>, tensor<6xbf16>, tensor<6xbf16>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
