#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @const_buffer(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
    %cst = arith.constant dense<[1.000000e+30, -3.000000e-20, 2.500000e+00, 7.000000e+00]> : tensor<4xf32>
    %cst_0 = arith.constant dense<[0xFF800000, 1.000000e+30, 5.000000e-01, -2.000000e+00]> : tensor<4xf32>
    %0 = tensor.empty() : tensor<3x4xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %cst_0 : tensor<3x4xf32>, tensor<4xf32>) outs(%0 : tensor<3x4xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %3 = arith.cmpf ogt, %in, %in_1 : f32
      %4 = arith.select %3, %in, %in_1 : f32
      linalg.yield %4 : f32
    } -> tensor<3x4xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %cst : tensor<3x4xf32>, tensor<4xf32>) outs(%0 : tensor<3x4xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %3 = arith.mulf %in, %in_1 : f32
      linalg.yield %3 : f32
    } -> tensor<3x4xf32>
    return %1, %2 : tensor<3x4xf32>, tensor<3x4xf32>
  }
}
