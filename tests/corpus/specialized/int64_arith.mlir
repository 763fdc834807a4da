module {
  func.func @int64_arith(%arg0: tensor<3x4xi64>, %arg1: tensor<3x4xi64>, %arg2: tensor<3x4xi64>) -> (tensor<3x4xi64>, tensor<3x4xi64>) {
    %0 = tensor.empty() : tensor<3x4xi64>
    %1 = linalg.elementwise <mul> ins(%arg1, %arg2 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) -> tensor<3x4xi64>
    %2 = linalg.elementwise <add> ins(%arg0, %1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) -> tensor<3x4xi64>
    %3 = linalg.elementwise <mul> ins(%arg0, %arg1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) -> tensor<3x4xi64>
    %4 = linalg.elementwise <sub> ins(%3, %arg2 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) -> tensor<3x4xi64>
    return %2, %4 : tensor<3x4xi64>, tensor<3x4xi64>
  }
}

