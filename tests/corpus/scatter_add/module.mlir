module @jit_scatter_add attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<6xi32>, %arg2: tensor<6xf32>, %arg3: tensor<3x8xf32>, %arg4: tensor<3x3xf32>, %arg5: tensor<7xi32>, %arg6: tensor<7x2xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<3x8xf32> {jax.result_info = "result[1]"}, tensor<4x2xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<6xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<6xi1>, tensor<6xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %6 = "stablehlo.scatter"(%arg0, %5, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %18 = stablehlo.add %arg7, %arg8 : tensor<f32>
      stablehlo.return %18 : tensor<f32>
    }) : (tensor<8xf32>, tensor<6x1xi32>, tensor<6xf32>) -> tensor<8xf32>
    %7 = stablehlo.slice %arg1 [0:3] : (tensor<6xi32>) -> tensor<3xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %9 = stablehlo.compare LT, %7, %8, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %11 = stablehlo.add %7, %10 : tensor<3xi32>
    %12 = stablehlo.select %9, %11, %7 : tensor<3xi1>, tensor<3xi32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %14 = "stablehlo.scatter"(%arg3, %13, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %18 = stablehlo.add %arg7, %arg8 : tensor<f32>
      stablehlo.return %18 : tensor<f32>
    }) : (tensor<3x8xf32>, tensor<3x1xi32>, tensor<3x3xf32>) -> tensor<3x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %16 = stablehlo.broadcast_in_dim %arg5, dims = [0] : (tensor<7xi32>) -> tensor<7x1xi32>
    %17 = "stablehlo.scatter"(%15, %16, %arg6) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %18 = stablehlo.add %arg7, %arg8 : tensor<f32>
      stablehlo.return %18 : tensor<f32>
    }) : (tensor<4x2xf32>, tensor<7x1xi32>, tensor<7x2xf32>) -> tensor<4x2xf32>
    return %6, %14, %17 : tensor<8xf32>, tensor<3x8xf32>, tensor<4x2xf32>
  }
}
