module {
  func.func @cat(%arg0: tensor<2x3xf32>, %arg1: tensor<2x1xf32>, %arg2: tensor<2x4xf32>) -> tensor<2x8xf32> {
    %concat = tensor.concat dim(1) %arg0, %arg1, %arg2 : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x4xf32>) -> tensor<2x8xf32>
    return %concat : tensor<2x8xf32>
  }
}

