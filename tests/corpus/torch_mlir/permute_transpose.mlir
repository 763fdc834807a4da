#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
module {
  func.func @permute_transpose(%arg0: tensor<2x3x4xf32>) -> (tensor<4x2x3xf32>, tensor<3x2x4xf32>) {
    %cst = arith.constant 1.000000e+00 : f32
    %cst_0 = arith.constant 2.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x2x3xf32>
    %transposed = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%0 : tensor<4x2x3xf32>) permutation = [2, 0, 1] 
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed : tensor<4x2x3xf32>) outs(%0 : tensor<4x2x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %cst : f32
      linalg.yield %4 : f32
    } -> tensor<4x2x3xf32>
    %2 = tensor.empty() : tensor<3x2x4xf32>
    %transposed_1 = linalg.transpose ins(%arg0 : tensor<2x3x4xf32>) outs(%2 : tensor<3x2x4xf32>) permutation = [1, 0, 2] 
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%transposed_1 : tensor<3x2x4xf32>) outs(%2 : tensor<3x2x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.mulf %in, %cst_0 : f32
      linalg.yield %4 : f32
    } -> tensor<3x2x4xf32>
    return %1, %3 : tensor<4x2x3xf32>, tensor<3x2x4xf32>
  }
}
