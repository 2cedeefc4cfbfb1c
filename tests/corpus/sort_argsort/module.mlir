module @jit_sort_argsort attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>, %arg1: tensor<3x8xi32>) -> (tensor<20xi64> {jax.result_info = "result[0]"}, tensor<3x8xi64> {jax.result_info = "result[1]"}, tensor<3x8xi64> {jax.result_info = "result[2]"}) {
    %0 = call @argsort(%arg0) : (tensor<20xf32>) -> tensor<20xi64>
    %1 = call @argsort_0(%arg1) : (tensor<3x8xi32>) -> tensor<3x8xi64>
    %2 = call @argsort_1(%arg1) : (tensor<3x8xi32>) -> tensor<3x8xi64>
    return %0, %1, %2 : tensor<20xi64>, tensor<3x8xi64>, tensor<3x8xi64>
  }
  func.func private @argsort(%arg0: tensor<20xf32>) -> tensor<20xi64> {
    %0 = stablehlo.iota dim = 0 : tensor<20xi64>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i64>, %arg4: tensor<i64>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.select %6, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %9 = stablehlo.select %8, %cst_4, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }) : (tensor<20xf32>, tensor<20xi64>) -> (tensor<20xf32>, tensor<20xi64>)
    return %1#1 : tensor<20xi64>
  }
  func.func private @argsort_0(%arg0: tensor<3x8xi32>) -> tensor<3x8xi64> {
    %0 = stablehlo.iota dim = 1 : tensor<3x8xi64>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i64>, %arg4: tensor<i64>):
      %2 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    }) : (tensor<3x8xi32>, tensor<3x8xi64>) -> (tensor<3x8xi32>, tensor<3x8xi64>)
    return %1#1 : tensor<3x8xi64>
  }
  func.func private @argsort_1(%arg0: tensor<3x8xi32>) -> tensor<3x8xi64> {
    %0 = stablehlo.iota dim = 0 : tensor<3x8xi64>
    %1 = stablehlo.reverse %arg0, dims = [0] : tensor<3x8xi32>
    %2 = stablehlo.reverse %0, dims = [0] : tensor<3x8xi64>
    %3:2 = "stablehlo.sort"(%1, %2) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i64>, %arg4: tensor<i64>):
      %5 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %5 : tensor<i1>
    }) : (tensor<3x8xi32>, tensor<3x8xi64>) -> (tensor<3x8xi32>, tensor<3x8xi64>)
    %4 = stablehlo.reverse %3#1, dims = [0] : tensor<3x8xi64>
    return %4 : tensor<3x8xi64>
  }
}
