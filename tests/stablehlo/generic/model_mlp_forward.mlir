"builtin.module"() <{sym_name = "jit_model_mlp_forward"}> ({
  "func.func"() <{function_type = (tensor<32x64xf32>, tensor<64xf32>, tensor<64x32xf32>, tensor<32xf32>, tensor<32x10xf32>, tensor<10xf32>, tensor<8x32xf32>) -> tensor<8x10xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<32x64xf32>, %arg2: tensor<64xf32>, %arg3: tensor<64x32xf32>, %arg4: tensor<32xf32>, %arg5: tensor<32x10xf32>, %arg6: tensor<10xf32>, %arg7: tensor<8x32xf32>):
    %3 = "stablehlo.dot_general"(%arg7, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x64xf32>) -> tensor<8x64xf32>
    %4 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64: 1>}> : (tensor<64xf32>) -> tensor<1x64xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x64xf32>) -> tensor<8x64xf32>
    %6 = "stablehlo.add"(%3, %5) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    %7 = "func.call"(%6) <{callee = @relu}> : (tensor<8x64xf32>) -> tensor<8x64xf32>
    %8 = "stablehlo.dot_general"(%7, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x64xf32>, tensor<64x32xf32>) -> tensor<8x32xf32>
    %9 = "stablehlo.broadcast_in_dim"(%arg4) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<1x32xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x32xf32>) -> tensor<8x32xf32>
    %11 = "stablehlo.add"(%8, %10) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %12 = "stablehlo.multiply"(%11, %11) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %13 = "stablehlo.multiply"(%12, %11) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %14 = "stablehlo.constant"() <{value = dense<4.471500e-02> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %16 = "stablehlo.multiply"(%15, %13) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %17 = "stablehlo.add"(%11, %16) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %18 = "stablehlo.constant"() <{value = dense<0.797884583> : tensor<f32>}> : () -> tensor<f32>
    %19 = "stablehlo.broadcast_in_dim"(%18) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %20 = "stablehlo.multiply"(%19, %17) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %21 = "stablehlo.tanh"(%20) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %22 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %24 = "stablehlo.add"(%23, %21) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %25 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x32xf32>
    %27 = "stablehlo.multiply"(%26, %24) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %28 = "stablehlo.multiply"(%11, %27) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    %29 = "stablehlo.dot_general"(%28, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<8x32xf32>, tensor<32x10xf32>) -> tensor<8x10xf32>
    %30 = "stablehlo.broadcast_in_dim"(%arg6) <{broadcast_dimensions = array<i64: 1>}> : (tensor<10xf32>) -> tensor<1x10xf32>
    %31 = "stablehlo.broadcast_in_dim"(%30) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x10xf32>) -> tensor<8x10xf32>
    %32 = "stablehlo.add"(%29, %31) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %33 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %34 = "stablehlo.reduce"(%32, %33) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %48 = "stablehlo.maximum"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%48) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %35 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %36 = "stablehlo.broadcast_in_dim"(%35) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %37 = "stablehlo.maximum"(%36, %34) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %40 = "stablehlo.subtract"(%32, %39) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    %41 = "stablehlo.exponential"(%40) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    %42 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %43 = "stablehlo.reduce"(%41, %42) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %47 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%47) : (tensor<f32>) -> ()
    }) : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %44 = "stablehlo.broadcast_in_dim"(%43) <{broadcast_dimensions = array<i64: 0>}> : (tensor<8xf32>) -> tensor<8x1xf32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %46 = "stablehlo.divide"(%41, %45) : (tensor<8x10xf32>, tensor<8x10xf32>) -> tensor<8x10xf32>
    "func.return"(%46) : (tensor<8x10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x64xf32>) -> tensor<8x64xf32>, sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x64xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x64xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<8x64xf32>, tensor<8x64xf32>) -> tensor<8x64xf32>
    "func.return"(%2) : (tensor<8x64xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
