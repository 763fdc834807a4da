#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @pow_int(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %c3_i64 = arith.constant 3 : i64
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = math.fpowi %in, %c3_i64 : f32, i64
      linalg.yield %2 : f32
    } -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}

