#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @int32_arith(%arg0: tensor<3x4xi32>, %arg1: tensor<3x4xi32>, %arg2: tensor<3x4xi32>) -> (tensor<3x4xi32>, tensor<3x4xi32>) {
    %0 = tensor.empty() : tensor<3x4xi32>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg1, %arg2 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) {
    ^bb0(%in: i32, %in_0: i32, %out: i32):
      %5 = arith.muli %in, %in_0 : i32
      linalg.yield %5 : i32
    } -> tensor<3x4xi32>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %1 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) {
    ^bb0(%in: i32, %in_0: i32, %out: i32):
      %5 = arith.addi %in, %in_0 : i32
      linalg.yield %5 : i32
    } -> tensor<3x4xi32>
    %3 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) {
    ^bb0(%in: i32, %in_0: i32, %out: i32):
      %5 = arith.muli %in, %in_0 : i32
      linalg.yield %5 : i32
    } -> tensor<3x4xi32>
    %4 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg2 : tensor<3x4xi32>, tensor<3x4xi32>) outs(%0 : tensor<3x4xi32>) {
    ^bb0(%in: i32, %in_0: i32, %out: i32):
      %5 = arith.subi %in, %in_0 : i32
      linalg.yield %5 : i32
    } -> tensor<3x4xi32>
    return %2, %4 : tensor<3x4xi32>, tensor<3x4xi32>
  }
}
