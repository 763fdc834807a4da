#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @const_buffer(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
    %cst = arith.constant dense<[1.000000e+30, -3.000000e-20, 2.500000e+00, 7.000000e+00]> : tensor<4xf32>
    %cst_0 = arith.constant dense<[0xFF800000, 1.000000e+30, 5.000000e-01, -2.000000e+00]> : tensor<4xf32>
    %0 = tensor.empty() : tensor<3x4xf32>
    %1 = tensor.empty() : tensor<3x4xf32>
    %broadcasted = linalg.broadcast ins(%cst_0 : tensor<4xf32>) outs(%1 : tensor<3x4xf32>) dimensions = [0] 
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %broadcasted : tensor<3x4xf32>, tensor<3x4xf32>) outs(%0 : tensor<3x4xf32>) {
    ^bb0(%in: f32, %in_1: f32, %out: f32):
      %4 = arith.cmpf ogt, %in, %in_1 : f32
      %5 = arith.select %4, %in, %in_1 : f32
      linalg.yield %5 : f32
    } -> tensor<3x4xf32>
    %3 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map] ins(%arg0, %cst : tensor<3x4xf32>, tensor<4xf32>) outs(%0 : tensor<3x4xf32>) -> tensor<3x4xf32>
    return %2, %3 : tensor<3x4xf32>, tensor<3x4xf32>
  }
}

