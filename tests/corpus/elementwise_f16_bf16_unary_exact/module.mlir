module @jit_elementwise_f16_bf16_unary_exact attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<60xf16>, %arg1: tensor<60xbf16>) -> (tensor<60xf16> {jax.result_info = "result[0]"}, tensor<60xf16> {jax.result_info = "result[1]"}, tensor<60xf16> {jax.result_info = "result[2]"}, tensor<60xf16> {jax.result_info = "result[3]"}, tensor<60xf16> {jax.result_info = "result[4]"}, tensor<60xf16> {jax.result_info = "result[5]"}, tensor<60xf16> {jax.result_info = "result[6]"}, tensor<60xf16> {jax.result_info = "result[7]"}, tensor<60xi1> {jax.result_info = "result[8]"}, tensor<60xf16> {jax.result_info = "result[9]"}, tensor<60xbf16> {jax.result_info = "result[10]"}, tensor<60xbf16> {jax.result_info = "result[11]"}, tensor<60xbf16> {jax.result_info = "result[12]"}, tensor<60xbf16> {jax.result_info = "result[13]"}, tensor<60xbf16> {jax.result_info = "result[14]"}, tensor<60xbf16> {jax.result_info = "result[15]"}, tensor<60xbf16> {jax.result_info = "result[16]"}, tensor<60xbf16> {jax.result_info = "result[17]"}, tensor<60xi1> {jax.result_info = "result[18]"}, tensor<60xbf16> {jax.result_info = "result[19]"}) {
    %0 = stablehlo.abs %arg0 : tensor<60xf16>
    %1 = stablehlo.negate %arg0 : tensor<60xf16>
    %2 = stablehlo.sign %arg0 : tensor<60xf16>
    %3 = stablehlo.floor %arg0 : tensor<60xf16>
    %4 = stablehlo.ceil %arg0 : tensor<60xf16>
    %5 = call @round(%arg0) : (tensor<60xf16>) -> tensor<60xf16>
    %6 = stablehlo.round_nearest_afz %arg0 : tensor<60xf16>
    %7 = stablehlo.sqrt %arg0 : tensor<60xf16>
    %8 = stablehlo.is_finite %arg0 : (tensor<60xf16>) -> tensor<60xi1>
    %9 = call @trunc(%arg0) : (tensor<60xf16>) -> tensor<60xf16>
    %10 = stablehlo.abs %arg1 : tensor<60xbf16>
    %11 = stablehlo.negate %arg1 : tensor<60xbf16>
    %12 = stablehlo.sign %arg1 : tensor<60xbf16>
    %13 = stablehlo.floor %arg1 : tensor<60xbf16>
    %14 = stablehlo.ceil %arg1 : tensor<60xbf16>
    %15 = call @round_0(%arg1) : (tensor<60xbf16>) -> tensor<60xbf16>
    %16 = stablehlo.round_nearest_afz %arg1 : tensor<60xbf16>
    %17 = stablehlo.sqrt %arg1 : tensor<60xbf16>
    %18 = stablehlo.is_finite %arg1 : (tensor<60xbf16>) -> tensor<60xi1>
    %19 = call @trunc_1(%arg1) : (tensor<60xbf16>) -> tensor<60xbf16>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19 : tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xf16>, tensor<60xi1>, tensor<60xf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xbf16>, tensor<60xi1>, tensor<60xbf16>
  }
  func.func private @round(%arg0: tensor<60xf16>) -> tensor<60xf16> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<60xf16>
    return %0 : tensor<60xf16>
  }
  func.func private @trunc(%arg0: tensor<60xf16>) -> tensor<60xf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<60xf16>
    %1 = stablehlo.compare LT, %arg0, %0, FLOAT : (tensor<60xf16>, tensor<60xf16>) -> tensor<60xi1>
    %2 = stablehlo.ceil %arg0 : tensor<60xf16>
    %3 = stablehlo.floor %arg0 : tensor<60xf16>
    %4 = call @_where(%1, %2, %3) : (tensor<60xi1>, tensor<60xf16>, tensor<60xf16>) -> tensor<60xf16>
    return %4 : tensor<60xf16>
  }
  func.func private @_where(%arg0: tensor<60xi1>, %arg1: tensor<60xf16>, %arg2: tensor<60xf16>) -> tensor<60xf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<60xi1>, tensor<60xf16>
    return %0 : tensor<60xf16>
  }
  func.func private @round_0(%arg0: tensor<60xbf16>) -> tensor<60xbf16> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<60xbf16>
    return %0 : tensor<60xbf16>
  }
  func.func private @trunc_1(%arg0: tensor<60xbf16>) -> tensor<60xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<60xbf16>
    %1 = stablehlo.compare LT, %arg0, %0, FLOAT : (tensor<60xbf16>, tensor<60xbf16>) -> tensor<60xi1>
    %2 = stablehlo.ceil %arg0 : tensor<60xbf16>
    %3 = stablehlo.floor %arg0 : tensor<60xbf16>
    %4 = call @_where_2(%1, %2, %3) : (tensor<60xi1>, tensor<60xbf16>, tensor<60xbf16>) -> tensor<60xbf16>
    return %4 : tensor<60xbf16>
  }
  func.func private @_where_2(%arg0: tensor<60xi1>, %arg1: tensor<60xbf16>, %arg2: tensor<60xbf16>) -> tensor<60xbf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<60xi1>, tensor<60xbf16>
    return %0 : tensor<60xbf16>
  }
}
