#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @amax_amin(%arg0: tensor<3x5x4xf32>) -> (tensor<3x4xf32>, tensor<5xf32>) {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0xFF800000 : f32
    %cst_0 = arith.constant 0x7F800000 : f32
    %0 = tensor.empty() : tensor<3x4xi64>
    %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<3x4xi64>) -> tensor<3x4xi64>
    %2 = tensor.empty() : tensor<3x4xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %4:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0 : tensor<3x5x4xf32>) outs(%3, %1 : tensor<3x4xf32>, tensor<3x4xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %15 = linalg.index 1 : index
      %16 = arith.index_cast %15 : index to i64
      %17 = arith.maximumf %in, %out : f32
      %18 = arith.cmpf ogt, %in, %out : f32
      %19 = arith.select %18, %16, %out_1 : i64
      linalg.yield %17, %19 : f32, i64
    } -> (tensor<3x4xf32>, tensor<3x4xi64>)
    %5 = tensor.empty() : tensor<3x5xi64>
    %6 = linalg.fill ins(%c0_i64 : i64) outs(%5 : tensor<3x5xi64>) -> tensor<3x5xi64>
    %7 = tensor.empty() : tensor<3x5xf32>
    %8 = linalg.fill ins(%cst_0 : f32) outs(%7 : tensor<3x5xf32>) -> tensor<3x5xf32>
    %9:2 = linalg.generic {indexing_maps = [#map, #map2, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<3x5x4xf32>) outs(%8, %6 : tensor<3x5xf32>, tensor<3x5xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %15 = linalg.index 2 : index
      %16 = arith.index_cast %15 : index to i64
      %17 = arith.minimumf %in, %out : f32
      %18 = arith.cmpf olt, %in, %out : f32
      %19 = arith.select %18, %16, %out_1 : i64
      linalg.yield %17, %19 : f32, i64
    } -> (tensor<3x5xf32>, tensor<3x5xi64>)
    %10 = tensor.empty() : tensor<5xi64>
    %11 = linalg.fill ins(%c0_i64 : i64) outs(%10 : tensor<5xi64>) -> tensor<5xi64>
    %12 = tensor.empty() : tensor<5xf32>
    %13 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<5xf32>) -> tensor<5xf32>
    %14:2 = linalg.generic {indexing_maps = [#map3, #map4, #map4], iterator_types = ["reduction", "parallel"]} ins(%9#0 : tensor<3x5xf32>) outs(%13, %11 : tensor<5xf32>, tensor<5xi64>) {
    ^bb0(%in: f32, %out: f32, %out_1: i64):
      %15 = linalg.index 0 : index
      %16 = arith.index_cast %15 : index to i64
      %17 = arith.minimumf %in, %out : f32
      %18 = arith.cmpf olt, %in, %out : f32
      %19 = arith.select %18, %16, %out_1 : i64
      linalg.yield %17, %19 : f32, i64
    } -> (tensor<5xf32>, tensor<5xi64>)
    return %4#0, %14#0 : tensor<3x4xf32>, tensor<5xf32>
  }
}

