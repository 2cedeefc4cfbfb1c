"builtin.module"() <{sym_name = "jit_control_cond_switch"}> ({
  "func.func"() <{function_type = (tensor<i1>, tensor<5xf32>, tensor<5xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<5xf32>, %arg2: tensor<5xf32>, %arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
    %0 = "stablehlo.convert"(%arg0) : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %52 = "stablehlo.cosine"(%arg1) : (tensor<5xf32>) -> tensor<5xf32>
      %53 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %54 = "stablehlo.broadcast_in_dim"(%53) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
      %55 = "stablehlo.multiply"(%52, %54) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%55) : (tensor<5xf32>) -> ()
    }, {
      %51 = "stablehlo.sine"(%arg1) : (tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%51) : (tensor<5xf32>) -> ()
    }) : (tensor<i32>) -> tensor<5xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%arg2, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %50 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%50) : (tensor<f32>) -> ()
    }) : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.compare"(%3, %4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %6 = "stablehlo.convert"(%5) : (tensor<i1>) -> tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %49 = "stablehlo.negate"(%arg2) : (tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%49) : (tensor<5xf32>) -> ()
    }, {
      %46 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %47 = "stablehlo.broadcast_in_dim"(%46) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
      %48 = "stablehlo.multiply"(%arg2, %47) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%48) : (tensor<5xf32>) -> ()
    }) : (tensor<i32>) -> tensor<5xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.reduce"(%arg2, %8) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %45 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%45) : (tensor<f32>) -> ()
    }) : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %10 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %11 = "stablehlo.compare"(%9, %10) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %12 = "stablehlo.convert"(%11) : (tensor<i1>) -> tensor<i32>
    %13 = "stablehlo.case"(%12) ({
      %44 = "stablehlo.negate"(%arg2) : (tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%44) : (tensor<5xf32>) -> ()
    }, {
      %41 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
      %43 = "stablehlo.multiply"(%arg2, %42) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%43) : (tensor<5xf32>) -> ()
    }) : (tensor<i32>) -> tensor<5xf32>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %16 = "stablehlo.clamp"(%14, %arg3, %15) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %17 = "stablehlo.case"(%16) ({
      %38 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %39 = "stablehlo.broadcast_in_dim"(%38) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
      %40 = "stablehlo.add"(%arg1, %39) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%40) : (tensor<5xf32>) -> ()
    }, {
      %37 = "stablehlo.exponential"(%arg1) : (tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%37) : (tensor<5xf32>) -> ()
    }, {
      %36 = "stablehlo.multiply"(%arg1, %arg1) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%36) : (tensor<5xf32>) -> ()
    }) : (tensor<i32>) -> tensor<5xf32>
    %18 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %19 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %20 = "stablehlo.clamp"(%18, %arg4, %19) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %21 = "stablehlo.case"(%20) ({
      %33 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %34 = "stablehlo.broadcast_in_dim"(%33) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
      %35 = "stablehlo.add"(%arg1, %34) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%35) : (tensor<5xf32>) -> ()
    }, {
      %32 = "stablehlo.exponential"(%arg1) : (tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%32) : (tensor<5xf32>) -> ()
    }, {
      %31 = "stablehlo.multiply"(%arg1, %arg1) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%31) : (tensor<5xf32>) -> ()
    }) : (tensor<i32>) -> tensor<5xf32>
    %22 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %23 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %24 = "stablehlo.clamp"(%22, %arg5, %23) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %25 = "stablehlo.case"(%24) ({
      %28 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
      %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
      %30 = "stablehlo.add"(%arg1, %29) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%30) : (tensor<5xf32>) -> ()
    }, {
      %27 = "stablehlo.exponential"(%arg1) : (tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%27) : (tensor<5xf32>) -> ()
    }, {
      %26 = "stablehlo.multiply"(%arg1, %arg1) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
      "stablehlo.return"(%26) : (tensor<5xf32>) -> ()
    }) : (tensor<i32>) -> tensor<5xf32>
    "func.return"(%1, %7, %13, %17, %21, %25) : (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
