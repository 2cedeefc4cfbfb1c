module @jit_sort_int_types attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xui8>, %arg1: tensor<8xi64>, %arg2: tensor<8xui32>, %arg3: tensor<9xi1>, %arg4: tensor<8xf64>, %arg5: tensor<10xbf16>) -> (tensor<12xui8> {jax.result_info = "result[0]"}, tensor<8xi64> {jax.result_info = "result[1]"}, tensor<8xui32> {jax.result_info = "result[2]"}, tensor<9xi1> {jax.result_info = "result[3]"}, tensor<8xf64> {jax.result_info = "result[4]"}, tensor<10xbf16> {jax.result_info = "result[5]"}) {
    %0 = call @sort(%arg0) : (tensor<12xui8>) -> tensor<12xui8>
    %1 = call @sort_0(%arg1) : (tensor<8xi64>) -> tensor<8xi64>
    %2 = call @sort_1(%arg2) : (tensor<8xui32>) -> tensor<8xui32>
    %3 = call @sort_2(%arg3) : (tensor<9xi1>) -> tensor<9xi1>
    %4 = call @sort_3(%arg4) : (tensor<8xf64>) -> tensor<8xf64>
    %5 = call @sort_4(%arg5) : (tensor<10xbf16>) -> tensor<10xbf16>
    return %0, %1, %2, %3, %4, %5 : tensor<12xui8>, tensor<8xi64>, tensor<8xui32>, tensor<9xi1>, tensor<8xf64>, tensor<10xbf16>
  }
  func.func private @sort(%arg0: tensor<12xui8>) -> tensor<12xui8> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<ui8>, %arg2: tensor<ui8>):
      %1 = stablehlo.compare LT, %arg1, %arg2, UNSIGNED : (tensor<ui8>, tensor<ui8>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<12xui8>) -> tensor<12xui8>
    return %0 : tensor<12xui8>
  }
  func.func private @sort_0(%arg0: tensor<8xi64>) -> tensor<8xi64> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %1 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<8xi64>) -> tensor<8xi64>
    return %0 : tensor<8xi64>
  }
  func.func private @sort_1(%arg0: tensor<8xui32>) -> tensor<8xui32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<ui32>, %arg2: tensor<ui32>):
      %2 = stablehlo.compare LT, %arg1, %arg2, UNSIGNED : (tensor<ui32>, tensor<ui32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<8xui32>) -> tensor<8xui32>
    %1 = stablehlo.reverse %0, dims = [0] : tensor<8xui32>
    return %1 : tensor<8xui32>
  }
  func.func private @sort_2(%arg0: tensor<9xi1>) -> tensor<9xi1> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i1>, %arg2: tensor<i1>):
      %1 = stablehlo.compare LT, %arg1, %arg2, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<9xi1>) -> tensor<9xi1>
    return %0 : tensor<9xi1>
  }
  func.func private @sort_3(%arg0: tensor<8xf64>) -> tensor<8xf64> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f64>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f64>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f64>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f64>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f64>, tensor<f64>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<8xf64>) -> tensor<8xf64>
    return %0 : tensor<8xf64>
  }
  func.func private @sort_4(%arg0: tensor<10xbf16>) -> tensor<10xbf16> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<bf16>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC0> : tensor<bf16>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<bf16>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<bf16>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC0> : tensor<bf16>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<bf16>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<bf16>, tensor<bf16>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<10xbf16>) -> tensor<10xbf16>
    return %0 : tensor<10xbf16>
  }
}
