#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @resnet_basic_s1_f16(%arg0: tensor<8x64x56x56xf16>, %arg1: tensor<64x64x3x3xf16>, %arg2: tensor<64xf16>, %arg3: tensor<64xf16>, %arg4: tensor<64xf16>, %arg5: tensor<64xf16>, %arg6: tensor<64x64x3x3xf16>, %arg7: tensor<64xf16>, %arg8: tensor<64xf16>, %arg9: tensor<64xf16>, %arg10: tensor<64xf16>) -> tensor<8x64x56x56xf16> {
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant 1.000000e-05 : f64
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg11: index, %arg12: index, %arg13: index, %arg14: index):
      tensor.yield %cst : f16
    } : tensor<8x64x56x56xf16> to tensor<8x64x58x58xf16>
    %0 = tensor.empty() : tensor<8x64x56x56xf32>
    %1 = linalg.fill ins(%cst_0 : f32) outs(%0 : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %arg1 : tensor<8x64x58x58xf16>, tensor<64x64x3x3xf16>) outs(%1 : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
    %3 = tensor.empty() : tensor<8x64x56x56xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<8x64x56x56xf32>) outs(%3 : tensor<8x64x56x56xf16>) {
    ^bb0(%in: f32, %out: f16):
      %31 = arith.truncf %in : f32 to f16
      linalg.yield %31 : f16
    } -> tensor<8x64x56x56xf16>
    %5 = tensor.empty() : tensor<64xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%arg4 : tensor<64xf16>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f16, %out: f32):
      %31 = arith.extf %in : f16 to f32
      linalg.yield %31 : f32
    } -> tensor<64xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%arg5 : tensor<64xf16>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f16, %out: f32):
      %31 = arith.extf %in : f16 to f32
      linalg.yield %31 : f32
    } -> tensor<64xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%7 : tensor<64xf32>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.truncf %cst_2 : f64 to f32
      %32 = arith.addf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<64xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%8 : tensor<64xf32>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.sqrt %in : f32
      linalg.yield %31 : f32
    } -> tensor<64xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%9 : tensor<64xf32>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.cmpf one, %in, %cst_0 : f32
      cf.assert %31, "unimplemented: tensor with zero element"
      %32 = arith.divf %cst_1, %in : f32
      linalg.yield %32 : f32
    } -> tensor<64xf32>
    %expanded = tensor.expand_shape %6 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %expanded_3 = tensor.expand_shape %10 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%4, %expanded : tensor<8x64x56x56xf16>, tensor<64x1x1xf32>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f16, %in_11: f32, %out: f32):
      %31 = arith.extf %in : f16 to f32
      %32 = arith.subf %31, %in_11 : f32
      linalg.yield %32 : f32
    } -> tensor<8x64x56x56xf32>
    %12 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %expanded_3 : tensor<8x64x56x56xf32>, tensor<64x1x1xf32>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %31 = arith.mulf %in, %in_11 : f32
      linalg.yield %31 : f32
    } -> tensor<8x64x56x56xf32>
    %expanded_4 = tensor.expand_shape %arg2 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf16> into tensor<64x1x1xf16>
    %13 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %expanded_4 : tensor<8x64x56x56xf32>, tensor<64x1x1xf16>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f32, %in_11: f16, %out: f32):
      %31 = arith.extf %in_11 : f16 to f32
      %32 = arith.mulf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<8x64x56x56xf32>
    %expanded_5 = tensor.expand_shape %arg3 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf16> into tensor<64x1x1xf16>
    %14 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %expanded_5 : tensor<8x64x56x56xf32>, tensor<64x1x1xf16>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f32, %in_11: f16, %out: f32):
      %31 = arith.extf %in_11 : f16 to f32
      %32 = arith.addf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<8x64x56x56xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14 : tensor<8x64x56x56xf32>) outs(%3 : tensor<8x64x56x56xf16>) {
    ^bb0(%in: f32, %out: f16):
      %31 = arith.truncf %in : f32 to f16
      linalg.yield %31 : f16
    } -> tensor<8x64x56x56xf16>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<8x64x56x56xf16>) outs(%3 : tensor<8x64x56x56xf16>) {
    ^bb0(%in: f16, %out: f16):
      %31 = arith.cmpf ugt, %in, %cst : f16
      %32 = arith.select %31, %in, %cst : f16
      linalg.yield %32 : f16
    } -> tensor<8x64x56x56xf16>
    %padded_6 = tensor.pad %16 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg11: index, %arg12: index, %arg13: index, %arg14: index):
      tensor.yield %cst : f16
    } : tensor<8x64x56x56xf16> to tensor<8x64x58x58xf16>
    %17 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_6, %arg6 : tensor<8x64x58x58xf16>, tensor<64x64x3x3xf16>) outs(%1 : tensor<8x64x56x56xf32>) -> tensor<8x64x56x56xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17 : tensor<8x64x56x56xf32>) outs(%3 : tensor<8x64x56x56xf16>) {
    ^bb0(%in: f32, %out: f16):
      %31 = arith.truncf %in : f32 to f16
      linalg.yield %31 : f16
    } -> tensor<8x64x56x56xf16>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%arg9 : tensor<64xf16>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f16, %out: f32):
      %31 = arith.extf %in : f16 to f32
      linalg.yield %31 : f32
    } -> tensor<64xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%arg10 : tensor<64xf16>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f16, %out: f32):
      %31 = arith.extf %in : f16 to f32
      linalg.yield %31 : f32
    } -> tensor<64xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%20 : tensor<64xf32>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.truncf %cst_2 : f64 to f32
      %32 = arith.addf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<64xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%21 : tensor<64xf32>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = math.sqrt %in : f32
      linalg.yield %31 : f32
    } -> tensor<64xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel"]} ins(%22 : tensor<64xf32>) outs(%5 : tensor<64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %31 = arith.cmpf one, %in, %cst_0 : f32
      cf.assert %31, "unimplemented: tensor with zero element"
      %32 = arith.divf %cst_1, %in : f32
      linalg.yield %32 : f32
    } -> tensor<64xf32>
    %expanded_7 = tensor.expand_shape %19 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %expanded_8 = tensor.expand_shape %23 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf32> into tensor<64x1x1xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_7 : tensor<8x64x56x56xf16>, tensor<64x1x1xf32>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f16, %in_11: f32, %out: f32):
      %31 = arith.extf %in : f16 to f32
      %32 = arith.subf %31, %in_11 : f32
      linalg.yield %32 : f32
    } -> tensor<8x64x56x56xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %expanded_8 : tensor<8x64x56x56xf32>, tensor<64x1x1xf32>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %31 = arith.mulf %in, %in_11 : f32
      linalg.yield %31 : f32
    } -> tensor<8x64x56x56xf32>
    %expanded_9 = tensor.expand_shape %arg7 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf16> into tensor<64x1x1xf16>
    %26 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %expanded_9 : tensor<8x64x56x56xf32>, tensor<64x1x1xf16>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f32, %in_11: f16, %out: f32):
      %31 = arith.extf %in_11 : f16 to f32
      %32 = arith.mulf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<8x64x56x56xf32>
    %expanded_10 = tensor.expand_shape %arg8 [[0, 1, 2]] output_shape [64, 1, 1] : tensor<64xf16> into tensor<64x1x1xf16>
    %27 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %expanded_10 : tensor<8x64x56x56xf32>, tensor<64x1x1xf16>) outs(%0 : tensor<8x64x56x56xf32>) {
    ^bb0(%in: f32, %in_11: f16, %out: f32):
      %31 = arith.extf %in_11 : f16 to f32
      %32 = arith.addf %in, %31 : f32
      linalg.yield %32 : f32
    } -> tensor<8x64x56x56xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%27 : tensor<8x64x56x56xf32>) outs(%3 : tensor<8x64x56x56xf16>) {
    ^bb0(%in: f32, %out: f16):
      %31 = arith.truncf %in : f32 to f16
      linalg.yield %31 : f16
    } -> tensor<8x64x56x56xf16>
    %29 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%28, %arg0 : tensor<8x64x56x56xf16>, tensor<8x64x56x56xf16>) outs(%3 : tensor<8x64x56x56xf16>) {
    ^bb0(%in: f16, %in_11: f16, %out: f16):
      %31 = arith.addf %in, %in_11 : f16
      linalg.yield %31 : f16
    } -> tensor<8x64x56x56xf16>
    %30 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<8x64x56x56xf16>) outs(%3 : tensor<8x64x56x56xf16>) {
    ^bb0(%in: f16, %out: f16):
      %31 = arith.cmpf ugt, %in, %cst : f16
      %32 = arith.select %31, %in, %cst : f16
      linalg.yield %32 : f16
    } -> tensor<8x64x56x56xf16>
    return %30 : tensor<8x64x56x56xf16>
  }
}
