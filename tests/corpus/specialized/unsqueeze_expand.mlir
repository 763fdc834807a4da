#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (0, d1, d2)>
module {
  func.func @unsqueeze_expand(%arg0: tensor<3x5xf32>, %arg1: tensor<4x5xf32>) -> tensor<3x4x5xf32> {
    %0 = tensor.empty() : tensor<3x4x5xf32>
    %broadcasted = linalg.broadcast ins(%arg0 : tensor<3x5xf32>) outs(%0 : tensor<3x4x5xf32>) dimensions = [1] 
    %expanded = tensor.expand_shape %arg1 [[0, 1], [2]] output_shape [1, 4, 5] : tensor<4x5xf32> into tensor<1x4x5xf32>
    %1 = linalg.elementwise <add> indexing_maps = [#map, #map1, #map] ins(%broadcasted, %expanded : tensor<3x4x5xf32>, tensor<1x4x5xf32>) outs(%0 : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
    return %1 : tensor<3x4x5xf32>
  }
}

