#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @tanh(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = math.tanh %in : f32
      linalg.yield %2 : f32
    } -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
}
