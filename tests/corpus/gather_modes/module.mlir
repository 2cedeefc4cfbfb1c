module @jit_gather_modes attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<9xi32>, %arg2: tensor<5xi32>) -> (tensor<9xf32> {jax.result_info = "result[0]"}, tensor<9xf32> {jax.result_info = "result[1]"}, tensor<9xf32> {jax.result_info = "result[2]"}, tensor<9xf32> {jax.result_info = "result[3]"}, tensor<9xi32> {jax.result_info = "result[4]"}) {
    %0 = call @_take(%arg0, %arg1) : (tensor<8xf32>, tensor<9xi32>) -> tensor<9xf32>
    %1 = call @_take_0(%arg0, %arg1) : (tensor<8xf32>, tensor<9xi32>) -> tensor<9xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %3 = stablehlo.compare LT, %arg1, %2, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %5 = stablehlo.add %arg1, %4 : tensor<9xi32>
    %6 = stablehlo.select %3, %5, %arg1 : tensor<9xi1>, tensor<9xi32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %8 = "stablehlo.gather"(%arg0, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<8xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %10 = stablehlo.compare LT, %arg1, %9, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %12 = stablehlo.add %arg1, %11 : tensor<9xi32>
    %13 = stablehlo.select %10, %12, %arg1 : tensor<9xi1>, tensor<9xi32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %c_3 = stablehlo.constant dense<7> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<9x1xi32>
    %16 = stablehlo.compare GE, %14, %15, SIGNED : (tensor<9x1xi32>, tensor<9x1xi32>) -> tensor<9x1xi1>
    %17 = stablehlo.broadcast_in_dim %c_3, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<9x1xi32>
    %19 = stablehlo.compare LE, %14, %18, SIGNED : (tensor<9x1xi32>, tensor<9x1xi32>) -> tensor<9x1xi1>
    %20 = stablehlo.and %16, %19 : tensor<9x1xi1>
    %c_5 = stablehlo.constant dense<true> : tensor<i1>
    %21 = stablehlo.reduce(%20 init: %c_5) applies stablehlo.and across dimensions = [1] : (tensor<9x1xi1>, tensor<i1>) -> tensor<9xi1>
    %22 = "stablehlo.gather"(%arg0, %14) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<8xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %cst = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %24 = stablehlo.select %21, %22, %23 : tensor<9xi1>, tensor<9xf32>
    %c_6 = stablehlo.constant dense<20> : tensor<i64>
    %25 = call @remainder(%arg1, %c_6) : (tensor<9xi32>, tensor<i64>) -> tensor<9xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %27 = stablehlo.compare LT, %25, %26, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_8 = stablehlo.constant dense<5> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %29 = stablehlo.add %25, %28 : tensor<9xi32>
    %30 = stablehlo.select %27, %29, %25 : tensor<9xi1>, tensor<9xi32>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %32 = "stablehlo.gather"(%arg2, %31) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<5xi32>, tensor<9x1xi32>) -> tensor<9xi32>
    return %0, %1, %8, %24, %32 : tensor<9xf32>, tensor<9xf32>, tensor<9xf32>, tensor<9xf32>, tensor<9xi32>
  }
  func.func private @_take(%arg0: tensor<8xf32>, %arg1: tensor<9xi32>) -> tensor<9xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_0 = stablehlo.constant dense<8> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<9xi32>
    %4 = call @_where(%1, %3, %arg1) : (tensor<9xi1>, tensor<9xi32>, tensor<9xi32>) -> tensor<9xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %c_1 = stablehlo.constant dense<7> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<9x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<9x1xi32>, tensor<9x1xi32>) -> tensor<9x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [1] : (tensor<1xi32>) -> tensor<1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi32>) -> tensor<9x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<9x1xi32>, tensor<9x1xi32>) -> tensor<9x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<9x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [1] : (tensor<9x1xi1>, tensor<i1>) -> tensor<9xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<8xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<9xi1>, tensor<9xf32>
    return %15 : tensor<9xf32>
  }
  func.func private @_where(%arg0: tensor<9xi1>, %arg1: tensor<9xi32>, %arg2: tensor<9xi32>) -> tensor<9xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<9xi1>, tensor<9xi32>
    return %0 : tensor<9xi32>
  }
  func.func private @_take_0(%arg0: tensor<8xf32>, %arg1: tensor<9xi32>) -> tensor<9xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %1 = "stablehlo.gather"(%arg0, %0) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<8xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    return %1 : tensor<9xf32>
  }
  func.func private @remainder(%arg0: tensor<9xi32>, %arg1: tensor<i64>) -> tensor<9xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where_1(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<9xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<9xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<9xi1>, tensor<9xi1>) -> tensor<9xi1>
    %12 = stablehlo.and %11, %6 : tensor<9xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %14 = stablehlo.add %4, %13 : tensor<9xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<9xi1>, tensor<9xi32>
    return %15 : tensor<9xi32>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
