#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @where_select(%arg0: tensor<4x8xf32>, %arg1: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %cst = arith.constant 2.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x8xi1>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<4x8xf32>, tensor<4x8xf32>) outs(%0 : tensor<4x8xi1>) {
    ^bb0(%in: f32, %in_0: f32, %out: i1):
      %5 = arith.cmpf ogt, %in, %in_0 : f32
      linalg.yield %5 : i1
    } -> tensor<4x8xi1>
    %2 = tensor.empty() : tensor<4x8xf32>
    %3 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map] ins(%arg1, %cst : tensor<4x8xf32>, f32) outs(%2 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %4 = linalg.elementwise <select> ins(%1, %arg0, %3 : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%2 : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %4 : tensor<4x8xf32>
  }
}

