#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
#map2 = affine_map<() -> ()>
#map3 = affine_map<(d0, d1) -> (d0)>
#map4 = affine_map<(d0) -> (d0)>
module {
  func.func @f64_internal(%arg0: tensor<3x4xf32>) -> (tensor<f32>, tensor<3xf32>) {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 2.000000e+00 : f64
    %0 = tensor.empty() : tensor<3x4xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3x4xf32>) outs(%0 : tensor<3x4xf64>) {
    ^bb0(%in: f32, %out: f64):
      %14 = arith.extf %in : f32 to f64
      linalg.yield %14 : f64
    } -> tensor<3x4xf64>
    %2 = tensor.empty() : tensor<f64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<f64>) -> tensor<f64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%1 : tensor<3x4xf64>) outs(%3 : tensor<f64>) {
    ^bb0(%in: f64, %out: f64):
      %14 = arith.addf %in, %out : f64
      linalg.yield %14 : f64
    } -> tensor<f64>
    %5 = tensor.empty() : tensor<f32>
    %6 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = []} ins(%4 : tensor<f64>) outs(%5 : tensor<f32>) {
    ^bb0(%in: f64, %out: f32):
      %14 = arith.truncf %in : f64 to f32
      linalg.yield %14 : f32
    } -> tensor<f32>
    %7 = linalg.elementwise <mul> indexing_maps = [#map, #map1, #map] ins(%1, %cst_0 : tensor<3x4xf64>, f64) outs(%0 : tensor<3x4xf64>) -> tensor<3x4xf64>
    %8 = linalg.elementwise <exp> ins(%7 : tensor<3x4xf64>) outs(%0 : tensor<3x4xf64>) -> tensor<3x4xf64>
    %9 = tensor.empty() : tensor<3xf64>
    %10 = linalg.fill ins(%cst : f64) outs(%9 : tensor<3xf64>) -> tensor<3xf64>
    %11 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "reduction"]} ins(%8 : tensor<3x4xf64>) outs(%10 : tensor<3xf64>) {
    ^bb0(%in: f64, %out: f64):
      %14 = arith.addf %in, %out : f64
      linalg.yield %14 : f64
    } -> tensor<3xf64>
    %12 = tensor.empty() : tensor<3xf32>
    %13 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel"]} ins(%11 : tensor<3xf64>) outs(%12 : tensor<3xf32>) {
    ^bb0(%in: f64, %out: f32):
      %14 = arith.truncf %in : f64 to f32
      linalg.yield %14 : f32
    } -> tensor<3xf32>
    return %6, %13 : tensor<f32>, tensor<3xf32>
  }
}

