module {
  func.func @conv_strided_dilated(%arg0: tensor<1x2x9x9xf32>, %arg1: tensor<3x2x3x3xf32>, %arg2: tensor<3xf32>) -> tensor<1x3x4x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg3: index, %arg4: index, %arg5: index, %arg6: index):
      tensor.yield %cst : f32
    } : tensor<1x2x9x9xf32> to tensor<1x2x11x11xf32>
    %0 = tensor.empty() : tensor<1x3x4x4xf32>
    %broadcasted = linalg.broadcast ins(%arg2 : tensor<3xf32>) outs(%0 : tensor<1x3x4x4xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg1 : tensor<1x2x11x11xf32>, tensor<3x2x3x3xf32>) outs(%broadcasted : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
    return %1 : tensor<1x3x4x4xf32>
  }
}

