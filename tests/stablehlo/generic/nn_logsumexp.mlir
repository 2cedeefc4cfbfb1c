"builtin.module"() <{sym_name = "jit_nn_logsumexp"}> ({
  "func.func"() <{function_type = (tensor<5x12xf32>) -> (tensor<5xf32>, tensor<12xf32>, tensor<f32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<5x12xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg11: tensor<f32>, %arg12: tensor<f32>):
      %60 = "stablehlo.maximum"(%arg11, %arg12) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<5x12xf32>, tensor<f32>) -> tensor<5xf32>
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
    %4 = "stablehlo.maximum"(%3, %1) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %5 = "stablehlo.is_finite"(%4) : (tensor<5xf32>) -> tensor<5xi1>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
    %8 = "stablehlo.select"(%5, %4, %7) : (tensor<5xi1>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0>}> : (tensor<5xf32>) -> tensor<5x1xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<5x1xf32>) -> tensor<5x12xf32>
    %11 = "stablehlo.subtract"(%arg0, %10) : (tensor<5x12xf32>, tensor<5x12xf32>) -> tensor<5x12xf32>
    %12 = "stablehlo.exponential"(%11) : (tensor<5x12xf32>) -> tensor<5x12xf32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %59 = "stablehlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%59) : (tensor<f32>) -> ()
    }) : (tensor<5x12xf32>, tensor<f32>) -> tensor<5xf32>
    %15 = "stablehlo.sign"(%14) : (tensor<5xf32>) -> tensor<5xf32>
    %16 = "stablehlo.abs"(%14) : (tensor<5xf32>) -> tensor<5xf32>
    %17 = "stablehlo.log"(%16) : (tensor<5xf32>) -> tensor<5xf32>
    %18 = "stablehlo.add"(%17, %8) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %19 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.reduce"(%arg0, %19) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %58 = "stablehlo.maximum"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%58) : (tensor<f32>) -> ()
    }) : (tensor<5x12xf32>, tensor<f32>) -> tensor<12xf32>
    %21 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.broadcast_in_dim"(%21) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<12xf32>
    %23 = "stablehlo.maximum"(%22, %20) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %24 = "stablehlo.is_finite"(%23) : (tensor<12xf32>) -> tensor<12xi1>
    %25 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %26 = "stablehlo.broadcast_in_dim"(%25) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<12xf32>
    %27 = "stablehlo.select"(%24, %23, %26) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %28 = "stablehlo.broadcast_in_dim"(%27) <{broadcast_dimensions = array<i64: 1>}> : (tensor<12xf32>) -> tensor<1x12xf32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x12xf32>) -> tensor<5x12xf32>
    %30 = "stablehlo.subtract"(%arg0, %29) : (tensor<5x12xf32>, tensor<5x12xf32>) -> tensor<5x12xf32>
    %31 = "stablehlo.exponential"(%30) : (tensor<5x12xf32>) -> tensor<5x12xf32>
    %32 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %33 = "stablehlo.reduce"(%31, %32) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %57 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%57) : (tensor<f32>) -> ()
    }) : (tensor<5x12xf32>, tensor<f32>) -> tensor<12xf32>
    %34 = "stablehlo.sign"(%33) : (tensor<12xf32>) -> tensor<12xf32>
    %35 = "stablehlo.abs"(%33) : (tensor<12xf32>) -> tensor<12xf32>
    %36 = "stablehlo.log"(%35) : (tensor<12xf32>) -> tensor<12xf32>
    %37 = "stablehlo.add"(%36, %27) : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %38 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %39 = "stablehlo.reduce"(%arg0, %38) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %56 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%56) : (tensor<f32>) -> ()
    }) : (tensor<5x12xf32>, tensor<f32>) -> tensor<f32>
    %40 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.maximum"(%40, %39) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %42 = "stablehlo.is_finite"(%41) : (tensor<f32>) -> tensor<i1>
    %43 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %44 = "stablehlo.select"(%42, %41, %43) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %46 = "stablehlo.broadcast_in_dim"(%45) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<5x12xf32>
    %47 = "stablehlo.subtract"(%arg0, %46) : (tensor<5x12xf32>, tensor<5x12xf32>) -> tensor<5x12xf32>
    %48 = "stablehlo.exponential"(%47) : (tensor<5x12xf32>) -> tensor<5x12xf32>
    %49 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %50 = "stablehlo.reduce"(%48, %49) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %55 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%55) : (tensor<f32>) -> ()
    }) : (tensor<5x12xf32>, tensor<f32>) -> tensor<f32>
    %51 = "stablehlo.sign"(%50) : (tensor<f32>) -> tensor<f32>
    %52 = "stablehlo.abs"(%50) : (tensor<f32>) -> tensor<f32>
    %53 = "stablehlo.log"(%52) : (tensor<f32>) -> tensor<f32>
    %54 = "stablehlo.add"(%53, %44) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "func.return"(%18, %37, %54) : (tensor<5xf32>, tensor<12xf32>, tensor<f32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
