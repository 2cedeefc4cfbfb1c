module @jit_dynamic_slice_update attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x8xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<8xf32>, %arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<i32>, %arg8: tensor<i32>, %arg9: tensor<i32>) -> (tensor<3x4xf32> {jax.result_info = "result[0]"}, tensor<3x4xf32> {jax.result_info = "result[1]"}, tensor<2x2xf32> {jax.result_info = "result[2]"}, tensor<8xf32> {jax.result_info = "result[3]"}, tensor<6x2xf32> {jax.result_info = "result[4]"}, tensor<6x8xf32> {jax.result_info = "result[5]"}, tensor<6x8xf32> {jax.result_info = "result[6]"}, tensor<6x8xf32> {jax.result_info = "result[7]"}, tensor<6x8xf32> {jax.result_info = "result[8]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare LT, %arg3, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %1 = stablehlo.add %arg3, %c_0 : tensor<i32>
    %2 = stablehlo.select %0, %1, %arg3 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.compare LT, %arg4, %c_1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %4 = stablehlo.add %arg4, %c_2 : tensor<i32>
    %5 = stablehlo.select %3, %4, %arg4 : tensor<i1>, tensor<i32>
    %6 = stablehlo.dynamic_slice %arg0, %2, %5, sizes = [3, 4] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.compare LT, %arg5, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_4 = stablehlo.constant dense<6> : tensor<i32>
    %8 = stablehlo.add %arg5, %c_4 : tensor<i32>
    %9 = stablehlo.select %7, %8, %arg5 : tensor<i1>, tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.compare LT, %arg6, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_6 = stablehlo.constant dense<8> : tensor<i32>
    %11 = stablehlo.add %arg6, %c_6 : tensor<i32>
    %12 = stablehlo.select %10, %11, %arg6 : tensor<i1>, tensor<i32>
    %13 = stablehlo.dynamic_slice %arg0, %9, %12, sizes = [3, 4] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %14 = stablehlo.compare LT, %arg7, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_8 = stablehlo.constant dense<6> : tensor<i32>
    %15 = stablehlo.add %arg7, %c_8 : tensor<i32>
    %16 = stablehlo.select %14, %15, %arg7 : tensor<i1>, tensor<i32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %17 = stablehlo.compare LT, %arg8, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_10 = stablehlo.constant dense<8> : tensor<i32>
    %18 = stablehlo.add %arg8, %c_10 : tensor<i32>
    %19 = stablehlo.select %17, %18, %arg8 : tensor<i1>, tensor<i32>
    %20 = stablehlo.dynamic_slice %arg0, %16, %19, sizes = [2, 2] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x2xf32>
    %c_11 = stablehlo.constant dense<0> : tensor<i32>
    %21 = stablehlo.compare LT, %arg9, %c_11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_12 = stablehlo.constant dense<6> : tensor<i32>
    %22 = stablehlo.add %arg9, %c_12 : tensor<i32>
    %23 = stablehlo.select %21, %22, %arg9 : tensor<i1>, tensor<i32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %24 = stablehlo.compare LT, %c_13, %c_14, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %c_16 = stablehlo.constant dense<8> : tensor<i32>
    %25 = stablehlo.add %c_15, %c_16 : tensor<i32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.select %24, %25, %c_17 : tensor<i1>, tensor<i32>
    %27 = stablehlo.dynamic_slice %arg0, %23, %26, sizes = [1, 8] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<1x8xf32>
    %28 = stablehlo.reshape %27 : (tensor<1x8xf32>) -> tensor<8xf32>
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.compare LT, %arg9, %c_18, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_19 = stablehlo.constant dense<8> : tensor<i32>
    %30 = stablehlo.add %arg9, %c_19 : tensor<i32>
    %31 = stablehlo.select %29, %30, %arg9 : tensor<i1>, tensor<i32>
    %c_20 = stablehlo.constant dense<0> : tensor<i32>
    %32 = stablehlo.dynamic_slice %arg0, %c_20, %31, sizes = [6, 2] : (tensor<6x8xf32>, tensor<i32>, tensor<i32>) -> tensor<6x2xf32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %33 = stablehlo.compare LT, %arg3, %c_21, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_22 = stablehlo.constant dense<6> : tensor<i32>
    %34 = stablehlo.add %arg3, %c_22 : tensor<i32>
    %35 = stablehlo.select %33, %34, %arg3 : tensor<i1>, tensor<i32>
    %c_23 = stablehlo.constant dense<0> : tensor<i32>
    %36 = stablehlo.compare LT, %arg4, %c_23, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_24 = stablehlo.constant dense<8> : tensor<i32>
    %37 = stablehlo.add %arg4, %c_24 : tensor<i32>
    %38 = stablehlo.select %36, %37, %arg4 : tensor<i1>, tensor<i32>
    %39 = stablehlo.dynamic_update_slice %arg0, %arg1, %35, %38 : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
    %c_25 = stablehlo.constant dense<0> : tensor<i32>
    %40 = stablehlo.compare LT, %arg5, %c_25, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_26 = stablehlo.constant dense<6> : tensor<i32>
    %41 = stablehlo.add %arg5, %c_26 : tensor<i32>
    %42 = stablehlo.select %40, %41, %arg5 : tensor<i1>, tensor<i32>
    %c_27 = stablehlo.constant dense<0> : tensor<i32>
    %43 = stablehlo.compare LT, %arg6, %c_27, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_28 = stablehlo.constant dense<8> : tensor<i32>
    %44 = stablehlo.add %arg6, %c_28 : tensor<i32>
    %45 = stablehlo.select %43, %44, %arg6 : tensor<i1>, tensor<i32>
    %46 = stablehlo.dynamic_update_slice %arg0, %arg1, %42, %45 : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
    %c_29 = stablehlo.constant dense<0> : tensor<i32>
    %47 = stablehlo.compare LT, %arg7, %c_29, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_30 = stablehlo.constant dense<6> : tensor<i32>
    %48 = stablehlo.add %arg7, %c_30 : tensor<i32>
    %49 = stablehlo.select %47, %48, %arg7 : tensor<i1>, tensor<i32>
    %c_31 = stablehlo.constant dense<0> : tensor<i32>
    %50 = stablehlo.compare LT, %arg8, %c_31, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_32 = stablehlo.constant dense<8> : tensor<i32>
    %51 = stablehlo.add %arg8, %c_32 : tensor<i32>
    %52 = stablehlo.select %50, %51, %arg8 : tensor<i1>, tensor<i32>
    %53 = stablehlo.dynamic_update_slice %arg0, %arg1, %49, %52 : (tensor<6x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
    %54 = call @dynamic_update_index_in_dim(%arg0, %arg2, %arg9) : (tensor<6x8xf32>, tensor<8xf32>, tensor<i32>) -> tensor<6x8xf32>
    return %6, %13, %20, %28, %32, %39, %46, %53, %54 : tensor<3x4xf32>, tensor<3x4xf32>, tensor<2x2xf32>, tensor<8xf32>, tensor<6x2xf32>, tensor<6x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>, tensor<6x8xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<6x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<i32>) -> tensor<6x8xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %2 = stablehlo.add %arg2, %c_0 : tensor<i32>
    %3 = stablehlo.select %1, %2, %arg2 : tensor<i1>, tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.dynamic_update_slice %arg0, %0, %3, %c_1 : (tensor<6x8xf32>, tensor<1x8xf32>, tensor<i32>, tensor<i32>) -> tensor<6x8xf32>
    return %4 : tensor<6x8xf32>
  }
}
