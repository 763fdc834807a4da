#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @clamp(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %cst = arith.constant -5.000000e-01 : f32
    %cst_0 = arith.constant 7.500000e-01 : f32
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.cmpf ult, %in, %cst : f32
      %3 = arith.select %2, %cst, %in : f32
      %4 = arith.cmpf ugt, %3, %cst_0 : f32
      %5 = arith.select %4, %cst_0, %3 : f32
      linalg.yield %5 : f32
    } -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}

