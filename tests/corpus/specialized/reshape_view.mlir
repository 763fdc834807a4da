#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> ()>
module {
  func.func @reshape_view(%arg0: tensor<2x3x4xf32>) -> (tensor<6x4xf32>, tensor<4x3x2xf32>) {
    %cst = arith.constant 2.000000e+00 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
    %collapsed_0 = tensor.collapse_shape %arg0 [[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
    %expanded = tensor.expand_shape %collapsed_0 [[0, 1, 2]] output_shape [4, 3, 2] : tensor<24xf32> into tensor<4x3x2xf32>
    %0 = tensor.empty() : tensor<4x3x2xf32>
    %1 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map] ins(%expanded, %cst : tensor<4x3x2xf32>, f32) outs(%0 : tensor<4x3x2xf32>) -> tensor<4x3x2xf32>
    return %collapsed, %1 : tensor<6x4xf32>, tensor<4x3x2xf32>
  }
}

