#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @int_floordiv(%arg0: tensor<3x4xi64>, %arg1: tensor<3x4xi64>) -> tensor<3x4xi64> {
    %0 = tensor.empty() : tensor<3x4xi64>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) {
    ^bb0(%in: i64, %in_0: i64, %out: i64):
      %2 = arith.sitofp %in : i64 to f64
      %3 = arith.sitofp %in_0 : i64 to f64
      %4 = arith.divf %2, %3 : f64
      %5 = math.floor %4 : f64
      %6 = arith.fptosi %5 : f64 to i64
      linalg.yield %6 : i64
    } -> tensor<3x4xi64>
    return %1 : tensor<3x4xi64>
  }
}

