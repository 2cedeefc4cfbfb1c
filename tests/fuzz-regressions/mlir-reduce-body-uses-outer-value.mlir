module { func.func public @main(%a: tensor<4xf32>, %b: tensor<f32>) -> tensor<f32> {
 %c = stablehlo.constant dense<0.0> : tensor<f32>
 %r = stablehlo.reduce(%a init: %c) across dimensions = [0] : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
 reducer(%x: tensor<f32>, %y: tensor<f32>) {
 %s = stablehlo.add %x, %b : tensor<f32>
 stablehlo.return %s : tensor<f32>
 }
 return %r : tensor<f32> } }
