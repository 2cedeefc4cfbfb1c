module @jit_elementwise_c128_ops attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xcomplex<f64>>, %arg1: tensor<12xcomplex<f64>>) -> (tensor<12xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<12xf64> {jax.result_info = "result[3]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[4]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[5]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[6]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[7]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[8]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[9]"}, tensor<12xcomplex<f64>> {jax.result_info = "result[10]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<12xcomplex<f64>>
    %1 = stablehlo.multiply %arg0, %arg1 : tensor<12xcomplex<f64>>
    %2 = stablehlo.divide %arg0, %arg1 : tensor<12xcomplex<f64>>
    %3 = stablehlo.abs %arg0 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %4 = stablehlo.exponential %arg0 : tensor<12xcomplex<f64>>
    %5 = stablehlo.log %arg0 : tensor<12xcomplex<f64>>
    %6 = stablehlo.sqrt %arg0 : tensor<12xcomplex<f64>>
    %cst = stablehlo.constant dense<(1.000000e-01,0.000000e+00)> : tensor<complex<f64>>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<12xcomplex<f64>>
    %8 = stablehlo.multiply %arg0, %7 : tensor<12xcomplex<f64>>
    %9 = stablehlo.exponential_minus_one %8 : tensor<12xcomplex<f64>>
    %10 = stablehlo.real %arg0 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %11 = stablehlo.imag %arg0 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %13 = stablehlo.compare EQ, %10, %12, FLOAT : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %14 = stablehlo.sine %10 : tensor<12xf64>
    %15 = stablehlo.cosine %10 : tensor<12xf64>
    %16 = stablehlo.exponential_minus_one %11 : tensor<12xf64>
    %17 = stablehlo.negate %11 : tensor<12xf64>
    %18 = stablehlo.exponential_minus_one %17 : tensor<12xf64>
    %19 = stablehlo.subtract %16, %18 : tensor<12xf64>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %20 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %21 = stablehlo.divide %19, %20 : tensor<12xf64>
    %22 = stablehlo.add %16, %18 : tensor<12xf64>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %23 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %24 = stablehlo.add %22, %23 : tensor<12xf64>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %26 = stablehlo.divide %24, %25 : tensor<12xf64>
    %27 = stablehlo.multiply %14, %26 : tensor<12xf64>
    %28 = stablehlo.multiply %15, %21 : tensor<12xf64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %30 = stablehlo.complex %29, %28 : tensor<12xcomplex<f64>>
    %31 = stablehlo.complex %27, %28 : tensor<12xcomplex<f64>>
    %32 = stablehlo.select %13, %30, %31 : tensor<12xi1>, tensor<12xcomplex<f64>>
    %33 = stablehlo.real %arg0 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %34 = stablehlo.imag %arg0 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %35 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %36 = stablehlo.compare EQ, %33, %35, FLOAT : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xi1>
    %37 = stablehlo.sine %33 : tensor<12xf64>
    %38 = stablehlo.cosine %33 : tensor<12xf64>
    %39 = stablehlo.exponential_minus_one %34 : tensor<12xf64>
    %40 = stablehlo.negate %34 : tensor<12xf64>
    %41 = stablehlo.exponential_minus_one %40 : tensor<12xf64>
    %42 = stablehlo.subtract %39, %41 : tensor<12xf64>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %43 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %44 = stablehlo.divide %42, %43 : tensor<12xf64>
    %45 = stablehlo.add %39, %41 : tensor<12xf64>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %46 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %47 = stablehlo.add %45, %46 : tensor<12xf64>
    %cst_8 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %48 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %49 = stablehlo.divide %47, %48 : tensor<12xf64>
    %50 = stablehlo.multiply %38, %49 : tensor<12xf64>
    %51 = stablehlo.negate %37 : tensor<12xf64>
    %52 = stablehlo.multiply %51, %44 : tensor<12xf64>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %53 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<12xf64>
    %54 = stablehlo.complex %50, %53 : tensor<12xcomplex<f64>>
    %55 = stablehlo.complex %50, %52 : tensor<12xcomplex<f64>>
    %56 = stablehlo.select %36, %54, %55 : tensor<12xi1>, tensor<12xcomplex<f64>>
    %57 = stablehlo.multiply %arg0, %arg0 : tensor<12xcomplex<f64>>
    %58 = stablehlo.multiply %57, %arg0 : tensor<12xcomplex<f64>>
    return %0, %1, %2, %3, %4, %5, %6, %9, %32, %56, %58 : tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xf64>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>, tensor<12xcomplex<f64>>
  }
}
