"builtin.module"() <{sym_name = "jit_shape_transpose"}> ({
  "func.func"() <{function_type = (tensor<3x5xf32>, tensor<2x3x4xi32>, tensor<2x3x4x5xf32>) -> (tensor<5x3xf32>, tensor<4x2x3xi32>, tensor<3x2x4xi32>, tensor<2x5x3x4xf32>, tensor<5x4x3x2xf32>, tensor<2x5x4x3xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}, {jax.result_info = "result[5]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<3x5xf32>, %arg1: tensor<2x3x4xi32>, %arg2: tensor<2x3x4x5xf32>):
    %0 = "stablehlo.transpose"(%arg0) <{permutation = array<i64: 1, 0>}> : (tensor<3x5xf32>) -> tensor<5x3xf32>
    %1 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 2, 0, 1>}> : (tensor<2x3x4xi32>) -> tensor<4x2x3xi32>
    %2 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 1, 0, 2>}> : (tensor<2x3x4xi32>) -> tensor<3x2x4xi32>
    %3 = "stablehlo.transpose"(%arg2) <{permutation = array<i64: 0, 3, 1, 2>}> : (tensor<2x3x4x5xf32>) -> tensor<2x5x3x4xf32>
    %4 = "stablehlo.transpose"(%arg2) <{permutation = array<i64: 3, 2, 1, 0>}> : (tensor<2x3x4x5xf32>) -> tensor<5x4x3x2xf32>
    %5 = "stablehlo.transpose"(%arg2) <{permutation = array<i64: 0, 3, 2, 1>}> : (tensor<2x3x4x5xf32>) -> tensor<2x5x4x3xf32>
    "func.return"(%0, %1, %2, %3, %4, %5) : (tensor<5x3xf32>, tensor<4x2x3xi32>, tensor<3x2x4xi32>, tensor<2x5x3x4xf32>, tensor<5x4x3x2xf32>, tensor<2x5x4x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
