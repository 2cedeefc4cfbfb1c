module @jit_scatter_oob attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<5xi32>, %arg2: tensor<5xf32>, %arg3: tensor<3xi32>, %arg4: tensor<3xf32>) -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<6xf32> {jax.result_info = "result[2]"}, tensor<6xf32> {jax.result_info = "result[3]"}, tensor<6xf32> {jax.result_info = "result[4]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<5xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<5xi1>, tensor<5xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %6 = "stablehlo.scatter"(%arg0, %5, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %45 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %45 : tensor<f32>
    }) : (tensor<6xf32>, tensor<5x1xi32>, tensor<5xf32>) -> tensor<6xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %8 = stablehlo.compare LT, %arg1, %7, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_2 = stablehlo.constant dense<6> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %10 = stablehlo.add %arg1, %9 : tensor<5xi32>
    %11 = stablehlo.select %8, %10, %arg1 : tensor<5xi1>, tensor<5xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %13 = "stablehlo.scatter"(%arg0, %12, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %45 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %45 : tensor<f32>
    }) : (tensor<6xf32>, tensor<5x1xi32>, tensor<5xf32>) -> tensor<6xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %15 = stablehlo.compare LT, %arg3, %14, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %17 = stablehlo.add %arg3, %16 : tensor<3xi32>
    %18 = stablehlo.select %15, %17, %arg3 : tensor<3xi1>, tensor<3xi32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_5 = stablehlo.constant dense<5> : tensor<1xi32>
    %c_6 = stablehlo.constant dense<2147483647> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %21 = stablehlo.minimum %c_5, %20 : tensor<1xi32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [1] : (tensor<1xi32>) -> tensor<3x1xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %24 = stablehlo.clamp %23, %19, %22 : tensor<3x1xi32>
    %25 = "stablehlo.scatter"(%arg0, %24, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      stablehlo.return %arg6 : tensor<f32>
    }) : (tensor<6xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<6xf32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %27 = stablehlo.compare LT, %arg3, %26, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_9 = stablehlo.constant dense<6> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %29 = stablehlo.add %arg3, %28 : tensor<3xi32>
    %30 = stablehlo.select %27, %29, %arg3 : tensor<3xi1>, tensor<3xi32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_10 = stablehlo.constant dense<5> : tensor<1xi32>
    %c_11 = stablehlo.constant dense<2147483647> : tensor<i32>
    %32 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %33 = stablehlo.minimum %c_10, %32 : tensor<1xi32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [1] : (tensor<1xi32>) -> tensor<3x1xi32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %35 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %36 = stablehlo.clamp %35, %31, %34 : tensor<3x1xi32>
    %37 = "stablehlo.scatter"(%arg0, %36, %arg4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %45 = stablehlo.add %arg5, %arg6 : tensor<f32>
      stablehlo.return %45 : tensor<f32>
    }) : (tensor<6xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<6xf32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %38 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %39 = stablehlo.compare LT, %arg1, %38, SIGNED : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi1>
    %c_14 = stablehlo.constant dense<6> : tensor<i32>
    %40 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<5xi32>
    %41 = stablehlo.add %arg1, %40 : tensor<5xi32>
    %42 = stablehlo.select %39, %41, %arg1 : tensor<5xi1>, tensor<5xi32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %44 = "stablehlo.scatter"(%arg0, %43, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      stablehlo.return %arg6 : tensor<f32>
    }) : (tensor<6xf32>, tensor<5x1xi32>, tensor<5xf32>) -> tensor<6xf32>
    return %6, %13, %25, %37, %44 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  }
}
