#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
module {
  func.func @resnext_bottleneck_s1(%arg0: tensor<8x256x56x56xf32>, %arg1: tensor<128x256x1x1xf32>, %arg2: tensor<128xf32>, %arg3: tensor<128xf32>, %arg4: tensor<128xf32>, %arg5: tensor<128xf32>, %arg6: tensor<128x4x3x3xf32>, %arg7: tensor<128xf32>, %arg8: tensor<128xf32>, %arg9: tensor<128xf32>, %arg10: tensor<128xf32>, %arg11: tensor<256x128x1x1xf32>, %arg12: tensor<256xf32>, %arg13: tensor<256xf32>, %arg14: tensor<256xf32>, %arg15: tensor<256xf32>) -> tensor<8x256x56x56xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 1.000000e-05 : f64
    %0 = tensor.empty() : tensor<8x128x56x56xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x128x56x56xf32>) -> tensor<8x128x56x56xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %arg1 : tensor<8x256x56x56xf32>, tensor<128x256x1x1xf32>) outs(%1 : tensor<8x128x56x56xf32>) -> tensor<8x128x56x56xf32>
    %3 = tensor.empty() : tensor<128xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg5 : tensor<128xf32>) outs(%3 : tensor<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.truncf %cst_1 : f64 to f32
      %36 = arith.addf %in, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<128xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<128xf32>) outs(%3 : tensor<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = math.sqrt %in : f32
      linalg.yield %35 : f32
    } -> tensor<128xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%5 : tensor<128xf32>) outs(%3 : tensor<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.cmpf one, %in, %cst : f32
      cf.assert %35, "unimplemented: tensor with zero element"
      %36 = arith.divf %cst_0, %in : f32
      linalg.yield %36 : f32
    } -> tensor<128xf32>
    %expanded = tensor.expand_shape %arg4 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %expanded_2 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %expanded : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.subf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_2 : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.mulf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %expanded_3 = tensor.expand_shape %arg2 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_3 : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.mulf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %expanded_4 = tensor.expand_shape %arg3 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %expanded_4 : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.addf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<8x128x56x56xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.cmpf ugt, %in, %cst : f32
      %36 = arith.select %35, %in, %cst : f32
      linalg.yield %36 : f32
    } -> tensor<8x128x56x56xf32>
    %padded = tensor.pad %11 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg16: index, %arg17: index, %arg18: index, %arg19: index):
      tensor.yield %cst : f32
    } : tensor<8x128x56x56xf32> to tensor<8x128x58x58xf32>
    %expanded_5 = tensor.expand_shape %padded [[0], [1, 2], [3], [4]] output_shape [8, 32, 4, 58, 58] : tensor<8x128x58x58xf32> into tensor<8x32x4x58x58xf32>
    %expanded_6 = tensor.expand_shape %arg6 [[0, 1], [2], [3], [4]] output_shape [32, 4, 4, 3, 3] : tensor<128x4x3x3xf32> into tensor<32x4x4x3x3xf32>
    %expanded_7 = tensor.expand_shape %0 [[0], [1, 2], [3], [4]] output_shape [8, 32, 4, 56, 56] : tensor<8x128x56x56xf32> into tensor<8x32x4x56x56xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%expanded_7 : tensor<8x32x4x56x56xf32>) -> tensor<8x32x4x56x56xf32>
    %13 = linalg.conv_2d_ngchw_gfchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%expanded_5, %expanded_6 : tensor<8x32x4x58x58xf32>, tensor<32x4x4x3x3xf32>) outs(%12 : tensor<8x32x4x56x56xf32>) -> tensor<8x32x4x56x56xf32>
    %collapsed = tensor.collapse_shape %13 [[0], [1, 2], [3], [4]] : tensor<8x32x4x56x56xf32> into tensor<8x128x56x56xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg10 : tensor<128xf32>) outs(%3 : tensor<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.truncf %cst_1 : f64 to f32
      %36 = arith.addf %in, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<128xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%14 : tensor<128xf32>) outs(%3 : tensor<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = math.sqrt %in : f32
      linalg.yield %35 : f32
    } -> tensor<128xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%15 : tensor<128xf32>) outs(%3 : tensor<128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.cmpf one, %in, %cst : f32
      cf.assert %35, "unimplemented: tensor with zero element"
      %36 = arith.divf %cst_0, %in : f32
      linalg.yield %36 : f32
    } -> tensor<128xf32>
    %expanded_8 = tensor.expand_shape %arg9 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %expanded_9 = tensor.expand_shape %16 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%collapsed, %expanded_8 : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.subf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %expanded_9 : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.mulf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %expanded_10 = tensor.expand_shape %arg7 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_10 : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.mulf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %expanded_11 = tensor.expand_shape %arg8 [[0, 1, 2]] output_shape [128, 1, 1] : tensor<128xf32> into tensor<128x1x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %expanded_11 : tensor<8x128x56x56xf32>, tensor<128x1x1xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.addf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x128x56x56xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<8x128x56x56xf32>) outs(%0 : tensor<8x128x56x56xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.cmpf ugt, %in, %cst : f32
      %36 = arith.select %35, %in, %cst : f32
      linalg.yield %36 : f32
    } -> tensor<8x128x56x56xf32>
    %22 = tensor.empty() : tensor<8x256x56x56xf32>
    %23 = linalg.fill ins(%cst : f32) outs(%22 : tensor<8x256x56x56xf32>) -> tensor<8x256x56x56xf32>
    %24 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%21, %arg11 : tensor<8x128x56x56xf32>, tensor<256x128x1x1xf32>) outs(%23 : tensor<8x256x56x56xf32>) -> tensor<8x256x56x56xf32>
    %25 = tensor.empty() : tensor<256xf32>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg15 : tensor<256xf32>) outs(%25 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.truncf %cst_1 : f64 to f32
      %36 = arith.addf %in, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<256xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%26 : tensor<256xf32>) outs(%25 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = math.sqrt %in : f32
      linalg.yield %35 : f32
    } -> tensor<256xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%27 : tensor<256xf32>) outs(%25 : tensor<256xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.cmpf one, %in, %cst : f32
      cf.assert %35, "unimplemented: tensor with zero element"
      %36 = arith.divf %cst_0, %in : f32
      linalg.yield %36 : f32
    } -> tensor<256xf32>
    %expanded_12 = tensor.expand_shape %arg14 [[0, 1, 2]] output_shape [256, 1, 1] : tensor<256xf32> into tensor<256x1x1xf32>
    %expanded_13 = tensor.expand_shape %28 [[0, 1, 2]] output_shape [256, 1, 1] : tensor<256xf32> into tensor<256x1x1xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %expanded_12 : tensor<8x256x56x56xf32>, tensor<256x1x1xf32>) outs(%22 : tensor<8x256x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.subf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x256x56x56xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29, %expanded_13 : tensor<8x256x56x56xf32>, tensor<256x1x1xf32>) outs(%22 : tensor<8x256x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.mulf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x256x56x56xf32>
    %expanded_14 = tensor.expand_shape %arg12 [[0, 1, 2]] output_shape [256, 1, 1] : tensor<256xf32> into tensor<256x1x1xf32>
    %31 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %expanded_14 : tensor<8x256x56x56xf32>, tensor<256x1x1xf32>) outs(%22 : tensor<8x256x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.mulf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x256x56x56xf32>
    %expanded_15 = tensor.expand_shape %arg13 [[0, 1, 2]] output_shape [256, 1, 1] : tensor<256xf32> into tensor<256x1x1xf32>
    %32 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31, %expanded_15 : tensor<8x256x56x56xf32>, tensor<256x1x1xf32>) outs(%22 : tensor<8x256x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.addf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x256x56x56xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32, %arg0 : tensor<8x256x56x56xf32>, tensor<8x256x56x56xf32>) outs(%22 : tensor<8x256x56x56xf32>) {
    ^bb0(%in: f32, %in_16: f32, %out: f32):
      %35 = arith.addf %in, %in_16 : f32
      linalg.yield %35 : f32
    } -> tensor<8x256x56x56xf32>
    %34 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33 : tensor<8x256x56x56xf32>) outs(%22 : tensor<8x256x56x56xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.cmpf ugt, %in, %cst : f32
      %36 = arith.select %35, %in, %cst : f32
      linalg.yield %36 : f32
    } -> tensor<8x256x56x56xf32>
    return %34 : tensor<8x256x56x56xf32>
  }
}
