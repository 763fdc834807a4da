#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, 0, d2)>
#map2 = affine_map<(d0, d1, d2) -> ()>
#map3 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> ()>
#map6 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
module {
  func.func @var_std(%arg0: tensor<3x5x4xf32>) -> (tensor<3x4xf32>, tensor<3x5x1xf32>) {
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 4.000000e+00 : f64
    %cst_1 = arith.constant 5.000000e+00 : f64
    %0 = tensor.empty() : tensor<3x5x4xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<3x5x4xf32>) outs(%0 : tensor<3x5x4xf64>) {
    ^bb0(%in: f32, %out: f64):
      %25 = arith.extf %in : f32 to f64
      linalg.yield %25 : f64
    } -> tensor<3x5x4xf64>
    %2 = tensor.empty() : tensor<3x1x4xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<3x1x4xf64>) -> tensor<3x1x4xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "reduction", "parallel"]} ins(%1 : tensor<3x5x4xf64>) outs(%3 : tensor<3x1x4xf64>) {
    ^bb0(%in: f64, %out: f64):
      %25 = arith.addf %in, %out : f64
      linalg.yield %25 : f64
    } -> tensor<3x1x4xf64>
    %5 = linalg.elementwise <div> indexing_maps = [#map, #map2, #map] ins(%4, %cst_1 : tensor<3x1x4xf64>, f64) outs(%2 : tensor<3x1x4xf64>) -> tensor<3x1x4xf64>
    %6 = linalg.elementwise <sub> indexing_maps = [#map, #map1, #map] ins(%1, %5 : tensor<3x5x4xf64>, tensor<3x1x4xf64>) outs(%0 : tensor<3x5x4xf64>) -> tensor<3x5x4xf64>
    %7 = linalg.elementwise <mul> ins(%6, %6 : tensor<3x5x4xf64>, tensor<3x5x4xf64>) outs(%0 : tensor<3x5x4xf64>) -> tensor<3x5x4xf64>
    %8 = tensor.empty() : tensor<3x4xf64>
    %9 = linalg.fill ins(%cst : f64) outs(%8 : tensor<3x4xf64>) -> tensor<3x4xf64>
    %10 = linalg.generic {indexing_maps = [#map, #map3], iterator_types = ["parallel", "reduction", "parallel"]} ins(%7 : tensor<3x5x4xf64>) outs(%9 : tensor<3x4xf64>) {
    ^bb0(%in: f64, %out: f64):
      %25 = arith.addf %in, %out : f64
      linalg.yield %25 : f64
    } -> tensor<3x4xf64>
    %11 = linalg.elementwise <div> indexing_maps = [#map4, #map5, #map4] ins(%10, %cst_0 : tensor<3x4xf64>, f64) outs(%8 : tensor<3x4xf64>) -> tensor<3x4xf64>
    %12 = tensor.empty() : tensor<3x4xf32>
    %13 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<3x4xf64>) outs(%12 : tensor<3x4xf32>) {
    ^bb0(%in: f64, %out: f32):
      %25 = arith.truncf %in : f64 to f32
      linalg.yield %25 : f32
    } -> tensor<3x4xf32>
    %14 = tensor.empty() : tensor<3x5x1xf64>
    %15 = linalg.fill ins(%cst : f64) outs(%14 : tensor<3x5x1xf64>) -> tensor<3x5x1xf64>
    %16 = linalg.generic {indexing_maps = [#map, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<3x5x4xf64>) outs(%15 : tensor<3x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %25 = arith.addf %in, %out : f64
      linalg.yield %25 : f64
    } -> tensor<3x5x1xf64>
    %17 = linalg.elementwise <div> indexing_maps = [#map, #map2, #map] ins(%16, %cst_0 : tensor<3x5x1xf64>, f64) outs(%14 : tensor<3x5x1xf64>) -> tensor<3x5x1xf64>
    %18 = linalg.elementwise <sub> indexing_maps = [#map, #map6, #map] ins(%1, %17 : tensor<3x5x4xf64>, tensor<3x5x1xf64>) outs(%0 : tensor<3x5x4xf64>) -> tensor<3x5x4xf64>
    %19 = linalg.elementwise <mul> ins(%18, %18 : tensor<3x5x4xf64>, tensor<3x5x4xf64>) outs(%0 : tensor<3x5x4xf64>) -> tensor<3x5x4xf64>
    %20 = linalg.generic {indexing_maps = [#map, #map6], iterator_types = ["parallel", "parallel", "reduction"]} ins(%19 : tensor<3x5x4xf64>) outs(%15 : tensor<3x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %25 = arith.addf %in, %out : f64
      linalg.yield %25 : f64
    } -> tensor<3x5x1xf64>
    %21 = linalg.elementwise <div> indexing_maps = [#map, #map2, #map] ins(%20, %cst_0 : tensor<3x5x1xf64>, f64) outs(%14 : tensor<3x5x1xf64>) -> tensor<3x5x1xf64>
    %22 = tensor.empty() : tensor<3x5x1xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%21 : tensor<3x5x1xf64>) outs(%22 : tensor<3x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %25 = arith.truncf %in : f64 to f32
      linalg.yield %25 : f32
    } -> tensor<3x5x1xf32>
    %24 = linalg.elementwise <sqrt> ins(%23 : tensor<3x5x1xf32>) outs(%22 : tensor<3x5x1xf32>) -> tensor<3x5x1xf32>
    return %13, %24 : tensor<3x4xf32>, tensor<3x5x1xf32>
  }
}

