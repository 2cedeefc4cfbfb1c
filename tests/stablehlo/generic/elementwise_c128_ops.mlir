"builtin.module"() <{sym_name = "jit_elementwise_c128_ops"}> ({
  "func.func"() <{function_type = (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xf64>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<12xcomplex<f64>>, %arg1: tensor<12xcomplex<f64>>):
    %0 = "stablehlo.add"(%arg0, %arg1) : (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %1 = "stablehlo.multiply"(%arg0, %arg1) : (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %2 = "stablehlo.divide"(%arg0, %arg1) : (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %3 = "stablehlo.abs"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %4 = "stablehlo.exponential"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %5 = "stablehlo.log"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %6 = "stablehlo.sqrt"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %7 = "stablehlo.constant"() <{value = dense<(1.000000e-01,0.000000e+00)> : tensor<complex<f64>>}> : () -> tensor<complex<f64>>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<complex<f64>>) -> tensor<12xcomplex<f64>>
    %9 = "stablehlo.multiply"(%arg0, %8) : (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %10 = "stablehlo.exponential_minus_one"(%9) : (tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %11 = "stablehlo.real"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %12 = "stablehlo.imag"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %14 = "stablehlo.broadcast_in_dim"(%13) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %15 = "stablehlo.compare"(%11, %14) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %16 = "stablehlo.sine"(%11) : (tensor<12xf64>) -> tensor<12xf64>
    %17 = "stablehlo.cosine"(%11) : (tensor<12xf64>) -> tensor<12xf64>
    %18 = "stablehlo.exponential_minus_one"(%12) : (tensor<12xf64>) -> tensor<12xf64>
    %19 = "stablehlo.negate"(%12) : (tensor<12xf64>) -> tensor<12xf64>
    %20 = "stablehlo.exponential_minus_one"(%19) : (tensor<12xf64>) -> tensor<12xf64>
    %21 = "stablehlo.subtract"(%18, %20) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %22 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %23 = "stablehlo.broadcast_in_dim"(%22) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %24 = "stablehlo.divide"(%21, %23) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %25 = "stablehlo.add"(%18, %20) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %26 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %27 = "stablehlo.broadcast_in_dim"(%26) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %28 = "stablehlo.add"(%25, %27) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %29 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %30 = "stablehlo.broadcast_in_dim"(%29) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %31 = "stablehlo.divide"(%28, %30) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %32 = "stablehlo.multiply"(%16, %31) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %33 = "stablehlo.multiply"(%17, %24) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %34 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %36 = "stablehlo.complex"(%35, %33) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xcomplex<f64>>
    %37 = "stablehlo.complex"(%32, %33) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xcomplex<f64>>
    %38 = "stablehlo.select"(%15, %36, %37) : (tensor<12xi1>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %39 = "stablehlo.real"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %40 = "stablehlo.imag"(%arg0) : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %41 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %43 = "stablehlo.compare"(%39, %42) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %44 = "stablehlo.sine"(%39) : (tensor<12xf64>) -> tensor<12xf64>
    %45 = "stablehlo.cosine"(%39) : (tensor<12xf64>) -> tensor<12xf64>
    %46 = "stablehlo.exponential_minus_one"(%40) : (tensor<12xf64>) -> tensor<12xf64>
    %47 = "stablehlo.negate"(%40) : (tensor<12xf64>) -> tensor<12xf64>
    %48 = "stablehlo.exponential_minus_one"(%47) : (tensor<12xf64>) -> tensor<12xf64>
    %49 = "stablehlo.subtract"(%46, %48) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %50 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %52 = "stablehlo.divide"(%49, %51) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %53 = "stablehlo.add"(%46, %48) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %54 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %56 = "stablehlo.add"(%53, %55) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %57 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %59 = "stablehlo.divide"(%56, %58) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %60 = "stablehlo.multiply"(%45, %59) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %61 = "stablehlo.negate"(%44) : (tensor<12xf64>) -> tensor<12xf64>
    %62 = "stablehlo.multiply"(%61, %52) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %63 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f64>}> : () -> tensor<f64>
    %64 = "stablehlo.broadcast_in_dim"(%63) <{broadcast_dimensions = array<i64>}> : (tensor<f64>) -> tensor<12xf64>
    %65 = "stablehlo.complex"(%60, %64) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xcomplex<f64>>
    %66 = "stablehlo.complex"(%60, %62) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xcomplex<f64>>
    %67 = "stablehlo.select"(%43, %65, %66) : (tensor<12xi1>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %68 = "stablehlo.multiply"(%arg0, %arg0) : (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    %69 = "stablehlo.multiply"(%68, %arg0) : (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    "func.return"(%0, %1, %2, %3, %4, %5, %6, %10, %38, %67, %69) : (tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xf64>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
