module @jit_elementwise_f16_bf16_binary attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<228xf16>, %arg1: tensor<228xf16>, %arg2: tensor<185xf16>, %arg3: tensor<185xf16>, %arg4: tensor<228xbf16>, %arg5: tensor<228xbf16>, %arg6: tensor<185xbf16>, %arg7: tensor<185xbf16>) -> (tensor<228xf16> {jax.result_info = "result[0]"}, tensor<228xf16> {jax.result_info = "result[1]"}, tensor<228xf16> {jax.result_info = "result[2]"}, tensor<228xf16> {jax.result_info = "result[3]"}, tensor<228xf16> {jax.result_info = "result[4]"}, tensor<228xf16> {jax.result_info = "result[5]"}, tensor<228xf16> {jax.result_info = "result[6]"}, tensor<228xf16> {jax.result_info = "result[7]"}, tensor<228xf16> {jax.result_info = "result[8]"}, tensor<228xf16> {jax.result_info = "result[9]"}, tensor<185xf16> {jax.result_info = "result[10]"}, tensor<228xbf16> {jax.result_info = "result[11]"}, tensor<228xbf16> {jax.result_info = "result[12]"}, tensor<228xbf16> {jax.result_info = "result[13]"}, tensor<228xbf16> {jax.result_info = "result[14]"}, tensor<228xbf16> {jax.result_info = "result[15]"}, tensor<228xbf16> {jax.result_info = "result[16]"}, tensor<228xbf16> {jax.result_info = "result[17]"}, tensor<228xbf16> {jax.result_info = "result[18]"}, tensor<228xbf16> {jax.result_info = "result[19]"}, tensor<228xbf16> {jax.result_info = "result[20]"}, tensor<185xbf16> {jax.result_info = "result[21]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<228xf16>
    %1 = stablehlo.subtract %arg0, %arg1 : tensor<228xf16>
    %2 = stablehlo.multiply %arg0, %arg1 : tensor<228xf16>
    %3 = stablehlo.divide %arg0, %arg1 : tensor<228xf16>
    %4 = stablehlo.maximum %arg0, %arg1 : tensor<228xf16>
    %5 = stablehlo.minimum %arg0, %arg1 : tensor<228xf16>
    %6 = stablehlo.remainder %arg0, %arg1 : tensor<228xf16>
    %7 = call @remainder(%arg0, %arg1) : (tensor<228xf16>, tensor<228xf16>) -> tensor<228xf16>
    %8 = call @fmax(%arg0, %arg1) : (tensor<228xf16>, tensor<228xf16>) -> tensor<228xf16>
    %9 = chlo.next_after %arg0, %arg1 : tensor<228xf16>, tensor<228xf16> -> tensor<228xf16>
    %10 = stablehlo.power %arg2, %arg3 : tensor<185xf16>
    %11 = stablehlo.add %arg4, %arg5 : tensor<228xbf16>
    %12 = stablehlo.subtract %arg4, %arg5 : tensor<228xbf16>
    %13 = stablehlo.multiply %arg4, %arg5 : tensor<228xbf16>
    %14 = stablehlo.divide %arg4, %arg5 : tensor<228xbf16>
    %15 = stablehlo.maximum %arg4, %arg5 : tensor<228xbf16>
    %16 = stablehlo.minimum %arg4, %arg5 : tensor<228xbf16>
    %17 = stablehlo.remainder %arg4, %arg5 : tensor<228xbf16>
    %18 = call @remainder_0(%arg4, %arg5) : (tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xbf16>
    %19 = call @fmax_1(%arg4, %arg5) : (tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xbf16>
    %20 = chlo.next_after %arg4, %arg5 : tensor<228xbf16>, tensor<228xbf16> -> tensor<228xbf16>
    %21 = stablehlo.power %arg6, %arg7 : tensor<185xbf16>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21 : tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<228xf16>, tensor<185xf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<228xbf16>, tensor<185xbf16>
  }
  func.func private @remainder(%arg0: tensor<228xf16>, %arg1: tensor<228xf16>) -> tensor<228xf16> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<228xf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<228xf16>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<228xf16>, tensor<228xf16>) -> tensor<228xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f16>) -> tensor<228xf16>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<228xf16>, tensor<228xf16>) -> tensor<228xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f16>) -> tensor<228xf16>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<228xf16>, tensor<228xf16>) -> tensor<228xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<228xi1>, tensor<228xi1>) -> tensor<228xi1>
    %8 = stablehlo.and %7, %2 : tensor<228xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<228xf16>
    %10 = stablehlo.select %8, %9, %0 : tensor<228xi1>, tensor<228xf16>
    return %10 : tensor<228xf16>
  }
  func.func private @fmax(%arg0: tensor<228xf16>, %arg1: tensor<228xf16>) -> tensor<228xf16> {
    %0 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<228xf16>, tensor<228xf16>) -> tensor<228xi1>
    %1 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<228xf16>, tensor<228xf16>) -> tensor<228xi1>
    %2 = stablehlo.or %0, %1 : tensor<228xi1>
    %3 = call @_where(%2, %arg0, %arg1) : (tensor<228xi1>, tensor<228xf16>, tensor<228xf16>) -> tensor<228xf16>
    return %3 : tensor<228xf16>
  }
  func.func private @_where(%arg0: tensor<228xi1>, %arg1: tensor<228xf16>, %arg2: tensor<228xf16>) -> tensor<228xf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<228xi1>, tensor<228xf16>
    return %0 : tensor<228xf16>
  }
  func.func private @remainder_0(%arg0: tensor<228xbf16>, %arg1: tensor<228xbf16>) -> tensor<228xbf16> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<228xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<228xbf16>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<228xbf16>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<228xbf16>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<228xi1>, tensor<228xi1>) -> tensor<228xi1>
    %8 = stablehlo.and %7, %2 : tensor<228xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<228xbf16>
    %10 = stablehlo.select %8, %9, %0 : tensor<228xi1>, tensor<228xbf16>
    return %10 : tensor<228xbf16>
  }
  func.func private @fmax_1(%arg0: tensor<228xbf16>, %arg1: tensor<228xbf16>) -> tensor<228xbf16> {
    %0 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xi1>
    %1 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xi1>
    %2 = stablehlo.or %0, %1 : tensor<228xi1>
    %3 = call @_where_2(%2, %arg0, %arg1) : (tensor<228xi1>, tensor<228xbf16>, tensor<228xbf16>) -> tensor<228xbf16>
    return %3 : tensor<228xbf16>
  }
  func.func private @_where_2(%arg0: tensor<228xi1>, %arg1: tensor<228xbf16>, %arg2: tensor<228xbf16>) -> tensor<228xbf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<228xi1>, tensor<228xbf16>
    return %0 : tensor<228xbf16>
  }
}
