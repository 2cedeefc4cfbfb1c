module @jit_elementwise_int64_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<144xi64>, %arg1: tensor<144xi64>, %arg2: tensor<45xi64>, %arg3: tensor<45xi64>, %arg4: tensor<100xui64>, %arg5: tensor<100xui64>, %arg6: tensor<40xui64>, %arg7: tensor<40xui64>) -> (tensor<19x144xi64> {jax.result_info = "result[0]"}, tensor<3x144xi1> {jax.result_info = "result[1]"}, tensor<3x45xi64> {jax.result_info = "result[2]"}, tensor<17x100xui64> {jax.result_info = "result[3]"}, tensor<3x100xi1> {jax.result_info = "result[4]"}, tensor<3x40xui64> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<144xi64>
    %1 = stablehlo.subtract %arg0, %arg1 : tensor<144xi64>
    %2 = stablehlo.multiply %arg0, %arg1 : tensor<144xi64>
    %3 = stablehlo.divide %arg0, %arg1 : tensor<144xi64>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<144xi64>
    %5 = stablehlo.maximum %arg0, %arg1 : tensor<144xi64>
    %6 = stablehlo.minimum %arg0, %arg1 : tensor<144xi64>
    %7 = stablehlo.and %arg0, %arg1 : tensor<144xi64>
    %8 = stablehlo.or %arg0, %arg1 : tensor<144xi64>
    %9 = stablehlo.xor %arg0, %arg1 : tensor<144xi64>
    %10 = stablehlo.not %arg0 : tensor<144xi64>
    %11 = stablehlo.negate %arg0 : tensor<144xi64>
    %12 = stablehlo.popcnt %arg0 : tensor<144xi64>
    %13 = stablehlo.count_leading_zeros %arg0 : tensor<144xi64>
    %14 = stablehlo.abs %arg0 : tensor<144xi64>
    %15 = stablehlo.sign %arg0 : tensor<144xi64>
    %16 = call @floor_divide(%arg0, %arg1) : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi64>
    %17 = call @remainder(%arg0, %arg1) : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi64>
    %18 = stablehlo.multiply %arg0, %arg0 : tensor<144xi64>
    %19 = stablehlo.multiply %18, %arg0 : tensor<144xi64>
    %20 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %21 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %22 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %23 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %24 = stablehlo.broadcast_in_dim %4, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %25 = stablehlo.broadcast_in_dim %5, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %26 = stablehlo.broadcast_in_dim %6, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %27 = stablehlo.broadcast_in_dim %7, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %28 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %29 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %30 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %31 = stablehlo.broadcast_in_dim %11, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %32 = stablehlo.broadcast_in_dim %12, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %33 = stablehlo.broadcast_in_dim %13, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %34 = stablehlo.broadcast_in_dim %14, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %35 = stablehlo.broadcast_in_dim %15, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %36 = stablehlo.broadcast_in_dim %16, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %37 = stablehlo.broadcast_in_dim %17, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %38 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<144xi64>) -> tensor<1x144xi64>
    %39 = stablehlo.concatenate %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, dim = 0 : (tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>) -> tensor<16x144xi64>
    %40 = stablehlo.concatenate %36, %37, %38, dim = 0 : (tensor<1x144xi64>, tensor<1x144xi64>, tensor<1x144xi64>) -> tensor<3x144xi64>
    %41 = stablehlo.concatenate %39, %40, dim = 0 : (tensor<16x144xi64>, tensor<3x144xi64>) -> tensor<19x144xi64>
    %42 = stablehlo.compare LT, %arg0, %arg1, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %43 = stablehlo.compare EQ, %arg0, %arg1, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %44 = stablehlo.compare GE, %arg0, %arg1, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %45 = stablehlo.broadcast_in_dim %42, dims = [1] : (tensor<144xi1>) -> tensor<1x144xi1>
    %46 = stablehlo.broadcast_in_dim %43, dims = [1] : (tensor<144xi1>) -> tensor<1x144xi1>
    %47 = stablehlo.broadcast_in_dim %44, dims = [1] : (tensor<144xi1>) -> tensor<1x144xi1>
    %48 = stablehlo.concatenate %45, %46, %47, dim = 0 : (tensor<1x144xi1>, tensor<1x144xi1>, tensor<1x144xi1>) -> tensor<3x144xi1>
    %49 = stablehlo.shift_left %arg2, %arg3 : tensor<45xi64>
    %50 = stablehlo.shift_right_arithmetic %arg2, %arg3 : tensor<45xi64>
    %51 = stablehlo.shift_right_logical %arg2, %arg3 : tensor<45xi64>
    %52 = stablehlo.broadcast_in_dim %49, dims = [1] : (tensor<45xi64>) -> tensor<1x45xi64>
    %53 = stablehlo.broadcast_in_dim %50, dims = [1] : (tensor<45xi64>) -> tensor<1x45xi64>
    %54 = stablehlo.broadcast_in_dim %51, dims = [1] : (tensor<45xi64>) -> tensor<1x45xi64>
    %55 = stablehlo.concatenate %52, %53, %54, dim = 0 : (tensor<1x45xi64>, tensor<1x45xi64>, tensor<1x45xi64>) -> tensor<3x45xi64>
    %56 = stablehlo.add %arg4, %arg5 : tensor<100xui64>
    %57 = stablehlo.subtract %arg4, %arg5 : tensor<100xui64>
    %58 = stablehlo.multiply %arg4, %arg5 : tensor<100xui64>
    %59 = stablehlo.divide %arg4, %arg5 : tensor<100xui64>
    %60 = stablehlo.remainder %arg4, %arg5 : tensor<100xui64>
    %61 = stablehlo.maximum %arg4, %arg5 : tensor<100xui64>
    %62 = stablehlo.minimum %arg4, %arg5 : tensor<100xui64>
    %63 = stablehlo.and %arg4, %arg5 : tensor<100xui64>
    %64 = stablehlo.or %arg4, %arg5 : tensor<100xui64>
    %65 = stablehlo.xor %arg4, %arg5 : tensor<100xui64>
    %66 = stablehlo.not %arg4 : tensor<100xui64>
    %67 = stablehlo.negate %arg4 : tensor<100xui64>
    %68 = stablehlo.popcnt %arg4 : tensor<100xui64>
    %69 = stablehlo.count_leading_zeros %arg4 : tensor<100xui64>
    %70 = call @floor_divide_0(%arg4, %arg5) : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xui64>
    %71 = call @remainder_1(%arg4, %arg5) : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xui64>
    %72 = stablehlo.multiply %arg4, %arg4 : tensor<100xui64>
    %73 = stablehlo.multiply %72, %arg4 : tensor<100xui64>
    %74 = stablehlo.broadcast_in_dim %56, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %75 = stablehlo.broadcast_in_dim %57, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %76 = stablehlo.broadcast_in_dim %58, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %77 = stablehlo.broadcast_in_dim %59, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %78 = stablehlo.broadcast_in_dim %60, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %79 = stablehlo.broadcast_in_dim %61, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %80 = stablehlo.broadcast_in_dim %62, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %81 = stablehlo.broadcast_in_dim %63, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %82 = stablehlo.broadcast_in_dim %64, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %83 = stablehlo.broadcast_in_dim %65, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %84 = stablehlo.broadcast_in_dim %66, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %85 = stablehlo.broadcast_in_dim %67, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %86 = stablehlo.broadcast_in_dim %68, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %87 = stablehlo.broadcast_in_dim %69, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %88 = stablehlo.broadcast_in_dim %70, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %89 = stablehlo.broadcast_in_dim %71, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %90 = stablehlo.broadcast_in_dim %73, dims = [1] : (tensor<100xui64>) -> tensor<1x100xui64>
    %91 = stablehlo.concatenate %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, dim = 0 : (tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>, tensor<1x100xui64>) -> tensor<16x100xui64>
    %92 = stablehlo.concatenate %90, dim = 0 : (tensor<1x100xui64>) -> tensor<1x100xui64>
    %93 = stablehlo.concatenate %91, %92, dim = 0 : (tensor<16x100xui64>, tensor<1x100xui64>) -> tensor<17x100xui64>
    %94 = stablehlo.compare LT, %arg4, %arg5, UNSIGNED : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xi1>
    %95 = stablehlo.compare EQ, %arg4, %arg5, UNSIGNED : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xi1>
    %96 = stablehlo.compare GE, %arg4, %arg5, UNSIGNED : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xi1>
    %97 = stablehlo.broadcast_in_dim %94, dims = [1] : (tensor<100xi1>) -> tensor<1x100xi1>
    %98 = stablehlo.broadcast_in_dim %95, dims = [1] : (tensor<100xi1>) -> tensor<1x100xi1>
    %99 = stablehlo.broadcast_in_dim %96, dims = [1] : (tensor<100xi1>) -> tensor<1x100xi1>
    %100 = stablehlo.concatenate %97, %98, %99, dim = 0 : (tensor<1x100xi1>, tensor<1x100xi1>, tensor<1x100xi1>) -> tensor<3x100xi1>
    %101 = stablehlo.shift_left %arg6, %arg7 : tensor<40xui64>
    %102 = stablehlo.shift_right_arithmetic %arg6, %arg7 : tensor<40xui64>
    %103 = stablehlo.shift_right_logical %arg6, %arg7 : tensor<40xui64>
    %104 = stablehlo.broadcast_in_dim %101, dims = [1] : (tensor<40xui64>) -> tensor<1x40xui64>
    %105 = stablehlo.broadcast_in_dim %102, dims = [1] : (tensor<40xui64>) -> tensor<1x40xui64>
    %106 = stablehlo.broadcast_in_dim %103, dims = [1] : (tensor<40xui64>) -> tensor<1x40xui64>
    %107 = stablehlo.concatenate %104, %105, %106, dim = 0 : (tensor<1x40xui64>, tensor<1x40xui64>, tensor<1x40xui64>) -> tensor<3x40xui64>
    return %41, %48, %55, %93, %100, %107 : tensor<19x144xi64>, tensor<3x144xi1>, tensor<3x45xi64>, tensor<17x100xui64>, tensor<3x100xi1>, tensor<3x40xui64>
  }
  func.func private @floor_divide(%arg0: tensor<144xi64>, %arg1: tensor<144xi64>) -> tensor<144xi64> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<144xi64>
    %1 = stablehlo.sign %arg0 : tensor<144xi64>
    %2 = stablehlo.sign %arg1 : tensor<144xi64>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<144xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<144xi64>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %7 = stablehlo.and %3, %6 : tensor<144xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<144xi64>
    %9 = stablehlo.subtract %0, %8 : tensor<144xi64>
    %10 = call @_where(%7, %9, %0) : (tensor<144xi1>, tensor<144xi64>, tensor<144xi64>) -> tensor<144xi64>
    return %10 : tensor<144xi64>
  }
  func.func private @_where(%arg0: tensor<144xi1>, %arg1: tensor<144xi64>, %arg2: tensor<144xi64>) -> tensor<144xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<144xi1>, tensor<144xi64>
    return %0 : tensor<144xi64>
  }
  func.func private @remainder(%arg0: tensor<144xi64>, %arg1: tensor<144xi64>) -> tensor<144xi64> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<144xi64>
    %1 = stablehlo.compare EQ, %arg1, %0, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<144xi64>
    %3 = call @_where(%1, %2, %arg1) : (tensor<144xi1>, tensor<144xi64>, tensor<144xi64>) -> tensor<144xi64>
    %4 = stablehlo.remainder %arg0, %3 : tensor<144xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<144xi64>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<144xi64>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<144xi64>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<144xi64>, tensor<144xi64>) -> tensor<144xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<144xi1>, tensor<144xi1>) -> tensor<144xi1>
    %12 = stablehlo.and %11, %6 : tensor<144xi1>
    %13 = stablehlo.add %4, %3 : tensor<144xi64>
    %14 = stablehlo.select %12, %13, %4 : tensor<144xi1>, tensor<144xi64>
    return %14 : tensor<144xi64>
  }
  func.func private @floor_divide_0(%arg0: tensor<100xui64>, %arg1: tensor<100xui64>) -> tensor<100xui64> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<100xui64>
    return %0 : tensor<100xui64>
  }
  func.func private @remainder_1(%arg0: tensor<100xui64>, %arg1: tensor<100xui64>) -> tensor<100xui64> {
    %c = stablehlo.constant dense<0> : tensor<ui64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<100xui64>
    %1 = stablehlo.compare EQ, %arg1, %0, UNSIGNED : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<ui64>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<100xui64>
    %3 = call @_where_2(%1, %2, %arg1) : (tensor<100xi1>, tensor<100xui64>, tensor<100xui64>) -> tensor<100xui64>
    %4 = stablehlo.remainder %arg0, %3 : tensor<100xui64>
    %c_1 = stablehlo.constant dense<0> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<100xui64>
    %6 = stablehlo.compare NE, %4, %5, UNSIGNED : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<100xui64>
    %8 = stablehlo.compare LT, %4, %7, UNSIGNED : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<ui64>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui64>) -> tensor<100xui64>
    %10 = stablehlo.compare LT, %3, %9, UNSIGNED : (tensor<100xui64>, tensor<100xui64>) -> tensor<100xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<100xi1>, tensor<100xi1>) -> tensor<100xi1>
    %12 = stablehlo.and %11, %6 : tensor<100xi1>
    %13 = stablehlo.add %4, %3 : tensor<100xui64>
    %14 = stablehlo.select %12, %13, %4 : tensor<100xi1>, tensor<100xui64>
    return %14 : tensor<100xui64>
  }
  func.func private @_where_2(%arg0: tensor<100xi1>, %arg1: tensor<100xui64>, %arg2: tensor<100xui64>) -> tensor<100xui64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<100xi1>, tensor<100xui64>
    return %0 : tensor<100xui64>
  }
}
