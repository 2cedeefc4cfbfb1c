module @jit_reduce_int_types attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x9xi8>, %arg1: tensor<3x9xi16>, %arg2: tensor<3x9xi32>, %arg3: tensor<3x9xi64>, %arg4: tensor<3x9xui8>, %arg5: tensor<3x9xui16>, %arg6: tensor<3x9xui32>, %arg7: tensor<3x9xui64>) -> (tensor<4x3xi8> {jax.result_info = "result[0]"}, tensor<4x3xi16> {jax.result_info = "result[1]"}, tensor<4x3xi32> {jax.result_info = "result[2]"}, tensor<4x3xi64> {jax.result_info = "result[3]"}, tensor<4x3xui8> {jax.result_info = "result[4]"}, tensor<4x3xui16> {jax.result_info = "result[5]"}, tensor<4x3xui32> {jax.result_info = "result[6]"}, tensor<4x3xui64> {jax.result_info = "result[7]"}) {
    %c = stablehlo.constant dense<0> : tensor<i8>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<3x9xi8>, tensor<i8>) -> tensor<3xi8>
    %c_0 = stablehlo.constant dense<-128> : tensor<i8>
    %1 = stablehlo.reduce(%arg0 init: %c_0) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xi8>, tensor<i8>) -> tensor<3xi8>
    %c_1 = stablehlo.constant dense<127> : tensor<i8>
    %2 = stablehlo.reduce(%arg0 init: %c_1) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xi8>, tensor<i8>) -> tensor<3xi8>
    %c_2 = stablehlo.constant dense<1> : tensor<i8>
    %3 = stablehlo.reduce(%arg0 init: %c_2) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xi8>, tensor<i8>) -> tensor<3xi8>
    %4 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<3xi8>) -> tensor<1x3xi8>
    %5 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<3xi8>) -> tensor<1x3xi8>
    %6 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<3xi8>) -> tensor<1x3xi8>
    %7 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<3xi8>) -> tensor<1x3xi8>
    %8 = stablehlo.concatenate %4, %5, %6, %7, dim = 0 : (tensor<1x3xi8>, tensor<1x3xi8>, tensor<1x3xi8>, tensor<1x3xi8>) -> tensor<4x3xi8>
    %c_3 = stablehlo.constant dense<0> : tensor<i16>
    %9 = stablehlo.reduce(%arg1 init: %c_3) applies stablehlo.add across dimensions = [1] : (tensor<3x9xi16>, tensor<i16>) -> tensor<3xi16>
    %c_4 = stablehlo.constant dense<-32768> : tensor<i16>
    %10 = stablehlo.reduce(%arg1 init: %c_4) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xi16>, tensor<i16>) -> tensor<3xi16>
    %c_5 = stablehlo.constant dense<32767> : tensor<i16>
    %11 = stablehlo.reduce(%arg1 init: %c_5) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xi16>, tensor<i16>) -> tensor<3xi16>
    %c_6 = stablehlo.constant dense<1> : tensor<i16>
    %12 = stablehlo.reduce(%arg1 init: %c_6) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xi16>, tensor<i16>) -> tensor<3xi16>
    %13 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<3xi16>) -> tensor<1x3xi16>
    %14 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<3xi16>) -> tensor<1x3xi16>
    %15 = stablehlo.broadcast_in_dim %11, dims = [1] : (tensor<3xi16>) -> tensor<1x3xi16>
    %16 = stablehlo.broadcast_in_dim %12, dims = [1] : (tensor<3xi16>) -> tensor<1x3xi16>
    %17 = stablehlo.concatenate %13, %14, %15, %16, dim = 0 : (tensor<1x3xi16>, tensor<1x3xi16>, tensor<1x3xi16>, tensor<1x3xi16>) -> tensor<4x3xi16>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %18 = stablehlo.reduce(%arg2 init: %c_7) applies stablehlo.add across dimensions = [1] : (tensor<3x9xi32>, tensor<i32>) -> tensor<3xi32>
    %c_8 = stablehlo.constant dense<-2147483648> : tensor<i32>
    %19 = stablehlo.reduce(%arg2 init: %c_8) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xi32>, tensor<i32>) -> tensor<3xi32>
    %c_9 = stablehlo.constant dense<2147483647> : tensor<i32>
    %20 = stablehlo.reduce(%arg2 init: %c_9) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xi32>, tensor<i32>) -> tensor<3xi32>
    %c_10 = stablehlo.constant dense<1> : tensor<i32>
    %21 = stablehlo.reduce(%arg2 init: %c_10) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xi32>, tensor<i32>) -> tensor<3xi32>
    %22 = stablehlo.broadcast_in_dim %18, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
    %23 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
    %24 = stablehlo.broadcast_in_dim %20, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
    %25 = stablehlo.broadcast_in_dim %21, dims = [1] : (tensor<3xi32>) -> tensor<1x3xi32>
    %26 = stablehlo.concatenate %22, %23, %24, %25, dim = 0 : (tensor<1x3xi32>, tensor<1x3xi32>, tensor<1x3xi32>, tensor<1x3xi32>) -> tensor<4x3xi32>
    %c_11 = stablehlo.constant dense<0> : tensor<i64>
    %27 = stablehlo.reduce(%arg3 init: %c_11) applies stablehlo.add across dimensions = [1] : (tensor<3x9xi64>, tensor<i64>) -> tensor<3xi64>
    %c_12 = stablehlo.constant dense<-9223372036854775808> : tensor<i64>
    %28 = stablehlo.reduce(%arg3 init: %c_12) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xi64>, tensor<i64>) -> tensor<3xi64>
    %c_13 = stablehlo.constant dense<9223372036854775807> : tensor<i64>
    %29 = stablehlo.reduce(%arg3 init: %c_13) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xi64>, tensor<i64>) -> tensor<3xi64>
    %c_14 = stablehlo.constant dense<1> : tensor<i64>
    %30 = stablehlo.reduce(%arg3 init: %c_14) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xi64>, tensor<i64>) -> tensor<3xi64>
    %31 = stablehlo.broadcast_in_dim %27, dims = [1] : (tensor<3xi64>) -> tensor<1x3xi64>
    %32 = stablehlo.broadcast_in_dim %28, dims = [1] : (tensor<3xi64>) -> tensor<1x3xi64>
    %33 = stablehlo.broadcast_in_dim %29, dims = [1] : (tensor<3xi64>) -> tensor<1x3xi64>
    %34 = stablehlo.broadcast_in_dim %30, dims = [1] : (tensor<3xi64>) -> tensor<1x3xi64>
    %35 = stablehlo.concatenate %31, %32, %33, %34, dim = 0 : (tensor<1x3xi64>, tensor<1x3xi64>, tensor<1x3xi64>, tensor<1x3xi64>) -> tensor<4x3xi64>
    %c_15 = stablehlo.constant dense<0> : tensor<ui8>
    %36 = stablehlo.reduce(%arg4 init: %c_15) applies stablehlo.add across dimensions = [1] : (tensor<3x9xui8>, tensor<ui8>) -> tensor<3xui8>
    %c_16 = stablehlo.constant dense<0> : tensor<ui8>
    %37 = stablehlo.reduce(%arg4 init: %c_16) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xui8>, tensor<ui8>) -> tensor<3xui8>
    %c_17 = stablehlo.constant dense<255> : tensor<ui8>
    %38 = stablehlo.reduce(%arg4 init: %c_17) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xui8>, tensor<ui8>) -> tensor<3xui8>
    %c_18 = stablehlo.constant dense<1> : tensor<ui8>
    %39 = stablehlo.reduce(%arg4 init: %c_18) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xui8>, tensor<ui8>) -> tensor<3xui8>
    %40 = stablehlo.broadcast_in_dim %36, dims = [1] : (tensor<3xui8>) -> tensor<1x3xui8>
    %41 = stablehlo.broadcast_in_dim %37, dims = [1] : (tensor<3xui8>) -> tensor<1x3xui8>
    %42 = stablehlo.broadcast_in_dim %38, dims = [1] : (tensor<3xui8>) -> tensor<1x3xui8>
    %43 = stablehlo.broadcast_in_dim %39, dims = [1] : (tensor<3xui8>) -> tensor<1x3xui8>
    %44 = stablehlo.concatenate %40, %41, %42, %43, dim = 0 : (tensor<1x3xui8>, tensor<1x3xui8>, tensor<1x3xui8>, tensor<1x3xui8>) -> tensor<4x3xui8>
    %c_19 = stablehlo.constant dense<0> : tensor<ui16>
    %45 = stablehlo.reduce(%arg5 init: %c_19) applies stablehlo.add across dimensions = [1] : (tensor<3x9xui16>, tensor<ui16>) -> tensor<3xui16>
    %c_20 = stablehlo.constant dense<0> : tensor<ui16>
    %46 = stablehlo.reduce(%arg5 init: %c_20) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xui16>, tensor<ui16>) -> tensor<3xui16>
    %c_21 = stablehlo.constant dense<65535> : tensor<ui16>
    %47 = stablehlo.reduce(%arg5 init: %c_21) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xui16>, tensor<ui16>) -> tensor<3xui16>
    %c_22 = stablehlo.constant dense<1> : tensor<ui16>
    %48 = stablehlo.reduce(%arg5 init: %c_22) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xui16>, tensor<ui16>) -> tensor<3xui16>
    %49 = stablehlo.broadcast_in_dim %45, dims = [1] : (tensor<3xui16>) -> tensor<1x3xui16>
    %50 = stablehlo.broadcast_in_dim %46, dims = [1] : (tensor<3xui16>) -> tensor<1x3xui16>
    %51 = stablehlo.broadcast_in_dim %47, dims = [1] : (tensor<3xui16>) -> tensor<1x3xui16>
    %52 = stablehlo.broadcast_in_dim %48, dims = [1] : (tensor<3xui16>) -> tensor<1x3xui16>
    %53 = stablehlo.concatenate %49, %50, %51, %52, dim = 0 : (tensor<1x3xui16>, tensor<1x3xui16>, tensor<1x3xui16>, tensor<1x3xui16>) -> tensor<4x3xui16>
    %c_23 = stablehlo.constant dense<0> : tensor<ui32>
    %54 = stablehlo.reduce(%arg6 init: %c_23) applies stablehlo.add across dimensions = [1] : (tensor<3x9xui32>, tensor<ui32>) -> tensor<3xui32>
    %c_24 = stablehlo.constant dense<0> : tensor<ui32>
    %55 = stablehlo.reduce(%arg6 init: %c_24) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xui32>, tensor<ui32>) -> tensor<3xui32>
    %c_25 = stablehlo.constant dense<4294967295> : tensor<ui32>
    %56 = stablehlo.reduce(%arg6 init: %c_25) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xui32>, tensor<ui32>) -> tensor<3xui32>
    %c_26 = stablehlo.constant dense<1> : tensor<ui32>
    %57 = stablehlo.reduce(%arg6 init: %c_26) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xui32>, tensor<ui32>) -> tensor<3xui32>
    %58 = stablehlo.broadcast_in_dim %54, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %59 = stablehlo.broadcast_in_dim %55, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %60 = stablehlo.broadcast_in_dim %56, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %61 = stablehlo.broadcast_in_dim %57, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %62 = stablehlo.concatenate %58, %59, %60, %61, dim = 0 : (tensor<1x3xui32>, tensor<1x3xui32>, tensor<1x3xui32>, tensor<1x3xui32>) -> tensor<4x3xui32>
    %c_27 = stablehlo.constant dense<0> : tensor<ui64>
    %63 = stablehlo.reduce(%arg7 init: %c_27) applies stablehlo.add across dimensions = [1] : (tensor<3x9xui64>, tensor<ui64>) -> tensor<3xui64>
    %c_28 = stablehlo.constant dense<0> : tensor<ui64>
    %64 = stablehlo.reduce(%arg7 init: %c_28) applies stablehlo.maximum across dimensions = [1] : (tensor<3x9xui64>, tensor<ui64>) -> tensor<3xui64>
    %c_29 = stablehlo.constant dense<18446744073709551615> : tensor<ui64>
    %65 = stablehlo.reduce(%arg7 init: %c_29) applies stablehlo.minimum across dimensions = [1] : (tensor<3x9xui64>, tensor<ui64>) -> tensor<3xui64>
    %c_30 = stablehlo.constant dense<1> : tensor<ui64>
    %66 = stablehlo.reduce(%arg7 init: %c_30) applies stablehlo.multiply across dimensions = [1] : (tensor<3x9xui64>, tensor<ui64>) -> tensor<3xui64>
    %67 = stablehlo.broadcast_in_dim %63, dims = [1] : (tensor<3xui64>) -> tensor<1x3xui64>
    %68 = stablehlo.broadcast_in_dim %64, dims = [1] : (tensor<3xui64>) -> tensor<1x3xui64>
    %69 = stablehlo.broadcast_in_dim %65, dims = [1] : (tensor<3xui64>) -> tensor<1x3xui64>
    %70 = stablehlo.broadcast_in_dim %66, dims = [1] : (tensor<3xui64>) -> tensor<1x3xui64>
    %71 = stablehlo.concatenate %67, %68, %69, %70, dim = 0 : (tensor<1x3xui64>, tensor<1x3xui64>, tensor<1x3xui64>, tensor<1x3xui64>) -> tensor<4x3xui64>
    return %8, %17, %26, %35, %44, %53, %62, %71 : tensor<4x3xi8>, tensor<4x3xi16>, tensor<4x3xi32>, tensor<4x3xi64>, tensor<4x3xui8>, tensor<4x3xui16>, tensor<4x3xui32>, tensor<4x3xui64>
  }
}
