#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d1)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0) -> ()>
module {
  func.func @mean_dims(%arg0: tensor<3x5x4xf32>) -> tensor<5xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.200000e+01 : f32
    %0 = tensor.empty() : tensor<5xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<5xf32>) -> tensor<5xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "parallel", "reduction"]} ins(%arg0 : tensor<3x5x4xf32>) outs(%1 : tensor<5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %4 = arith.addf %in, %out : f32
      linalg.yield %4 : f32
    } -> tensor<5xf32>
    %3 = linalg.elementwise <div> indexing_maps = [#map2, #map3, #map2] ins(%2, %cst_0 : tensor<5xf32>, f32) outs(%0 : tensor<5xf32>) -> tensor<5xf32>
    return %3 : tensor<5xf32>
  }
}

