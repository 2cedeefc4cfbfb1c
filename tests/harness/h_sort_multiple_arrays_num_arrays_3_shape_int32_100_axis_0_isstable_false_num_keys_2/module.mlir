module @jit_h_sort_multiple_arrays_num_arrays_3_shape_int32_100_axis_0_isstable_false_num_keys_2 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<100xi32>, %arg1: tensor<100xi32>, %arg2: tensor<100xf32>) -> (tensor<100xi32> {jax.result_info = "result[0]"}, tensor<100xi32> {jax.result_info = "result[1]"}, tensor<100xf32> {jax.result_info = "result[2]"}) {
    %0:3 = "stablehlo.sort"(%arg0, %arg1, %arg2) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<f32>, %arg8: tensor<f32>):
      %1 = stablehlo.compare LT, %arg5, %arg6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %2 = stablehlo.compare LT, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = stablehlo.compare EQ, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = stablehlo.and %3, %1 : tensor<i1>
      %5 = stablehlo.or %2, %4 : tensor<i1>
      stablehlo.return %5 : tensor<i1>
    }) : (tensor<100xi32>, tensor<100xi32>, tensor<100xf32>) -> (tensor<100xi32>, tensor<100xi32>, tensor<100xf32>)
    return %0#0, %0#1, %0#2 : tensor<100xi32>, tensor<100xi32>, tensor<100xf32>
  }
}
