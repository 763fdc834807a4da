#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @int64_arith(%arg0: tensor<3x4xi64>, %arg1: tensor<3x4xi64>, %arg2: tensor<3x4xi64>) -> (tensor<3x4xi64>, tensor<3x4xi64>) {
    %0 = tensor.empty() : tensor<3x4xi64>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %arg2 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) {
    ^bb0(%in: i64, %in_0: i64, %out: i64):
      %5 = arith.muli %in, %in_0 : i64
      linalg.yield %5 : i64
    } -> tensor<3x4xi64>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) {
    ^bb0(%in: i64, %in_0: i64, %out: i64):
      %5 = arith.addi %in, %in_0 : i64
      linalg.yield %5 : i64
    } -> tensor<3x4xi64>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) {
    ^bb0(%in: i64, %in_0: i64, %out: i64):
      %5 = arith.muli %in, %in_0 : i64
      linalg.yield %5 : i64
    } -> tensor<3x4xi64>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg2 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi64>) {
    ^bb0(%in: i64, %in_0: i64, %out: i64):
      %5 = arith.subi %in, %in_0 : i64
      linalg.yield %5 : i64
    } -> tensor<3x4xi64>
    return %2, %4 : tensor<3x4xi64>, tensor<3x4xi64>
  }
}
