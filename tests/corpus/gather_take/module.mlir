module @jit_gather_take attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x4xf32>, %arg1: tensor<6xi32>, %arg2: tensor<3xi32>, %arg3: tensor<3xi32>, %arg4: tensor<2x3xi32>, %arg5: tensor<10x2xi32>) -> (tensor<6x4xf32> {jax.result_info = "result[0]"}, tensor<10x3xf32> {jax.result_info = "result[1]"}, tensor<3xf32> {jax.result_info = "result[2]"}, tensor<6x2xf32> {jax.result_info = "result[3]"}, tensor<2x3x4xf32> {jax.result_info = "result[4]"}, tensor<2x3xf32> {jax.result_info = "result[5]"}, tensor<10x2xf32> {jax.result_info = "result[6]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<6xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<6xi1>, tensor<6xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<10x4xf32>, tensor<6x1xi32>) -> tensor<6x4xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %8 = stablehlo.compare LT, %arg2, %7, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<4> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %10 = stablehlo.add %arg2, %9 : tensor<3xi32>
    %11 = stablehlo.select %8, %10, %arg2 : tensor<3xi1>, tensor<3xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %13 = "stablehlo.gather"(%arg0, %12) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 10, 1>}> : (tensor<10x4xf32>, tensor<3x1xi32>) -> tensor<10x3xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %15 = stablehlo.compare LT, %arg2, %14, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_4 = stablehlo.constant dense<10> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %17 = stablehlo.add %arg2, %16 : tensor<3xi32>
    %18 = stablehlo.select %15, %17, %arg2 : tensor<3xi1>, tensor<3xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %20 = stablehlo.compare LT, %arg3, %19, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_6 = stablehlo.constant dense<4> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %22 = stablehlo.add %arg3, %21 : tensor<3xi32>
    %23 = stablehlo.select %20, %22, %arg3 : tensor<3xi1>, tensor<3xi32>
    %24 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %25 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %26 = stablehlo.concatenate %24, %25, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %27 = "stablehlo.gather"(%arg0, %26) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<10x4xf32>, tensor<3x2xi32>) -> tensor<3xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %29 = stablehlo.compare LT, %arg1, %28, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_8 = stablehlo.constant dense<10> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %31 = stablehlo.add %arg1, %30 : tensor<6xi32>
    %32 = stablehlo.select %29, %31, %arg1 : tensor<6xi1>, tensor<6xi32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %c_9 = stablehlo.constant dense<1> : tensor<i32>
    %34 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<6x1xi32>
    %35 = stablehlo.concatenate %33, %34, dim = 1 : (tensor<6x1xi32>, tensor<6x1xi32>) -> tensor<6x2xi32>
    %36 = "stablehlo.gather"(%arg0, %35) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 2>}> : (tensor<10x4xf32>, tensor<6x2xi32>) -> tensor<6x2xf32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %37 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %38 = stablehlo.compare LT, %arg4, %37, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %c_11 = stablehlo.constant dense<10> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %40 = stablehlo.add %arg4, %39 : tensor<2x3xi32>
    %41 = stablehlo.select %38, %40, %arg4 : tensor<2x3xi1>, tensor<2x3xi32>
    %42 = stablehlo.broadcast_in_dim %41, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
    %43 = "stablehlo.gather"(%arg0, %42) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<10x4xf32>, tensor<2x3x1xi32>) -> tensor<2x3x4xf32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %44 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %45 = stablehlo.compare LT, %arg4, %44, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %c_13 = stablehlo.constant dense<10> : tensor<i32>
    %46 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %47 = stablehlo.add %arg4, %46 : tensor<2x3xi32>
    %48 = stablehlo.select %45, %47, %arg4 : tensor<2x3xi1>, tensor<2x3xi32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %49 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %50 = stablehlo.compare LT, %arg4, %49, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %c_15 = stablehlo.constant dense<4> : tensor<i32>
    %51 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %52 = stablehlo.add %arg4, %51 : tensor<2x3xi32>
    %53 = stablehlo.select %50, %52, %arg4 : tensor<2x3xi1>, tensor<2x3xi32>
    %54 = stablehlo.broadcast_in_dim %48, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
    %55 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
    %56 = stablehlo.concatenate %54, %55, dim = 2 : (tensor<2x3x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x2xi32>
    %57 = "stablehlo.gather"(%arg0, %56) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<10x4xf32>, tensor<2x3x2xi32>) -> tensor<2x3xf32>
    %58 = call @take_along_axis(%arg0, %arg5) : (tensor<10x4xf32>, tensor<10x2xi32>) -> tensor<10x2xf32>
    return %6, %13, %27, %36, %43, %57, %58 : tensor<6x4xf32>, tensor<10x3xf32>, tensor<3xf32>, tensor<6x2xf32>, tensor<2x3x4xf32>, tensor<2x3xf32>, tensor<10x2xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<10x4xf32>, %arg1: tensor<10x2xi32>) -> tensor<10x2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<10x2xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<10x2xi32>, tensor<10x2xi32>) -> tensor<10x2xi1>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<10x2xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<10x2xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<10x2xi1>, tensor<10x2xi32>
    %5 = stablehlo.reshape %4 : (tensor<10x2xi32>) -> tensor<10x2x1xi32>
    %c_1 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<10x2x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<10x2x1xi32>, tensor<10x2x1xi32>) -> tensor<10x2x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<10x2x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<10x2x1xi32>, tensor<10x2x1xi32>) -> tensor<10x2x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<10x2x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<10x2x1xi1>, tensor<i1>) -> tensor<10x2xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<10x4xf32>, tensor<10x2x1xi32>) -> tensor<10x2xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10x2xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<10x2xi1>, tensor<10x2xf32>
    return %15 : tensor<10x2xf32>
  }
}
