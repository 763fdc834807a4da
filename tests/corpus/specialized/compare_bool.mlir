#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @compare_bool(%arg0: tensor<3x4xi64>, %arg1: tensor<3x4xi64>) -> (tensor<3x4xi1>, tensor<3x4xi1>) {
    %cst = arith.constant 2.500000e-01 : f64
    %cst_0 = arith.constant 5.000000e-01 : f32
    %0 = tensor.empty() : tensor<3x4xi1>
    %1 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi1>) {
    ^bb0(%in: i64, %in_1: i64, %out: i1):
      %8 = arith.cmpi sgt, %in, %in_1 : i64
      linalg.yield %8 : i1
    } -> tensor<3x4xi1>
    %2 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0, %arg1 : tensor<3x4xi64>, tensor<3x4xi64>) outs(%0 : tensor<3x4xi1>) {
    ^bb0(%in: i64, %in_1: i64, %out: i1):
      %8 = arith.cmpi eq, %in, %in_1 : i64
      linalg.yield %8 : i1
    } -> tensor<3x4xi1>
    %3 = tensor.empty() : tensor<3x4xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3x4xi64>) outs(%3 : tensor<3x4xf32>) {
    ^bb0(%in: i64, %out: f32):
      %8 = arith.sitofp %in : i64 to f32
      linalg.yield %8 : f32
    } -> tensor<3x4xf32>
    %5 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map] ins(%4, %cst_0 : tensor<3x4xf32>, f32) outs(%3 : tensor<3x4xf32>) -> tensor<3x4xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%5 : tensor<3x4xf32>) outs(%0 : tensor<3x4xi1>) {
    ^bb0(%in: f32, %out: i1):
      %8 = arith.extf %in : f32 to f64
      %9 = arith.cmpf olt, %8, %cst : f64
      linalg.yield %9 : i1
    } -> tensor<3x4xi1>
    %7 = linalg.elementwise <add> ins(%2, %6 : tensor<3x4xi1>, tensor<3x4xi1>) outs(%0 : tensor<3x4xi1>) -> tensor<3x4xi1>
    return %1, %7 : tensor<3x4xi1>, tensor<3x4xi1>
  }
}

