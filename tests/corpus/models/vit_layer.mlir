#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @vit_layer(%arg0: tensor<2x5x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>, %arg3: tensor<96x32xf32>, %arg4: tensor<96xf32>, %arg5: tensor<32x32xf32>, %arg6: tensor<32xf32>, %arg7: tensor<32xf32>, %arg8: tensor<32xf32>, %arg9: tensor<128x32xf32>, %arg10: tensor<128xf32>, %arg11: tensor<32x128xf32>, %arg12: tensor<32xf32>) -> tensor<2x5x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant 5.000000e-01 : f32
    %cst_4 = arith.constant 9.9999999999999995E-7 : f64
    %cst_5 = arith.constant 3.200000e+01 : f64
    %cst_6 = arith.constant 3.200000e+01 : f32
    %cst_7 = arith.constant 2.500000e-01 : f32
    %cst_8 = arith.constant 1.41421354 : f32
    %0 = tensor.empty() : tensor<2x5x32xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x5x32xf32>) outs(%0 : tensor<2x5x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %82 = arith.extf %in : f32 to f64
      linalg.yield %82 : f64
    } -> tensor<2x5x32xf64>
    %2 = tensor.empty() : tensor<2x5x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<2x5x1xf64>) -> tensor<2x5x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<2x5x32xf64>) outs(%3 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.addf %in, %out : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<2x5x1xf64>) outs(%2 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.divf %in, %cst_5 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %5 : tensor<2x5x32xf64>, tensor<2x5x1xf64>) outs(%0 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_31: f64, %out: f64):
      %82 = arith.subf %in, %in_31 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x32xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %6 : tensor<2x5x32xf64>, tensor<2x5x32xf64>) outs(%0 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_31: f64, %out: f64):
      %82 = arith.mulf %in, %in_31 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x32xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<2x5x32xf64>) outs(%3 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.addf %in, %out : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<2x5x1xf64>) outs(%2 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.divf %in, %cst_5 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %10 = tensor.empty() : tensor<2x5x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<2x5x1xf64>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %82 = arith.truncf %in : f64 to f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x5x32xf32>) outs(%12 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.addf %in, %out : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<2x5x1xf32>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.divf %in, %cst_6 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<2x5x1xf32>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.truncf %cst_4 : f64 to f32
      %83 = arith.addf %in, %82 : f32
      linalg.yield %83 : f32
    } -> tensor<2x5x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<2x5x1xf32>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = math.rsqrt %in : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %17 = tensor.empty() : tensor<2x5x32xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %14 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.subf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18, %16 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.mulf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %arg1 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.mulf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg2 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %collapsed = tensor.collapse_shape %21 [[0, 1], [2]] : tensor<2x5x32xf32> into tensor<10x32xf32>
    %22 = tensor.empty() : tensor<32x96xf32>
    %transposed = linalg.transpose ins(%arg3 : tensor<96x32xf32>) outs(%22 : tensor<32x96xf32>) permutation = [1, 0] 
    %23 = tensor.empty() : tensor<10x96xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<10x96xf32>) -> tensor<10x96xf32>
    %25 = linalg.matmul ins(%collapsed, %transposed : tensor<10x32xf32>, tensor<32x96xf32>) outs(%24 : tensor<10x96xf32>) -> tensor<10x96xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%25, %arg4 : tensor<10x96xf32>, tensor<96xf32>) outs(%23 : tensor<10x96xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<10x96xf32>
    %expanded = tensor.expand_shape %26 [[0, 1], [2, 3, 4]] output_shape [2, 5, 3, 2, 16] : tensor<10x96xf32> into tensor<2x5x3x2x16xf32>
    %27 = tensor.empty() : tensor<3x2x2x5x16xf32>
    %transposed_9 = linalg.transpose ins(%expanded : tensor<2x5x3x2x16xf32>) outs(%27 : tensor<3x2x2x5x16xf32>) permutation = [2, 0, 3, 1, 4] 
    %extracted_slice = tensor.extract_slice %transposed_9[0, 0, 0, 0, 0] [1, 2, 2, 5, 16] [1, 1, 1, 1, 1] : tensor<3x2x2x5x16xf32> to tensor<1x2x2x5x16xf32>
    %extracted_slice_10 = tensor.extract_slice %transposed_9[1, 0, 0, 0, 0] [1, 2, 2, 5, 16] [1, 1, 1, 1, 1] : tensor<3x2x2x5x16xf32> to tensor<1x2x2x5x16xf32>
    %extracted_slice_11 = tensor.extract_slice %transposed_9[2, 0, 0, 0, 0] [1, 2, 2, 5, 16] [1, 1, 1, 1, 1] : tensor<3x2x2x5x16xf32> to tensor<1x2x2x5x16xf32>
    %collapsed_12 = tensor.collapse_shape %extracted_slice_10 [[0, 1], [2], [3], [4]] : tensor<1x2x2x5x16xf32> into tensor<2x2x5x16xf32>
    %28 = tensor.empty() : tensor<2x2x16x5xf32>
    %transposed_13 = linalg.transpose ins(%collapsed_12 : tensor<2x2x5x16xf32>) outs(%28 : tensor<2x2x16x5xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_14 = tensor.collapse_shape %extracted_slice [[0, 1, 2], [3], [4]] : tensor<1x2x2x5x16xf32> into tensor<4x5x16xf32>
    %collapsed_15 = tensor.collapse_shape %transposed_13 [[0, 1], [2], [3]] : tensor<2x2x16x5xf32> into tensor<4x16x5xf32>
    %29 = tensor.empty() : tensor<4x5x5xf32>
    %30 = linalg.fill ins(%cst_0 : f32) outs(%29 : tensor<4x5x5xf32>) -> tensor<4x5x5xf32>
    %31 = linalg.batch_matmul ins(%collapsed_14, %collapsed_15 : tensor<4x5x16xf32>, tensor<4x16x5xf32>) outs(%30 : tensor<4x5x5xf32>) -> tensor<4x5x5xf32>
    %expanded_16 = tensor.expand_shape %31 [[0, 1], [2], [3]] output_shape [2, 2, 5, 5] : tensor<4x5x5xf32> into tensor<2x2x5x5xf32>
    %32 = tensor.empty() : tensor<2x2x5x5xf32>
    %33 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_16 : tensor<2x2x5x5xf32>) outs(%32 : tensor<2x2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.mulf %in, %cst_7 : f32
      linalg.yield %82 : f32
    } -> tensor<2x2x5x5xf32>
    %34 = tensor.empty() : tensor<2x2x5xi64>
    %35 = linalg.fill ins(%c0_i64 : i64) outs(%34 : tensor<2x2x5xi64>) -> tensor<2x2x5xi64>
    %36 = tensor.empty() : tensor<2x2x5xf32>
    %37 = linalg.fill ins(%cst_1 : f32) outs(%36 : tensor<2x2x5xf32>) -> tensor<2x2x5xf32>
    %38:2 = linalg.generic {indexing_maps = [#map5, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%33 : tensor<2x2x5x5xf32>) outs(%37, %35 : tensor<2x2x5xf32>, tensor<2x2x5xi64>) {
    ^bb0(%in: f32, %out: f32, %out_31: i64):
      %82 = linalg.index 3 : index
      %83 = arith.index_cast %82 : index to i64
      %84 = arith.maximumf %in, %out : f32
      %85 = arith.cmpf ogt, %in, %out : f32
      %86 = arith.select %85, %83, %out_31 : i64
      linalg.yield %84, %86 : f32, i64
    } -> (tensor<2x2x5xf32>, tensor<2x2x5xi64>)
    %expanded_17 = tensor.expand_shape %38#0 [[0], [1], [2, 3]] output_shape [2, 2, 5, 1] : tensor<2x2x5xf32> into tensor<2x2x5x1xf32>
    %39 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%33, %expanded_17 : tensor<2x2x5x5xf32>, tensor<2x2x5x1xf32>) outs(%32 : tensor<2x2x5x5xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.subf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x2x5x5xf32>
    %40 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39 : tensor<2x2x5x5xf32>) outs(%32 : tensor<2x2x5x5xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = math.exp %in : f32
      linalg.yield %82 : f32
    } -> tensor<2x2x5x5xf32>
    %41 = tensor.empty() : tensor<2x2x5x1xf32>
    %42 = linalg.fill ins(%cst_0 : f32) outs(%41 : tensor<2x2x5x1xf32>) -> tensor<2x2x5x1xf32>
    %43 = linalg.generic {indexing_maps = [#map5, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%40 : tensor<2x2x5x5xf32>) outs(%42 : tensor<2x2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.addf %in, %out : f32
      linalg.yield %82 : f32
    } -> tensor<2x2x5x1xf32>
    %44 = linalg.generic {indexing_maps = [#map5, #map7, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40, %43 : tensor<2x2x5x5xf32>, tensor<2x2x5x1xf32>) outs(%32 : tensor<2x2x5x5xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.divf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x2x5x5xf32>
    %collapsed_18 = tensor.collapse_shape %44 [[0, 1], [2], [3]] : tensor<2x2x5x5xf32> into tensor<4x5x5xf32>
    %collapsed_19 = tensor.collapse_shape %extracted_slice_11 [[0, 1, 2], [3], [4]] : tensor<1x2x2x5x16xf32> into tensor<4x5x16xf32>
    %45 = tensor.empty() : tensor<4x5x16xf32>
    %46 = linalg.fill ins(%cst_0 : f32) outs(%45 : tensor<4x5x16xf32>) -> tensor<4x5x16xf32>
    %47 = linalg.batch_matmul ins(%collapsed_18, %collapsed_19 : tensor<4x5x5xf32>, tensor<4x5x16xf32>) outs(%46 : tensor<4x5x16xf32>) -> tensor<4x5x16xf32>
    %expanded_20 = tensor.expand_shape %47 [[0, 1], [2], [3]] output_shape [2, 2, 5, 16] : tensor<4x5x16xf32> into tensor<2x2x5x16xf32>
    %48 = tensor.empty() : tensor<2x5x2x16xf32>
    %transposed_21 = linalg.transpose ins(%expanded_20 : tensor<2x2x5x16xf32>) outs(%48 : tensor<2x5x2x16xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_22 = tensor.collapse_shape %transposed_21 [[0, 1], [2, 3]] : tensor<2x5x2x16xf32> into tensor<10x32xf32>
    %49 = tensor.empty() : tensor<32x32xf32>
    %transposed_23 = linalg.transpose ins(%arg5 : tensor<32x32xf32>) outs(%49 : tensor<32x32xf32>) permutation = [1, 0] 
    %50 = tensor.empty() : tensor<10x32xf32>
    %51 = linalg.fill ins(%cst_0 : f32) outs(%50 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %52 = linalg.matmul ins(%collapsed_22, %transposed_23 : tensor<10x32xf32>, tensor<32x32xf32>) outs(%51 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %53 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%52, %arg6 : tensor<10x32xf32>, tensor<32xf32>) outs(%50 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<10x32xf32>
    %expanded_24 = tensor.expand_shape %53 [[0, 1], [2]] output_shape [2, 5, 32] : tensor<10x32xf32> into tensor<2x5x32xf32>
    %54 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_24 : tensor<2x5x32xf32>, tensor<2x5x32xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %55 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%54 : tensor<2x5x32xf32>) outs(%0 : tensor<2x5x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %82 = arith.extf %in : f32 to f64
      linalg.yield %82 : f64
    } -> tensor<2x5x32xf64>
    %56 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%55 : tensor<2x5x32xf64>) outs(%3 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.addf %in, %out : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %57 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56 : tensor<2x5x1xf64>) outs(%2 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.divf %in, %cst_5 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %58 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%55, %57 : tensor<2x5x32xf64>, tensor<2x5x1xf64>) outs(%0 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_31: f64, %out: f64):
      %82 = arith.subf %in, %in_31 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x32xf64>
    %59 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58, %58 : tensor<2x5x32xf64>, tensor<2x5x32xf64>) outs(%0 : tensor<2x5x32xf64>) {
    ^bb0(%in: f64, %in_31: f64, %out: f64):
      %82 = arith.mulf %in, %in_31 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x32xf64>
    %60 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%59 : tensor<2x5x32xf64>) outs(%3 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.addf %in, %out : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %61 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<2x5x1xf64>) outs(%2 : tensor<2x5x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %82 = arith.divf %in, %cst_5 : f64
      linalg.yield %82 : f64
    } -> tensor<2x5x1xf64>
    %62 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%61 : tensor<2x5x1xf64>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %82 = arith.truncf %in : f64 to f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %63 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%54 : tensor<2x5x32xf32>) outs(%12 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.addf %in, %out : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %64 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63 : tensor<2x5x1xf32>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.divf %in, %cst_6 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %65 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62 : tensor<2x5x1xf32>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.truncf %cst_4 : f64 to f32
      %83 = arith.addf %in, %82 : f32
      linalg.yield %83 : f32
    } -> tensor<2x5x1xf32>
    %66 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65 : tensor<2x5x1xf32>) outs(%10 : tensor<2x5x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = math.rsqrt %in : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x1xf32>
    %67 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%54, %64 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.subf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %68 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67, %66 : tensor<2x5x32xf32>, tensor<2x5x1xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.mulf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%68, %arg7 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.mulf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69, %arg8 : tensor<2x5x32xf32>, tensor<32xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    %collapsed_25 = tensor.collapse_shape %70 [[0, 1], [2]] : tensor<2x5x32xf32> into tensor<10x32xf32>
    %71 = tensor.empty() : tensor<32x128xf32>
    %transposed_26 = linalg.transpose ins(%arg9 : tensor<128x32xf32>) outs(%71 : tensor<32x128xf32>) permutation = [1, 0] 
    %72 = tensor.empty() : tensor<10x128xf32>
    %73 = linalg.fill ins(%cst_0 : f32) outs(%72 : tensor<10x128xf32>) -> tensor<10x128xf32>
    %74 = linalg.matmul ins(%collapsed_25, %transposed_26 : tensor<10x32xf32>, tensor<32x128xf32>) outs(%73 : tensor<10x128xf32>) -> tensor<10x128xf32>
    %75 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%74, %arg10 : tensor<10x128xf32>, tensor<128xf32>) outs(%72 : tensor<10x128xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<10x128xf32>
    %expanded_27 = tensor.expand_shape %75 [[0, 1], [2]] output_shape [2, 5, 128] : tensor<10x128xf32> into tensor<2x5x128xf32>
    %76 = tensor.empty() : tensor<2x5x128xf32>
    %77 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_27 : tensor<2x5x128xf32>) outs(%76 : tensor<2x5x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %82 = arith.divf %in, %cst_8 : f32
      %83 = math.erf %82 : f32
      %84 = arith.addf %83, %cst_2 : f32
      %85 = arith.mulf %84, %cst_3 : f32
      %86 = arith.mulf %in, %85 : f32
      linalg.yield %86 : f32
    } -> tensor<2x5x128xf32>
    %collapsed_28 = tensor.collapse_shape %77 [[0, 1], [2]] : tensor<2x5x128xf32> into tensor<10x128xf32>
    %78 = tensor.empty() : tensor<128x32xf32>
    %transposed_29 = linalg.transpose ins(%arg11 : tensor<32x128xf32>) outs(%78 : tensor<128x32xf32>) permutation = [1, 0] 
    %79 = linalg.matmul ins(%collapsed_28, %transposed_29 : tensor<10x128xf32>, tensor<128x32xf32>) outs(%51 : tensor<10x32xf32>) -> tensor<10x32xf32>
    %80 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%79, %arg12 : tensor<10x32xf32>, tensor<32xf32>) outs(%50 : tensor<10x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<10x32xf32>
    %expanded_30 = tensor.expand_shape %80 [[0, 1], [2]] output_shape [2, 5, 32] : tensor<10x32xf32> into tensor<2x5x32xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%54, %expanded_30 : tensor<2x5x32xf32>, tensor<2x5x32xf32>) outs(%17 : tensor<2x5x32xf32>) {
    ^bb0(%in: f32, %in_31: f32, %out: f32):
      %82 = arith.addf %in, %in_31 : f32
      linalg.yield %82 : f32
    } -> tensor<2x5x32xf32>
    return %81 : tensor<2x5x32xf32>
  }
}
