#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#map6 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @resnet18_b32(%arg0: tensor<2x3x16x16xf32>, %arg1: tensor<3x3x7x7xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<3xf32>, %arg5: tensor<3xf32>, %arg6: tensor<3x3x3x3xf32>, %arg7: tensor<3xf32>, %arg8: tensor<3xf32>, %arg9: tensor<3xf32>, %arg10: tensor<3xf32>, %arg11: tensor<3x3x3x3xf32>, %arg12: tensor<3xf32>, %arg13: tensor<3xf32>, %arg14: tensor<3xf32>, %arg15: tensor<3xf32>, %arg16: tensor<3x3x3x3xf32>, %arg17: tensor<3xf32>, %arg18: tensor<3xf32>, %arg19: tensor<3xf32>, %arg20: tensor<3xf32>, %arg21: tensor<3x3x3x3xf32>, %arg22: tensor<3xf32>, %arg23: tensor<3xf32>, %arg24: tensor<3xf32>, %arg25: tensor<3xf32>, %arg26: tensor<6x3x3x3xf32>, %arg27: tensor<6xf32>, %arg28: tensor<6xf32>, %arg29: tensor<6xf32>, %arg30: tensor<6xf32>, %arg31: tensor<6x6x3x3xf32>, %arg32: tensor<6xf32>, %arg33: tensor<6xf32>, %arg34: tensor<6xf32>, %arg35: tensor<6xf32>, %arg36: tensor<6x3x1x1xf32>, %arg37: tensor<6xf32>, %arg38: tensor<6xf32>, %arg39: tensor<6xf32>, %arg40: tensor<6xf32>, %arg41: tensor<6x6x3x3xf32>, %arg42: tensor<6xf32>, %arg43: tensor<6xf32>, %arg44: tensor<6xf32>, %arg45: tensor<6xf32>, %arg46: tensor<6x6x3x3xf32>, %arg47: tensor<6xf32>, %arg48: tensor<6xf32>, %arg49: tensor<6xf32>, %arg50: tensor<6xf32>, %arg51: tensor<12x6x3x3xf32>, %arg52: tensor<12xf32>, %arg53: tensor<12xf32>, %arg54: tensor<12xf32>, %arg55: tensor<12xf32>, %arg56: tensor<12x12x3x3xf32>, %arg57: tensor<12xf32>, %arg58: tensor<12xf32>, %arg59: tensor<12xf32>, %arg60: tensor<12xf32>, %arg61: tensor<12x6x1x1xf32>, %arg62: tensor<12xf32>, %arg63: tensor<12xf32>, %arg64: tensor<12xf32>, %arg65: tensor<12xf32>, %arg66: tensor<12x12x3x3xf32>, %arg67: tensor<12xf32>, %arg68: tensor<12xf32>, %arg69: tensor<12xf32>, %arg70: tensor<12xf32>, %arg71: tensor<12x12x3x3xf32>, %arg72: tensor<12xf32>, %arg73: tensor<12xf32>, %arg74: tensor<12xf32>, %arg75: tensor<12xf32>, %arg76: tensor<24x12x3x3xf32>, %arg77: tensor<24xf32>, %arg78: tensor<24xf32>, %arg79: tensor<24xf32>, %arg80: tensor<24xf32>, %arg81: tensor<24x24x3x3xf32>, %arg82: tensor<24xf32>, %arg83: tensor<24xf32>, %arg84: tensor<24xf32>, %arg85: tensor<24xf32>, %arg86: tensor<24x12x1x1xf32>, %arg87: tensor<24xf32>, %arg88: tensor<24xf32>, %arg89: tensor<24xf32>, %arg90: tensor<24xf32>, %arg91: tensor<24x24x3x3xf32>, %arg92: tensor<24xf32>, %arg93: tensor<24xf32>, %arg94: tensor<24xf32>, %arg95: tensor<24xf32>, %arg96: tensor<24x24x3x3xf32>, %arg97: tensor<24xf32>, %arg98: tensor<24xf32>, %arg99: tensor<24xf32>, %arg100: tensor<24xf32>, %arg101: tensor<10x24xf32>, %arg102: tensor<10xf32>) -> tensor<2x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.000000e-05 : f64
    %padded = tensor.pad %arg0 low[0, 0, 3, 3] high[0, 0, 3, 3] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x3x16x16xf32> to tensor<2x3x22x22xf32>
    %0 = tensor.empty() : tensor<2x3x8x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %arg1 : tensor<2x3x22x22xf32>, tensor<3x3x7x7xf32>) outs(%1 : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
    %3 = tensor.empty() : tensor<3xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg5 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<3xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%5 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %expanded = tensor.expand_shape %arg4 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %expanded_3 = tensor.expand_shape %6 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %expanded : tensor<2x3x8x8xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %expanded_3 : tensor<2x3x8x8xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x8x8xf32>
    %expanded_4 = tensor.expand_shape %arg2 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %expanded_4 : tensor<2x3x8x8xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x8x8xf32>
    %expanded_5 = tensor.expand_shape %arg3 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %expanded_5 : tensor<2x3x8x8xf32>, tensor<3x1x1xf32>) outs(%0 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x8x8xf32>
    %11 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<2x3x8x8xf32>) outs(%0 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x3x8x8xf32>
    %padded_6 = tensor.pad %11 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst_1 : f32
    } : tensor<2x3x8x8xf32> to tensor<2x3x10x10xf32>
    %12 = tensor.empty() : tensor<2x3x4x4xf32>
    %13 = linalg.fill ins(%cst_1 : f32) outs(%12 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %14 = tensor.empty() : tensor<3x3xf32>
    %15 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_6, %14 : tensor<2x3x10x10xf32>, tensor<3x3xf32>) outs(%13 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %padded_7 = tensor.pad %15 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x3x4x4xf32> to tensor<2x3x6x6xf32>
    %16 = linalg.fill ins(%cst : f32) outs(%12 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %17 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_7, %arg6 : tensor<2x3x6x6xf32>, tensor<3x3x3x3xf32>) outs(%16 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg10 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%18 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<3xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%19 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %expanded_8 = tensor.expand_shape %arg9 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %expanded_9 = tensor.expand_shape %20 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %expanded_8 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %expanded_9 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_10 = tensor.expand_shape %arg7 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %23 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %expanded_10 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_11 = tensor.expand_shape %arg8 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%23, %expanded_11 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<2x3x4x4xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x3x4x4xf32>
    %padded_12 = tensor.pad %25 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x3x4x4xf32> to tensor<2x3x6x6xf32>
    %26 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_12, %arg11 : tensor<2x3x6x6xf32>, tensor<3x3x3x3xf32>) outs(%16 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %27 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg15 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %28 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%27 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<3xf32>
    %29 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%28 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %expanded_13 = tensor.expand_shape %arg14 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %expanded_14 = tensor.expand_shape %29 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %expanded_13 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %31 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %expanded_14 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_15 = tensor.expand_shape %arg12 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %32 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31, %expanded_15 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_16 = tensor.expand_shape %arg13 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %33 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%32, %expanded_16 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %34 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33, %15 : tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%34 : tensor<2x3x4x4xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x3x4x4xf32>
    %padded_17 = tensor.pad %35 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x3x4x4xf32> to tensor<2x3x6x6xf32>
    %36 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_17, %arg16 : tensor<2x3x6x6xf32>, tensor<3x3x3x3xf32>) outs(%16 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %37 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg20 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %38 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%37 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<3xf32>
    %39 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%38 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %expanded_18 = tensor.expand_shape %arg19 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %expanded_19 = tensor.expand_shape %39 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %40 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %expanded_18 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %41 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40, %expanded_19 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_20 = tensor.expand_shape %arg17 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %42 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41, %expanded_20 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_21 = tensor.expand_shape %arg18 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %43 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42, %expanded_21 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %44 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43 : tensor<2x3x4x4xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x3x4x4xf32>
    %padded_22 = tensor.pad %44 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x3x4x4xf32> to tensor<2x3x6x6xf32>
    %45 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_22, %arg21 : tensor<2x3x6x6xf32>, tensor<3x3x3x3xf32>) outs(%16 : tensor<2x3x4x4xf32>) -> tensor<2x3x4x4xf32>
    %46 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg25 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %47 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%46 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<3xf32>
    %48 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%47 : tensor<3xf32>) outs(%3 : tensor<3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<3xf32>
    %expanded_23 = tensor.expand_shape %arg24 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %expanded_24 = tensor.expand_shape %48 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %49 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45, %expanded_23 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %50 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49, %expanded_24 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_25 = tensor.expand_shape %arg22 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %51 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%50, %expanded_25 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %expanded_26 = tensor.expand_shape %arg23 [[0, 1, 2]] output_shape [3, 1, 1] : tensor<3xf32> into tensor<3x1x1xf32>
    %52 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51, %expanded_26 : tensor<2x3x4x4xf32>, tensor<3x1x1xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %53 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%52, %35 : tensor<2x3x4x4xf32>, tensor<2x3x4x4xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x3x4x4xf32>
    %54 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%53 : tensor<2x3x4x4xf32>) outs(%12 : tensor<2x3x4x4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x3x4x4xf32>
    %55 = tensor.empty() : tensor<2x6x2x2xf32>
    %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<2x6x2x2xf32>) -> tensor<2x6x2x2xf32>
    %57 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%54, %arg36 : tensor<2x3x4x4xf32>, tensor<6x3x1x1xf32>) outs(%56 : tensor<2x6x2x2xf32>) -> tensor<2x6x2x2xf32>
    %58 = tensor.empty() : tensor<6xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg40 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %60 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%59 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<6xf32>
    %61 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%60 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %expanded_27 = tensor.expand_shape %arg39 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %expanded_28 = tensor.expand_shape %61 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %62 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%57, %expanded_27 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %63 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%62, %expanded_28 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_29 = tensor.expand_shape %arg37 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %64 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63, %expanded_29 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_30 = tensor.expand_shape %arg38 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %65 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64, %expanded_30 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %padded_31 = tensor.pad %54 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x3x4x4xf32> to tensor<2x3x6x6xf32>
    %66 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_31, %arg26 : tensor<2x3x6x6xf32>, tensor<6x3x3x3xf32>) outs(%56 : tensor<2x6x2x2xf32>) -> tensor<2x6x2x2xf32>
    %67 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg30 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%67 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<6xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%68 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %expanded_32 = tensor.expand_shape %arg29 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %expanded_33 = tensor.expand_shape %69 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %70 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%66, %expanded_32 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %71 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%70, %expanded_33 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_34 = tensor.expand_shape %arg27 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %72 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%71, %expanded_34 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_35 = tensor.expand_shape %arg28 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %73 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%72, %expanded_35 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %74 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%73 : tensor<2x6x2x2xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x6x2x2xf32>
    %padded_36 = tensor.pad %74 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x6x2x2xf32> to tensor<2x6x4x4xf32>
    %75 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_36, %arg31 : tensor<2x6x4x4xf32>, tensor<6x6x3x3xf32>) outs(%56 : tensor<2x6x2x2xf32>) -> tensor<2x6x2x2xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg35 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %77 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%76 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<6xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%77 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %expanded_37 = tensor.expand_shape %arg34 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %expanded_38 = tensor.expand_shape %78 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %79 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%75, %expanded_37 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %80 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%79, %expanded_38 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_39 = tensor.expand_shape %arg32 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %81 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%80, %expanded_39 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_40 = tensor.expand_shape %arg33 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %82 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%81, %expanded_40 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %83 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%82, %65 : tensor<2x6x2x2xf32>, tensor<2x6x2x2xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %84 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%83 : tensor<2x6x2x2xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x6x2x2xf32>
    %padded_41 = tensor.pad %84 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x6x2x2xf32> to tensor<2x6x4x4xf32>
    %85 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_41, %arg41 : tensor<2x6x4x4xf32>, tensor<6x6x3x3xf32>) outs(%56 : tensor<2x6x2x2xf32>) -> tensor<2x6x2x2xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg45 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %87 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%86 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<6xf32>
    %88 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%87 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %expanded_42 = tensor.expand_shape %arg44 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %expanded_43 = tensor.expand_shape %88 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %89 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%85, %expanded_42 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %90 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89, %expanded_43 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_44 = tensor.expand_shape %arg42 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %91 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%90, %expanded_44 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_45 = tensor.expand_shape %arg43 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %92 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%91, %expanded_45 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %93 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%92 : tensor<2x6x2x2xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x6x2x2xf32>
    %padded_46 = tensor.pad %93 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x6x2x2xf32> to tensor<2x6x4x4xf32>
    %94 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_46, %arg46 : tensor<2x6x4x4xf32>, tensor<6x6x3x3xf32>) outs(%56 : tensor<2x6x2x2xf32>) -> tensor<2x6x2x2xf32>
    %95 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg50 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %96 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%95 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<6xf32>
    %97 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%96 : tensor<6xf32>) outs(%58 : tensor<6xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<6xf32>
    %expanded_47 = tensor.expand_shape %arg49 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %expanded_48 = tensor.expand_shape %97 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %98 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%94, %expanded_47 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %99 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%98, %expanded_48 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_49 = tensor.expand_shape %arg47 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %100 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%99, %expanded_49 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %expanded_50 = tensor.expand_shape %arg48 [[0, 1, 2]] output_shape [6, 1, 1] : tensor<6xf32> into tensor<6x1x1xf32>
    %101 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%100, %expanded_50 : tensor<2x6x2x2xf32>, tensor<6x1x1xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %102 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%101, %84 : tensor<2x6x2x2xf32>, tensor<2x6x2x2xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x6x2x2xf32>
    %103 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%102 : tensor<2x6x2x2xf32>) outs(%55 : tensor<2x6x2x2xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x6x2x2xf32>
    %104 = tensor.empty() : tensor<2x12x1x1xf32>
    %105 = linalg.fill ins(%cst : f32) outs(%104 : tensor<2x12x1x1xf32>) -> tensor<2x12x1x1xf32>
    %106 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%103, %arg61 : tensor<2x6x2x2xf32>, tensor<12x6x1x1xf32>) outs(%105 : tensor<2x12x1x1xf32>) -> tensor<2x12x1x1xf32>
    %107 = tensor.empty() : tensor<12xf32>
    %108 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg65 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %109 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%108 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<12xf32>
    %110 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%109 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %expanded_51 = tensor.expand_shape %arg64 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %expanded_52 = tensor.expand_shape %110 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %111 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%106, %expanded_51 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %112 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%111, %expanded_52 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_53 = tensor.expand_shape %arg62 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %113 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%112, %expanded_53 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_54 = tensor.expand_shape %arg63 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %114 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%113, %expanded_54 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %padded_55 = tensor.pad %103 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x6x2x2xf32> to tensor<2x6x4x4xf32>
    %115 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_55, %arg51 : tensor<2x6x4x4xf32>, tensor<12x6x3x3xf32>) outs(%105 : tensor<2x12x1x1xf32>) -> tensor<2x12x1x1xf32>
    %116 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg55 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %117 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%116 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<12xf32>
    %118 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%117 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %expanded_56 = tensor.expand_shape %arg54 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %expanded_57 = tensor.expand_shape %118 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %119 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%115, %expanded_56 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %120 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%119, %expanded_57 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_58 = tensor.expand_shape %arg52 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %121 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%120, %expanded_58 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_59 = tensor.expand_shape %arg53 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %122 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%121, %expanded_59 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %123 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%122 : tensor<2x12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x12x1x1xf32>
    %padded_60 = tensor.pad %123 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x12x1x1xf32> to tensor<2x12x3x3xf32>
    %124 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_60, %arg56 : tensor<2x12x3x3xf32>, tensor<12x12x3x3xf32>) outs(%105 : tensor<2x12x1x1xf32>) -> tensor<2x12x1x1xf32>
    %125 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg60 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %126 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%125 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<12xf32>
    %127 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%126 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %expanded_61 = tensor.expand_shape %arg59 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %expanded_62 = tensor.expand_shape %127 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %128 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%124, %expanded_61 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %129 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%128, %expanded_62 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_63 = tensor.expand_shape %arg57 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %130 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%129, %expanded_63 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_64 = tensor.expand_shape %arg58 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %131 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%130, %expanded_64 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %132 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%131, %114 : tensor<2x12x1x1xf32>, tensor<2x12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %133 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%132 : tensor<2x12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x12x1x1xf32>
    %padded_65 = tensor.pad %133 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x12x1x1xf32> to tensor<2x12x3x3xf32>
    %134 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_65, %arg66 : tensor<2x12x3x3xf32>, tensor<12x12x3x3xf32>) outs(%105 : tensor<2x12x1x1xf32>) -> tensor<2x12x1x1xf32>
    %135 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg70 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %136 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%135 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<12xf32>
    %137 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%136 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %expanded_66 = tensor.expand_shape %arg69 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %expanded_67 = tensor.expand_shape %137 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %138 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%134, %expanded_66 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %139 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%138, %expanded_67 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_68 = tensor.expand_shape %arg67 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %140 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%139, %expanded_68 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_69 = tensor.expand_shape %arg68 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %141 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%140, %expanded_69 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %142 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%141 : tensor<2x12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x12x1x1xf32>
    %padded_70 = tensor.pad %142 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x12x1x1xf32> to tensor<2x12x3x3xf32>
    %143 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_70, %arg71 : tensor<2x12x3x3xf32>, tensor<12x12x3x3xf32>) outs(%105 : tensor<2x12x1x1xf32>) -> tensor<2x12x1x1xf32>
    %144 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg75 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %145 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%144 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<12xf32>
    %146 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%145 : tensor<12xf32>) outs(%107 : tensor<12xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<12xf32>
    %expanded_71 = tensor.expand_shape %arg74 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %expanded_72 = tensor.expand_shape %146 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %147 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%143, %expanded_71 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %148 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%147, %expanded_72 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_73 = tensor.expand_shape %arg72 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %149 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%148, %expanded_73 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %expanded_74 = tensor.expand_shape %arg73 [[0, 1, 2]] output_shape [12, 1, 1] : tensor<12xf32> into tensor<12x1x1xf32>
    %150 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%149, %expanded_74 : tensor<2x12x1x1xf32>, tensor<12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %151 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%150, %133 : tensor<2x12x1x1xf32>, tensor<2x12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x12x1x1xf32>
    %152 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%151 : tensor<2x12x1x1xf32>) outs(%104 : tensor<2x12x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x12x1x1xf32>
    %153 = tensor.empty() : tensor<2x24x1x1xf32>
    %154 = linalg.fill ins(%cst : f32) outs(%153 : tensor<2x24x1x1xf32>) -> tensor<2x24x1x1xf32>
    %155 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%152, %arg86 : tensor<2x12x1x1xf32>, tensor<24x12x1x1xf32>) outs(%154 : tensor<2x24x1x1xf32>) -> tensor<2x24x1x1xf32>
    %156 = tensor.empty() : tensor<24xf32>
    %157 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg90 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %158 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%157 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<24xf32>
    %159 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%158 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %expanded_75 = tensor.expand_shape %arg89 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %expanded_76 = tensor.expand_shape %159 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %160 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%155, %expanded_75 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %161 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%160, %expanded_76 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_77 = tensor.expand_shape %arg87 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %162 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%161, %expanded_77 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_78 = tensor.expand_shape %arg88 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %163 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%162, %expanded_78 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %padded_79 = tensor.pad %152 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x12x1x1xf32> to tensor<2x12x3x3xf32>
    %164 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_79, %arg76 : tensor<2x12x3x3xf32>, tensor<24x12x3x3xf32>) outs(%154 : tensor<2x24x1x1xf32>) -> tensor<2x24x1x1xf32>
    %165 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg80 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %166 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%165 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<24xf32>
    %167 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%166 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %expanded_80 = tensor.expand_shape %arg79 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %expanded_81 = tensor.expand_shape %167 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %168 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%164, %expanded_80 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %169 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%168, %expanded_81 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_82 = tensor.expand_shape %arg77 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %170 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%169, %expanded_82 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_83 = tensor.expand_shape %arg78 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %171 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%170, %expanded_83 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %172 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%171 : tensor<2x24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x24x1x1xf32>
    %padded_84 = tensor.pad %172 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x24x1x1xf32> to tensor<2x24x3x3xf32>
    %173 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_84, %arg81 : tensor<2x24x3x3xf32>, tensor<24x24x3x3xf32>) outs(%154 : tensor<2x24x1x1xf32>) -> tensor<2x24x1x1xf32>
    %174 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg85 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %175 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%174 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<24xf32>
    %176 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%175 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %expanded_85 = tensor.expand_shape %arg84 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %expanded_86 = tensor.expand_shape %176 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %177 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%173, %expanded_85 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %178 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%177, %expanded_86 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_87 = tensor.expand_shape %arg82 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %179 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%178, %expanded_87 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_88 = tensor.expand_shape %arg83 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %180 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%179, %expanded_88 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %181 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%180, %163 : tensor<2x24x1x1xf32>, tensor<2x24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %182 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%181 : tensor<2x24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x24x1x1xf32>
    %padded_89 = tensor.pad %182 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x24x1x1xf32> to tensor<2x24x3x3xf32>
    %183 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_89, %arg91 : tensor<2x24x3x3xf32>, tensor<24x24x3x3xf32>) outs(%154 : tensor<2x24x1x1xf32>) -> tensor<2x24x1x1xf32>
    %184 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg95 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %185 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%184 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<24xf32>
    %186 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%185 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %expanded_90 = tensor.expand_shape %arg94 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %expanded_91 = tensor.expand_shape %186 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %187 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%183, %expanded_90 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %188 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%187, %expanded_91 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_92 = tensor.expand_shape %arg92 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %189 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%188, %expanded_92 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_93 = tensor.expand_shape %arg93 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %190 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%189, %expanded_93 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %191 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%190 : tensor<2x24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x24x1x1xf32>
    %padded_94 = tensor.pad %191 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg103: index, %arg104: index, %arg105: index, %arg106: index):
      tensor.yield %cst : f32
    } : tensor<2x24x1x1xf32> to tensor<2x24x3x3xf32>
    %192 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_94, %arg96 : tensor<2x24x3x3xf32>, tensor<24x24x3x3xf32>) outs(%154 : tensor<2x24x1x1xf32>) -> tensor<2x24x1x1xf32>
    %193 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg100 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.truncf %cst_2 : f64 to f32
      %209 = arith.addf %in, %208 : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %194 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%193 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = math.sqrt %in : f32
      linalg.yield %208 : f32
    } -> tensor<24xf32>
    %195 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%194 : tensor<24xf32>) outs(%156 : tensor<24xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf one, %in, %cst : f32
      cf.assert %208, "unimplemented: tensor with zero element"
      %209 = arith.divf %cst_0, %in : f32
      linalg.yield %209 : f32
    } -> tensor<24xf32>
    %expanded_95 = tensor.expand_shape %arg99 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %expanded_96 = tensor.expand_shape %195 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %196 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%192, %expanded_95 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.subf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %197 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%196, %expanded_96 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_97 = tensor.expand_shape %arg97 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %198 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%197, %expanded_97 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.mulf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %expanded_98 = tensor.expand_shape %arg98 [[0, 1, 2]] output_shape [24, 1, 1] : tensor<24xf32> into tensor<24x1x1xf32>
    %199 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%198, %expanded_98 : tensor<2x24x1x1xf32>, tensor<24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %200 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%199, %182 : tensor<2x24x1x1xf32>, tensor<2x24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %201 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%200 : tensor<2x24x1x1xf32>) outs(%153 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.cmpf ugt, %in, %cst : f32
      %209 = arith.select %208, %in, %cst : f32
      linalg.yield %209 : f32
    } -> tensor<2x24x1x1xf32>
    %202 = linalg.generic {indexing_maps = [#map1, #map4], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%201 : tensor<2x24x1x1xf32>) outs(%154 : tensor<2x24x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %208 = arith.addf %in, %out : f32
      linalg.yield %208 : f32
    } -> tensor<2x24x1x1xf32>
    %collapsed = tensor.collapse_shape %202 [[0], [1, 2, 3]] : tensor<2x24x1x1xf32> into tensor<2x24xf32>
    %203 = tensor.empty() : tensor<24x10xf32>
    %transposed = linalg.transpose ins(%arg101 : tensor<10x24xf32>) outs(%203 : tensor<24x10xf32>) permutation = [1, 0] 
    %204 = tensor.empty() : tensor<2x10xf32>
    %205 = linalg.fill ins(%cst : f32) outs(%204 : tensor<2x10xf32>) -> tensor<2x10xf32>
    %206 = linalg.matmul ins(%collapsed, %transposed : tensor<2x24xf32>, tensor<24x10xf32>) outs(%205 : tensor<2x10xf32>) -> tensor<2x10xf32>
    %207 = linalg.generic {indexing_maps = [#map5, #map6, #map5], iterator_types = ["parallel", "parallel"]} ins(%206, %arg102 : tensor<2x10xf32>, tensor<10xf32>) outs(%204 : tensor<2x10xf32>) {
    ^bb0(%in: f32, %in_99: f32, %out: f32):
      %208 = arith.addf %in, %in_99 : f32
      linalg.yield %208 : f32
    } -> tensor<2x10xf32>
    return %207 : tensor<2x10xf32>
  }
}
