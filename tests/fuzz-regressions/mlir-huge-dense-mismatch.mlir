module { func.func @main() { %0 = stablehlo.constant dense<[1.0]> : tensor<4000000000x4000000000xf32>
 return } }