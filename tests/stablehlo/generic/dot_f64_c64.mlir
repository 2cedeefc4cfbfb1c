"builtin.module"() <{sym_name = "jit_dot_f64_c64"}> ({
  "func.func"() <{function_type = (tensor<5x7xf64>, tensor<7x3xf64>, tensor<4x6xcomplex<f32>>, tensor<6x3xcomplex<f32>>) -> (tensor<5x3xf64>, tensor<4x3xcomplex<f32>>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<5x7xf64>, %arg1: tensor<7x3xf64>, %arg2: tensor<4x6xcomplex<f32>>, %arg3: tensor<6x3xcomplex<f32>>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x7xf64>, tensor<7x3xf64>) -> tensor<5x3xf64>
    %1 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xcomplex<f32>>, tensor<6x3xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
    "func.return"(%0, %1) : (tensor<5x3xf64>, tensor<4x3xcomplex<f32>>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
