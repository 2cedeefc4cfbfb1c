"builtin.module"() <{sym_name = "jit_dot_int"}> ({
  "func.func"() <{function_type = (tensor<4x6xi32>, tensor<6x3xi32>, tensor<5x7xi8>, tensor<7x2xi8>, tensor<3x4xui8>, tensor<4x2xui8>) -> (tensor<4x3xi32>, tensor<5x2xi32>, tensor<3x2xui8>, tensor<5x2xi8>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x6xi32>, %arg1: tensor<6x3xi32>, %arg2: tensor<5x7xi8>, %arg3: tensor<7x2xi8>, %arg4: tensor<3x4xui8>, %arg5: tensor<4x2xui8>):
    %0 = "stablehlo.dot_general"(%arg0, %arg1) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x6xi32>, tensor<6x3xi32>) -> tensor<4x3xi32>
    %1 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x7xi8>, tensor<7x2xi8>) -> tensor<5x2xi32>
    %2 = "stablehlo.dot_general"(%arg4, %arg5) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<3x4xui8>, tensor<4x2xui8>) -> tensor<3x2xui8>
    %3 = "stablehlo.dot_general"(%arg2, %arg3) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x7xi8>, tensor<7x2xi8>) -> tensor<5x2xi8>
    "func.return"(%0, %1, %2, %3) : (tensor<4x3xi32>, tensor<5x2xi32>, tensor<3x2xui8>, tensor<5x2xi8>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
