module {
  func.func @depthwise_conv(%arg0: tensor<1x4x6x6xf32>, %arg1: tensor<4x1x3x3xf32>, %arg2: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
    %0 = tensor.empty() : tensor<1x4x4x4xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<4xf32>) outs(%0 : tensor<1x4x4x4xf32>) dimensions = [0, 2, 3] 
    %collapsed = tensor.collapse_shape %arg1 [[0, 1], [2], [3]] : tensor<4x1x3x3xf32> into tensor<4x3x3xf32>
    %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %collapsed : tensor<1x4x6x6xf32>, tensor<4x3x3xf32>) outs(%broadcasted : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    return %1 : tensor<1x4x4x4xf32>
  }
}

