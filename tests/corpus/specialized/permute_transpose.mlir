#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> ()>
module {
  func.func @permute_transpose(%arg0: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<3x2x4xf32>) {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x2x3xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%0 : tensor<4x2x3xf32>) permutation = [2, 0, 1] 
    %1 = linalg.elementwise <add> indexing_maps = [#map, #map1, #map] ins(%transposed, %cst : tensor<4x2x3xf32>, f32) outs(%0 : tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
    %2 = tensor.empty() : tensor<3x2x4xf32>
    %transposed_1 = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%2 : tensor<3x2x4xf32>) permutation = [1, 0, 2] 
    %3 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map] ins(%transposed_1, %cst_0 : tensor<3x2x4xf32>, f32) outs(%2 : tensor<3x2x4xf32>) -> tensor<3x2x4xf32>
    return %1, %3 : tensor<4x2x3xf32>, tensor<3x2x4xf32>
  }
}

