module @jit_h_sort_multiple_arrays_num_arrays_2_shape_int32_100_axis_0_isstable_false_num_keys_1 attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<100xi32>, %arg1: tensor<100xi32>) -> (tensor<100xi32> {jax.result_info = "result[0]"}, tensor<100xi32> {jax.result_info = "result[1]"}) {
    %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
      %1 = stablehlo.compare LT, %arg2, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<100xi32>, tensor<100xi32>) -> (tensor<100xi32>, tensor<100xi32>)
    return %0#0, %0#1 : tensor<100xi32>, tensor<100xi32>
  }
}
