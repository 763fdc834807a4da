#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @flatten(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x60xf32> {
    %cst = arith.constant 5.000000e-01 : f32
    %collapsed = tensor.collapse_shape %arg0 [[0], [1, 2, 3]] : tensor<2x3x4x5xf32> into tensor<2x60xf32>
    %0 = tensor.empty() : tensor<2x60xf32>
    %1 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map] ins(%collapsed, %cst : tensor<2x60xf32>, f32) outs(%0 : tensor<2x60xf32>) -> tensor<2x60xf32>
    return %1 : tensor<2x60xf32>
  }
}

