#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
module {
  func.func @sum_keepdim(%arg0: tensor<3x5x4xf32>) -> tensor<3x1x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<3x1x4xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<3x1x4xf32>) -> tensor<3x1x4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0 : tensor<3x5x4xf32>) outs(%1 : tensor<3x1x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %3 = arith.addf %in, %out : f32
      linalg.yield %3 : f32
    } -> tensor<3x1x4xf32>
    return %2 : tensor<3x1x4xf32>
  }
}

