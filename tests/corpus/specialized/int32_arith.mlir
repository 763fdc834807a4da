module {
  func.func @int32_arith(%arg0: tensor<3x4xi32>, %arg1: tensor<3x4xi32>, %arg2: tensor<3x4xi32>) -> (tensor<3x4xi32>, tensor<3x4xi32>) {
    %0 = tensor.empty() : tensor<3x4xi32>
    %1 = linalg.elementwise <mul> ins(%arg1, %arg2 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) -> tensor<3x4xi32>
    %2 = linalg.elementwise <add> ins(%arg0, %1 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) -> tensor<3x4xi32>
    %3 = linalg.elementwise <mul> ins(%arg0, %arg1 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) -> tensor<3x4xi32>
    %4 = linalg.elementwise <sub> ins(%3, %arg2 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) -> tensor<3x4xi32>
    return %2, %4 : tensor<3x4xi32>, tensor<3x4xi32>
  }
}

