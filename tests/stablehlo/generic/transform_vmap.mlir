"builtin.module"() <{sym_name = "jit_transform_vmap"}> ({
  "func.func"() <{function_type = (tensor<8x5xf32>, tensor<3x5xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x5xf32>, %arg1: tensor<3x5xf32>):
    %0 = "stablehlo.dot_general"(%arg1, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<3x5xf32>, tensor<8x5xf32>) -> tensor<3x8xf32>
    %1 = "stablehlo.tanh"(%0) : (tensor<3x8xf32>) -> tensor<3x8xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.reduce"(%1, %2) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %7 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<3x8xf32>, tensor<f32>) -> tensor<8xf32>
    %4 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 8, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<8x5xf32>) -> tensor<8x1xf32>
    %5 = "stablehlo.reshape"(%4) : (tensor<8x1xf32>) -> tensor<8xf32>
    %6 = "stablehlo.add"(%3, %5) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%6) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
