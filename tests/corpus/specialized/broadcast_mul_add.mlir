#map = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2)>
module {
  func.func @broadcast_mul_add(%arg0: tensor<4x1x8xf32>, %arg1: tensor<3x1xf32>, %arg2: tensor<8xf32>) -> tensor<4x3x8xf32> {
    %0 = tensor.empty() : tensor<4x3x8xf32>
    %1 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map2] ins(%arg0, %arg1 : tensor<4x1x8xf32>, tensor<3x1xf32>) outs(%0 : tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
    %2 = linalg.elementwise <add> indexing_maps = [#map2, #map3, #map2] ins(%1, %arg2 : tensor<4x3x8xf32>, tensor<8xf32>) outs(%0 : tensor<4x3x8xf32>) -> tensor<4x3x8xf32>
    return %2 : tensor<4x3x8xf32>
  }
}

