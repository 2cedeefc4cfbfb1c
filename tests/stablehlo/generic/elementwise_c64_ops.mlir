"builtin.module"() <{sym_name = "jit_elementwise_c64_ops"}> ({
  "func.func"() <{function_type = (tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xf32>, tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xf32>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xi1>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}, {jax.result_info = "result[6]"}, {jax.result_info = "result[7]"}, {jax.result_info = "result[8]"}, {jax.result_info = "result[9]"}, {jax.result_info = "result[10]"}, {jax.result_info = "result[11]"}, {jax.result_info = "result[12]"}, {jax.result_info = "result[13]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<16xcomplex<f32>>, %arg1: tensor<16xcomplex<f32>>, %arg2: tensor<16xf32>, %arg3: tensor<16xf32>):
    %0 = "stablehlo.real"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %1 = "stablehlo.imag"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %2 = "stablehlo.complex"(%arg2, %arg3) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xcomplex<f32>>
    %3 = "stablehlo.real"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %4 = "stablehlo.imag"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %5 = "stablehlo.negate"(%4) : (tensor<16xf32>) -> tensor<16xf32>
    %6 = "stablehlo.complex"(%3, %5) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xcomplex<f32>>
    %7 = "stablehlo.add"(%arg0, %arg1) : (tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %8 = "stablehlo.multiply"(%arg0, %arg1) : (tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %9 = "stablehlo.divide"(%arg0, %arg1) : (tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %10 = "stablehlo.abs"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %11 = "stablehlo.exponential"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %12 = "stablehlo.log"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %13 = "stablehlo.sqrt"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %14 = "stablehlo.negate"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %15 = "stablehlo.sign"(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %16 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>) -> tensor<16xi1>
    "func.return"(%0, %1, %2, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16) : (tensor<16xf32>, tensor<16xf32>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xf32>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xi1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
