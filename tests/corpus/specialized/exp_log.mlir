module {
  func.func @exp_log(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.elementwise <exp> ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %2 = linalg.elementwise <log> ins(%arg1 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %1, %2 : tensor<4x8xf32>, tensor<4x8xf32>
  }
}

