#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @batchnorm_eval(%arg0: tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense<[1.61322713, 2.08039808, 1.04420984]> : tensor<3xf32>
    %cst_2 = arith.constant dense<[[[0.0806693658]], [[0.167605266]], [[-0.143851519]]]> : tensor<3x1x1xf32>
    %cst_3 = arith.constant dense<[[[1.77049804]], [[0.853285551]], [[-0.0893946886]]]> : tensor<3x1x1xf32>
    %cst_4 = arith.constant dense<[[[0.0568431281]], [[-0.108452238]], [[-0.139859542]]]> : tensor<3x1x1xf32>
    %0 = tensor.empty() : tensor<3xf32>
    %1 = linalg.elementwise <sqrt> ins(%cst_1 : tensor<3xf32>) outs(%0 : tensor<3xf32>) -> tensor<3xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%1 : tensor<3xf32>) outs(%0 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = arith.cmpf one, %in, %cst : f32
      cf.assert %8, "unimplemented: tensor with zero element"
      %9 = arith.divf %cst_0, %in : f32
      linalg.yield %9 : f32
    } -> tensor<3xf32>
    %expanded = tensor.expand_shape %2 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %3 = tensor.empty() : tensor<2x3x4x4xf32>
    %4 = linalg.elementwise <sub> indexing_maps = [#map1, #map2, #map1] ins(%arg0, %cst_2 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%3 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %5 = linalg.elementwise <mul> indexing_maps = [#map1, #map2, #map1] ins(%4, %expanded : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%3 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %6 = linalg.elementwise <mul> indexing_maps = [#map1, #map2, #map1] ins(%5, %cst_3 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%3 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %7 = linalg.elementwise <add> indexing_maps = [#map1, #map2, #map1] ins(%6, %cst_4 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%3 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    return %7 : tensor<2x3x4x4xf32>
  }
}

