module @jit_elementwise_integer_pow attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<24xf32>, %arg1: tensor<24xi32>, %arg2: tensor<24xi32>, %arg3: tensor<24xf32>) -> (tensor<24xf32> {jax.result_info = "result[0]"}, tensor<24xf32> {jax.result_info = "result[1]"}, tensor<24xf32> {jax.result_info = "result[2]"}, tensor<24xf32> {jax.result_info = "result[3]"}, tensor<24xf32> {jax.result_info = "result[4]"}, tensor<24xf32> {jax.result_info = "result[5]"}, tensor<24xi32> {jax.result_info = "result[6]"}, tensor<24xi32> {jax.result_info = "result[7]"}, tensor<24xi32> {jax.result_info = "result[8]"}, tensor<24xi32> {jax.result_info = "result[9]"}, tensor<24xf32> {jax.result_info = "result[10]"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<24xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<24xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %3 = stablehlo.divide %2, %1 : tensor<24xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %5 = stablehlo.divide %4, %arg0 : tensor<24xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %7 = stablehlo.multiply %arg0, %arg0 : tensor<24xf32>
    %8 = stablehlo.multiply %arg0, %arg0 : tensor<24xf32>
    %9 = stablehlo.multiply %8, %8 : tensor<24xf32>
    %10 = stablehlo.multiply %arg0, %9 : tensor<24xf32>
    %11 = stablehlo.multiply %arg0, %arg0 : tensor<24xf32>
    %12 = stablehlo.multiply %arg1, %arg1 : tensor<24xi32>
    %13 = stablehlo.multiply %arg1, %arg1 : tensor<24xi32>
    %14 = stablehlo.multiply %arg1, %13 : tensor<24xi32>
    %15 = stablehlo.multiply %13, %13 : tensor<24xi32>
    %16 = stablehlo.multiply %14, %15 : tensor<24xi32>
    %17 = stablehlo.multiply %arg1, %arg1 : tensor<24xi32>
    %18 = stablehlo.multiply %17, %17 : tensor<24xi32>
    %19 = stablehlo.multiply %18, %18 : tensor<24xi32>
    %20 = stablehlo.multiply %18, %19 : tensor<24xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %22 = stablehlo.compare EQ, %arg1, %21, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %23 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %24 = stablehlo.compare NE, %arg2, %23, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %25 = stablehlo.and %22, %24 : tensor<24xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %26 = call @_where(%25, %c_3, %c_4) : (tensor<24xi1>, tensor<i32>, tensor<i32>) -> tensor<24xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %28 = stablehlo.and %arg2, %27 : tensor<24xi32>
    %29 = stablehlo.multiply %26, %arg1 : tensor<24xi32>
    %30 = call @_where_0(%28, %29, %26) : (tensor<24xi32>, tensor<24xi32>, tensor<24xi32>) -> tensor<24xi32>
    %31 = stablehlo.multiply %arg1, %arg1 : tensor<24xi32>
    %c_6 = stablehlo.constant dense<1> : tensor<i32>
    %32 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %33 = stablehlo.shift_right_logical %arg2, %32 : tensor<24xi32>
    %c_7 = stablehlo.constant dense<1> : tensor<i32>
    %34 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %35 = stablehlo.and %33, %34 : tensor<24xi32>
    %36 = stablehlo.multiply %30, %31 : tensor<24xi32>
    %37 = call @_where_0(%35, %36, %30) : (tensor<24xi32>, tensor<24xi32>, tensor<24xi32>) -> tensor<24xi32>
    %38 = stablehlo.multiply %31, %31 : tensor<24xi32>
    %c_8 = stablehlo.constant dense<1> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %40 = stablehlo.shift_right_logical %33, %39 : tensor<24xi32>
    %c_9 = stablehlo.constant dense<1> : tensor<i32>
    %41 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %42 = stablehlo.and %40, %41 : tensor<24xi32>
    %43 = stablehlo.multiply %37, %38 : tensor<24xi32>
    %44 = call @_where_0(%42, %43, %37) : (tensor<24xi32>, tensor<24xi32>, tensor<24xi32>) -> tensor<24xi32>
    %45 = stablehlo.multiply %38, %38 : tensor<24xi32>
    %c_10 = stablehlo.constant dense<1> : tensor<i32>
    %46 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %47 = stablehlo.shift_right_logical %40, %46 : tensor<24xi32>
    %c_11 = stablehlo.constant dense<1> : tensor<i32>
    %48 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %49 = stablehlo.and %47, %48 : tensor<24xi32>
    %50 = stablehlo.multiply %44, %45 : tensor<24xi32>
    %51 = call @_where_0(%49, %50, %44) : (tensor<24xi32>, tensor<24xi32>, tensor<24xi32>) -> tensor<24xi32>
    %52 = stablehlo.multiply %45, %45 : tensor<24xi32>
    %c_12 = stablehlo.constant dense<1> : tensor<i32>
    %53 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %54 = stablehlo.shift_right_logical %47, %53 : tensor<24xi32>
    %c_13 = stablehlo.constant dense<1> : tensor<i32>
    %55 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %56 = stablehlo.and %54, %55 : tensor<24xi32>
    %57 = stablehlo.multiply %51, %52 : tensor<24xi32>
    %58 = call @_where_0(%56, %57, %51) : (tensor<24xi32>, tensor<24xi32>, tensor<24xi32>) -> tensor<24xi32>
    %59 = stablehlo.multiply %52, %52 : tensor<24xi32>
    %c_14 = stablehlo.constant dense<1> : tensor<i32>
    %60 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %61 = stablehlo.shift_right_logical %54, %60 : tensor<24xi32>
    %c_15 = stablehlo.constant dense<1> : tensor<i32>
    %62 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %63 = stablehlo.and %61, %62 : tensor<24xi32>
    %64 = stablehlo.multiply %58, %59 : tensor<24xi32>
    %65 = call @_where_0(%63, %64, %58) : (tensor<24xi32>, tensor<24xi32>, tensor<24xi32>) -> tensor<24xi32>
    %66 = stablehlo.multiply %59, %59 : tensor<24xi32>
    %c_16 = stablehlo.constant dense<1> : tensor<i32>
    %67 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %68 = stablehlo.shift_right_logical %61, %67 : tensor<24xi32>
    %69 = stablehlo.power %arg0, %arg3 : tensor<24xf32>
    return %3, %5, %6, %7, %10, %11, %12, %16, %20, %65, %69 : tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xf32>, tensor<24xi32>, tensor<24xi32>, tensor<24xi32>, tensor<24xi32>, tensor<24xf32>
  }
  func.func private @_where(%arg0: tensor<24xi1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<24xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %2 = stablehlo.select %arg0, %0, %1 : tensor<24xi1>, tensor<24xi32>
    return %2 : tensor<24xi32>
  }
  func.func private @_where_0(%arg0: tensor<24xi32>, %arg1: tensor<24xi32>, %arg2: tensor<24xi32>) -> tensor<24xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %1 = stablehlo.compare NE, %arg0, %0, SIGNED : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %2 = stablehlo.select %1, %arg1, %arg2 : tensor<24xi1>, tensor<24xi32>
    return %2 : tensor<24xi32>
  }
}
