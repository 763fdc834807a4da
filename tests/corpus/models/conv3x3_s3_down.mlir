module {
  func.func @conv3x3_s3_down(%arg0: tensor<2x8x12x12xf32>, %arg1: tensor<12x8x3x3xf32>) -> tensor<2x12x6x6xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg2: index, %arg3: index, %arg4: index, %arg5: index):
      tensor.yield %cst : f32
    } : tensor<2x8x12x12xf32> to tensor<2x8x14x14xf32>
    %0 = tensor.empty() : tensor<2x12x6x6xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x12x6x6xf32>) -> tensor<2x12x6x6xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg1 : tensor<2x8x14x14xf32>, tensor<12x8x3x3xf32>) outs(%1 : tensor<2x12x6x6xf32>) -> tensor<2x12x6x6xf32>
    return %2 : tensor<2x12x6x6xf32>
  }
}
