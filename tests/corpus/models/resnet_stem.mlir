#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @resnet_stem(%arg0: tensor<2x3x16x16xf32>, %arg1: tensor<8x3x7x7xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8xf32>, %arg4: tensor<8xf32>, %arg5: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.000000e-05 : f64
    %padded = tensor.pad %arg0 low[0, 0, 3, 3] high[0, 0, 3, 3] {
    ^bb0(%arg6: index, %arg7: index, %arg8: index, %arg9: index):
      tensor.yield %cst : f32
    } : tensor<2x3x16x16xf32> to tensor<2x3x22x22xf32>
    %0 = tensor.empty() : tensor<2x8x8x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg1 : tensor<2x3x22x22xf32>, tensor<8x3x7x7xf32>) outs(%1 : tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
    %3 = tensor.empty() : tensor<8xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg5 : tensor<8xf32>) outs(%3 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.truncf %cst_2 : f64 to f32
      %17 = arith.addf %in, %16 : f32
      linalg.yield %17 : f32
    } -> tensor<8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<8xf32>) outs(%3 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = math.sqrt %in : f32
      linalg.yield %16 : f32
    } -> tensor<8xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%5 : tensor<8xf32>) outs(%3 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.cmpf one, %in, %cst : f32
      cf.assert %16, "unimplemented: tensor with zero element"
      %17 = arith.divf %cst_0, %in : f32
      linalg.yield %17 : f32
    } -> tensor<8xf32>
    %expanded = tensor.expand_shape %arg4 [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
    %expanded_3 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %expanded : tensor<2x8x8x8xf32>, tensor<8x1x1xf32>) outs(%0 : tensor<2x8x8x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.subf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<2x8x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_3 : tensor<2x8x8x8xf32>, tensor<8x1x1xf32>) outs(%0 : tensor<2x8x8x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.mulf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<2x8x8x8xf32>
    %expanded_4 = tensor.expand_shape %arg2 [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_4 : tensor<2x8x8x8xf32>, tensor<8x1x1xf32>) outs(%0 : tensor<2x8x8x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.mulf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<2x8x8x8xf32>
    %expanded_5 = tensor.expand_shape %arg3 [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %expanded_5 : tensor<2x8x8x8xf32>, tensor<8x1x1xf32>) outs(%0 : tensor<2x8x8x8xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %16 = arith.addf %in, %in_7 : f32
      linalg.yield %16 : f32
    } -> tensor<2x8x8x8xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x8x8x8xf32>) outs(%0 : tensor<2x8x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %16 = arith.cmpf ugt, %in, %cst : f32
      %17 = arith.select %16, %in, %cst : f32
      linalg.yield %17 : f32
    } -> tensor<2x8x8x8xf32>
    %padded_6 = tensor.pad %11 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg6: index, %arg7: index, %arg8: index, %arg9: index):
      tensor.yield %cst_1 : f32
    } : tensor<2x8x8x8xf32> to tensor<2x8x10x10xf32>
    %12 = tensor.empty() : tensor<2x8x4x4xf32>
    %13 = linalg.fill ins(%cst_1 : f32) outs(%12 : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
    %14 = tensor.empty() : tensor<3x3xf32>
    %15 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_6, %14 : tensor<2x8x10x10xf32>, tensor<3x3xf32>) outs(%13 : tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32>
    return %15 : tensor<2x8x4x4xf32>
  }
}
