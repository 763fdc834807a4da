#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d1)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map7 = affine_map<(d0, d1) -> (0, d1)>
#map8 = affine_map<(d0, d1) -> (d0, 0)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> ()>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map12 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @gpt2_block_f16(%arg0: tensor<8x128x768xf16>, %arg1: tensor<768xf16>, %arg2: tensor<768xf16>, %arg3: tensor<2304x768xf16>, %arg4: tensor<2304xf16>, %arg5: tensor<768x768xf16>, %arg6: tensor<768xf16>, %arg7: tensor<768xf16>, %arg8: tensor<768xf16>, %arg9: tensor<3072x768xf16>, %arg10: tensor<3072xf16>, %arg11: tensor<768x3072xf16>, %arg12: tensor<768xf16>) -> tensor<8x128x768xf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 0xFF800000 : f32
    %c3_i64 = arith.constant 3 : i64
    %cst_2 = arith.constant 4.470830e-02 : f16
    %cst_3 = arith.constant 7.978520e-01 : f16
    %cst_4 = arith.constant 1.000000e+00 : f16
    %cst_5 = arith.constant 5.000000e-01 : f16
    %cst_6 = arith.constant dense<0xFC00> : tensor<f16>
    %cst_7 = arith.constant dense<true> : tensor<128x128xi1>
    %cst_8 = arith.constant 1.000000e-05 : f64
    %cst_9 = arith.constant 7.680000e+02 : f64
    %cst_10 = arith.constant 7.680000e+02 : f32
    %cst_11 = arith.constant 1.250000e-01 : f16
    %0 = tensor.empty() : tensor<8x128x768xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<8x128x768xf16>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<8x128x768xf32>
    %2 = tensor.empty() : tensor<8x128x768xf64>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<8x128x768xf32>) outs(%2 : tensor<8x128x768xf64>) {
    ^bb0(%in: f32, %out: f64):
      %129 = arith.extf %in : f32 to f64
      linalg.yield %129 : f64
    } -> tensor<8x128x768xf64>
    %4 = tensor.empty() : tensor<8x128x1xf64>
    %5 = linalg.fill ins(%cst : f64) outs(%4 : tensor<8x128x1xf64>) -> tensor<8x128x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3 : tensor<8x128x768xf64>) outs(%5 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<8x128x1xf64>) outs(%4 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %7 : tensor<8x128x768xf64>, tensor<8x128x1xf64>) outs(%2 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.subf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x768xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8, %8 : tensor<8x128x768xf64>, tensor<8x128x768xf64>) outs(%2 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.mulf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x768xf64>
    %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%9 : tensor<8x128x768xf64>) outs(%5 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10 : tensor<8x128x1xf64>) outs(%4 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %12 = tensor.empty() : tensor<8x128x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<8x128x1xf64>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %129 = arith.truncf %in : f64 to f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<8x128x1xf32>) -> tensor<8x128x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<8x128x768xf32>) outs(%14 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.addf %in, %out : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<8x128x1xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.divf %in, %cst_10 : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<8x128x1xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.truncf %cst_8 : f64 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<8x128x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<8x128x1xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = math.rsqrt %in : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %16 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.subf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x768xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %18 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.mulf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x768xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg1 : tensor<8x128x768xf32>, tensor<768xf16>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f16, %out: f32):
      %129 = arith.extf %in_39 : f16 to f32
      %130 = arith.mulf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<8x128x768xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%21, %arg2 : tensor<8x128x768xf32>, tensor<768xf16>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f16, %out: f32):
      %129 = arith.extf %in_39 : f16 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<8x128x768xf32>
    %23 = tensor.empty() : tensor<8x128x768xf16>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<8x128x768xf32>) outs(%23 : tensor<8x128x768xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<8x128x768xf16>
    %collapsed = tensor.collapse_shape %24 [[0, 1], [2]] : tensor<8x128x768xf16> into tensor<1024x768xf16>
    %25 = tensor.empty() : tensor<768x2304xf16>
    %transposed = linalg.transpose ins(%arg3 : tensor<2304x768xf16>) outs(%25 : tensor<768x2304xf16>) permutation = [1, 0] 
    %26 = tensor.empty() : tensor<2304xf32>
    %27 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg4 : tensor<2304xf16>) outs(%26 : tensor<2304xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<2304xf32>
    %28 = tensor.empty() : tensor<1024x768xf32>
    %29 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<1024x768xf16>) outs(%28 : tensor<1024x768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<1024x768xf32>
    %30 = tensor.empty() : tensor<768x2304xf32>
    %31 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<768x2304xf16>) outs(%30 : tensor<768x2304xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<768x2304xf32>
    %32 = tensor.empty() : tensor<1024x2304xf32>
    %33 = linalg.fill ins(%cst_0 : f32) outs(%32 : tensor<1024x2304xf32>) -> tensor<1024x2304xf32>
    %34 = linalg.matmul ins(%29, %31 : tensor<1024x768xf32>, tensor<768x2304xf32>) outs(%33 : tensor<1024x2304xf32>) -> tensor<1024x2304xf32>
    %35 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%34, %27 : tensor<1024x2304xf32>, tensor<2304xf32>) outs(%32 : tensor<1024x2304xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<1024x2304xf32>
    %36 = tensor.empty() : tensor<1024x2304xf16>
    %37 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%35 : tensor<1024x2304xf32>) outs(%36 : tensor<1024x2304xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<1024x2304xf16>
    %expanded = tensor.expand_shape %37 [[0, 1], [2]] output_shape [8, 128, 2304] : tensor<1024x2304xf16> into tensor<8x128x2304xf16>
    %extracted_slice = tensor.extract_slice %expanded[0, 0, 0] [8, 128, 768] [1, 1, 1] : tensor<8x128x2304xf16> to tensor<8x128x768xf16>
    %extracted_slice_12 = tensor.extract_slice %expanded[0, 0, 768] [8, 128, 768] [1, 1, 1] : tensor<8x128x2304xf16> to tensor<8x128x768xf16>
    %extracted_slice_13 = tensor.extract_slice %expanded[0, 0, 1536] [8, 128, 768] [1, 1, 1] : tensor<8x128x2304xf16> to tensor<8x128x768xf16>
    %expanded_14 = tensor.expand_shape %extracted_slice [[0], [1], [2, 3]] output_shape [8, 128, 12, 64] : tensor<8x128x768xf16> into tensor<8x128x12x64xf16>
    %38 = tensor.empty() : tensor<8x12x128x64xf16>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<8x128x12x64xf16>) outs(%38 : tensor<8x12x128x64xf16>) permutation = [0, 2, 1, 3] 
    %expanded_16 = tensor.expand_shape %extracted_slice_12 [[0], [1], [2, 3]] output_shape [8, 128, 12, 64] : tensor<8x128x768xf16> into tensor<8x128x12x64xf16>
    %expanded_17 = tensor.expand_shape %extracted_slice_13 [[0], [1], [2, 3]] output_shape [8, 128, 12, 64] : tensor<8x128x768xf16> into tensor<8x128x12x64xf16>
    %transposed_18 = linalg.transpose ins(%expanded_17 : tensor<8x128x12x64xf16>) outs(%38 : tensor<8x12x128x64xf16>) permutation = [0, 2, 1, 3] 
    %39 = tensor.empty() : tensor<8x12x64x128xf16>
    %transposed_19 = linalg.transpose ins(%expanded_16 : tensor<8x128x12x64xf16>) outs(%39 : tensor<8x12x64x128xf16>) permutation = [0, 2, 3, 1] 
    %collapsed_20 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<8x12x128x64xf16> into tensor<96x128x64xf16>
    %collapsed_21 = tensor.collapse_shape %transposed_19 [[0, 1], [2], [3]] : tensor<8x12x64x128xf16> into tensor<96x64x128xf16>
    %40 = tensor.empty() : tensor<96x128x128xf32>
    %41 = linalg.fill ins(%cst_0 : f32) outs(%40 : tensor<96x128x128xf32>) -> tensor<96x128x128xf32>
    %42 = linalg.batch_matmul ins(%collapsed_20, %collapsed_21 : tensor<96x128x64xf16>, tensor<96x64x128xf16>) outs(%41 : tensor<96x128x128xf32>) -> tensor<96x128x128xf32>
    %43 = tensor.empty() : tensor<96x128x128xf16>
    %44 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%42 : tensor<96x128x128xf32>) outs(%43 : tensor<96x128x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<96x128x128xf16>
    %expanded_22 = tensor.expand_shape %44 [[0, 1], [2], [3]] output_shape [8, 12, 128, 128] : tensor<96x128x128xf16> into tensor<8x12x128x128xf16>
    %45 = tensor.empty() : tensor<8x12x128x128xf16>
    %46 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_22 : tensor<8x12x128x128xf16>) outs(%45 : tensor<8x12x128x128xf16>) {
    ^bb0(%in: f16, %out: f16):
      %129 = arith.mulf %in, %cst_11 : f16
      linalg.yield %129 : f16
    } -> tensor<8x12x128x128xf16>
    %47 = tensor.empty() : tensor<128xi64>
    %48 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%47 : tensor<128xi64>) {
    ^bb0(%out: i64):
      %129 = linalg.index 0 : index
      %130 = arith.index_cast %129 : index to i64
      linalg.yield %130 : i64
    } -> tensor<128xi64>
    %expanded_23 = tensor.expand_shape %48 [[0, 1]] output_shape [1, 128] : tensor<128xi64> into tensor<1x128xi64>
    %expanded_24 = tensor.expand_shape %48 [[0, 1]] output_shape [128, 1] : tensor<128xi64> into tensor<128x1xi64>
    %49 = tensor.empty() : tensor<128x128xi64>
    %50 = linalg.generic {indexing_maps = [#map7, #map8, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded_23, %expanded_24 : tensor<1x128xi64>, tensor<128x1xi64>) outs(%49 : tensor<128x128xi64>) {
    ^bb0(%in: i64, %in_39: i64, %out: i64):
      %129 = arith.subi %in, %in_39 : i64
      linalg.yield %129 : i64
    } -> tensor<128x128xi64>
    %51 = tensor.empty() : tensor<128x128xi1>
    %52 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%50 : tensor<128x128xi64>) outs(%51 : tensor<128x128xi1>) {
    ^bb0(%in: i64, %out: i1):
      %129 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %129 : i1
    } -> tensor<128x128xi1>
    %53 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%52, %cst_7 : tensor<128x128xi1>, tensor<128x128xi1>) outs(%51 : tensor<128x128xi1>) {
    ^bb0(%in: i1, %in_39: i1, %out: i1):
      %129 = arith.andi %in, %in_39 : i1
      linalg.yield %129 : i1
    } -> tensor<128x128xi1>
    %54 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%53 : tensor<128x128xi1>) outs(%51 : tensor<128x128xi1>) {
    ^bb0(%in: i1, %out: i1):
      %129 = arith.xori %in, %true : i1
      linalg.yield %129 : i1
    } -> tensor<128x128xi1>
    %55 = linalg.generic {indexing_maps = [#map9, #map10, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54, %cst_6, %46 : tensor<128x128xi1>, tensor<f16>, tensor<8x12x128x128xf16>) outs(%45 : tensor<8x12x128x128xf16>) {
    ^bb0(%in: i1, %in_39: f16, %in_40: f16, %out: f16):
      %129 = arith.select %in, %in_39, %in_40 : f16
      linalg.yield %129 : f16
    } -> tensor<8x12x128x128xf16>
    %56 = tensor.empty() : tensor<8x12x128x128xf32>
    %57 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55 : tensor<8x12x128x128xf16>) outs(%56 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<8x12x128x128xf32>
    %58 = tensor.empty() : tensor<8x12x128xi64>
    %59 = linalg.fill ins(%c0_i64 : i64) outs(%58 : tensor<8x12x128xi64>) -> tensor<8x12x128xi64>
    %60 = tensor.empty() : tensor<8x12x128xf32>
    %61 = linalg.fill ins(%cst_1 : f32) outs(%60 : tensor<8x12x128xf32>) -> tensor<8x12x128xf32>
    %62:2 = linalg.generic {indexing_maps = [#map6, #map11, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%57 : tensor<8x12x128x128xf32>) outs(%61, %59 : tensor<8x12x128xf32>, tensor<8x12x128xi64>) {
    ^bb0(%in: f32, %out: f32, %out_39: i64):
      %129 = linalg.index 3 : index
      %130 = arith.index_cast %129 : index to i64
      %131 = arith.maximumf %in, %out : f32
      %132 = arith.cmpf ogt, %in, %out : f32
      %133 = arith.select %132, %130, %out_39 : i64
      linalg.yield %131, %133 : f32, i64
    } -> (tensor<8x12x128xf32>, tensor<8x12x128xi64>)
    %expanded_25 = tensor.expand_shape %62#0 [[0], [1], [2, 3]] output_shape [8, 12, 128, 1] : tensor<8x12x128xf32> into tensor<8x12x128x1xf32>
    %63 = linalg.generic {indexing_maps = [#map6, #map12, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%57, %expanded_25 : tensor<8x12x128x128xf32>, tensor<8x12x128x1xf32>) outs(%56 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.subf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<8x12x128x128xf32>
    %64 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63 : tensor<8x12x128x128xf32>) outs(%56 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = math.exp %in : f32
      linalg.yield %129 : f32
    } -> tensor<8x12x128x128xf32>
    %65 = tensor.empty() : tensor<8x12x128x1xf32>
    %66 = linalg.fill ins(%cst_0 : f32) outs(%65 : tensor<8x12x128x1xf32>) -> tensor<8x12x128x1xf32>
    %67 = linalg.generic {indexing_maps = [#map6, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%64 : tensor<8x12x128x128xf32>) outs(%66 : tensor<8x12x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.addf %in, %out : f32
      linalg.yield %129 : f32
    } -> tensor<8x12x128x1xf32>
    %68 = linalg.generic {indexing_maps = [#map6, #map12, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64, %67 : tensor<8x12x128x128xf32>, tensor<8x12x128x1xf32>) outs(%56 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.divf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<8x12x128x128xf32>
    %69 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%68 : tensor<8x12x128x128xf32>) outs(%45 : tensor<8x12x128x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<8x12x128x128xf16>
    %collapsed_26 = tensor.collapse_shape %69 [[0, 1], [2], [3]] : tensor<8x12x128x128xf16> into tensor<96x128x128xf16>
    %collapsed_27 = tensor.collapse_shape %transposed_18 [[0, 1], [2], [3]] : tensor<8x12x128x64xf16> into tensor<96x128x64xf16>
    %70 = tensor.empty() : tensor<96x128x64xf32>
    %71 = linalg.fill ins(%cst_0 : f32) outs(%70 : tensor<96x128x64xf32>) -> tensor<96x128x64xf32>
    %72 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<96x128x128xf16>, tensor<96x128x64xf16>) outs(%71 : tensor<96x128x64xf32>) -> tensor<96x128x64xf32>
    %73 = tensor.empty() : tensor<96x128x64xf16>
    %74 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<96x128x64xf32>) outs(%73 : tensor<96x128x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<96x128x64xf16>
    %expanded_28 = tensor.expand_shape %74 [[0, 1], [2], [3]] output_shape [8, 12, 128, 64] : tensor<96x128x64xf16> into tensor<8x12x128x64xf16>
    %75 = tensor.empty() : tensor<8x128x12x64xf16>
    %transposed_29 = linalg.transpose ins(%expanded_28 : tensor<8x12x128x64xf16>) outs(%75 : tensor<8x128x12x64xf16>) permutation = [0, 2, 1, 3] 
    %collapsed_30 = tensor.collapse_shape %transposed_29 [[0, 1], [2, 3]] : tensor<8x128x12x64xf16> into tensor<1024x768xf16>
    %76 = tensor.empty() : tensor<768x768xf16>
    %transposed_31 = linalg.transpose ins(%arg5 : tensor<768x768xf16>) outs(%76 : tensor<768x768xf16>) permutation = [1, 0] 
    %77 = tensor.empty() : tensor<768xf32>
    %78 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg6 : tensor<768xf16>) outs(%77 : tensor<768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<768xf32>
    %79 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed_30 : tensor<1024x768xf16>) outs(%28 : tensor<1024x768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<1024x768xf32>
    %80 = tensor.empty() : tensor<768x768xf32>
    %81 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed_31 : tensor<768x768xf16>) outs(%80 : tensor<768x768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<768x768xf32>
    %82 = linalg.fill ins(%cst_0 : f32) outs(%28 : tensor<1024x768xf32>) -> tensor<1024x768xf32>
    %83 = linalg.matmul ins(%79, %81 : tensor<1024x768xf32>, tensor<768x768xf32>) outs(%82 : tensor<1024x768xf32>) -> tensor<1024x768xf32>
    %84 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%83, %78 : tensor<1024x768xf32>, tensor<768xf32>) outs(%28 : tensor<1024x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<1024x768xf32>
    %85 = tensor.empty() : tensor<1024x768xf16>
    %86 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%84 : tensor<1024x768xf32>) outs(%85 : tensor<1024x768xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<1024x768xf16>
    %expanded_32 = tensor.expand_shape %86 [[0, 1], [2]] output_shape [8, 128, 768] : tensor<1024x768xf16> into tensor<8x128x768xf16>
    %87 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_32 : tensor<8x128x768xf16>, tensor<8x128x768xf16>) outs(%23 : tensor<8x128x768xf16>) {
    ^bb0(%in: f16, %in_39: f16, %out: f16):
      %129 = arith.addf %in, %in_39 : f16
      linalg.yield %129 : f16
    } -> tensor<8x128x768xf16>
    %88 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87 : tensor<8x128x768xf16>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<8x128x768xf32>
    %89 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88 : tensor<8x128x768xf32>) outs(%2 : tensor<8x128x768xf64>) {
    ^bb0(%in: f32, %out: f64):
      %129 = arith.extf %in : f32 to f64
      linalg.yield %129 : f64
    } -> tensor<8x128x768xf64>
    %90 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%89 : tensor<8x128x768xf64>) outs(%5 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %91 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%90 : tensor<8x128x1xf64>) outs(%4 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %92 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89, %91 : tensor<8x128x768xf64>, tensor<8x128x1xf64>) outs(%2 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.subf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x768xf64>
    %93 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92, %92 : tensor<8x128x768xf64>, tensor<8x128x768xf64>) outs(%2 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.mulf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x768xf64>
    %94 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%93 : tensor<8x128x768xf64>) outs(%5 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %95 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94 : tensor<8x128x1xf64>) outs(%4 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<8x128x1xf64>
    %96 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95 : tensor<8x128x1xf64>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %129 = arith.truncf %in : f64 to f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %97 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%88 : tensor<8x128x768xf32>) outs(%14 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.addf %in, %out : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %98 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%97 : tensor<8x128x1xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.divf %in, %cst_10 : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %99 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%96 : tensor<8x128x1xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.truncf %cst_8 : f64 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<8x128x1xf32>
    %100 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%99 : tensor<8x128x1xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = math.rsqrt %in : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x1xf32>
    %101 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %98 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.subf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x768xf32>
    %102 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%101, %100 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.mulf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<8x128x768xf32>
    %103 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%102, %arg7 : tensor<8x128x768xf32>, tensor<768xf16>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f16, %out: f32):
      %129 = arith.extf %in_39 : f16 to f32
      %130 = arith.mulf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<8x128x768xf32>
    %104 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%103, %arg8 : tensor<8x128x768xf32>, tensor<768xf16>) outs(%0 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f16, %out: f32):
      %129 = arith.extf %in_39 : f16 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<8x128x768xf32>
    %105 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%104 : tensor<8x128x768xf32>) outs(%23 : tensor<8x128x768xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<8x128x768xf16>
    %collapsed_33 = tensor.collapse_shape %105 [[0, 1], [2]] : tensor<8x128x768xf16> into tensor<1024x768xf16>
    %106 = tensor.empty() : tensor<768x3072xf16>
    %transposed_34 = linalg.transpose ins(%arg9 : tensor<3072x768xf16>) outs(%106 : tensor<768x3072xf16>) permutation = [1, 0] 
    %107 = tensor.empty() : tensor<3072xf32>
    %108 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg10 : tensor<3072xf16>) outs(%107 : tensor<3072xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<3072xf32>
    %109 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed_33 : tensor<1024x768xf16>) outs(%28 : tensor<1024x768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<1024x768xf32>
    %110 = tensor.empty() : tensor<768x3072xf32>
    %111 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed_34 : tensor<768x3072xf16>) outs(%110 : tensor<768x3072xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<768x3072xf32>
    %112 = tensor.empty() : tensor<1024x3072xf32>
    %113 = linalg.fill ins(%cst_0 : f32) outs(%112 : tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
    %114 = linalg.matmul ins(%109, %111 : tensor<1024x768xf32>, tensor<768x3072xf32>) outs(%113 : tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
    %115 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%114, %108 : tensor<1024x3072xf32>, tensor<3072xf32>) outs(%112 : tensor<1024x3072xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<1024x3072xf32>
    %116 = tensor.empty() : tensor<1024x3072xf16>
    %117 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%115 : tensor<1024x3072xf32>) outs(%116 : tensor<1024x3072xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<1024x3072xf16>
    %expanded_35 = tensor.expand_shape %117 [[0, 1], [2]] output_shape [8, 128, 3072] : tensor<1024x3072xf16> into tensor<8x128x3072xf16>
    %118 = tensor.empty() : tensor<8x128x3072xf16>
    %119 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<8x128x3072xf16>) outs(%118 : tensor<8x128x3072xf16>) {
    ^bb0(%in: f16, %out: f16):
      %129 = math.fpowi %in, %c3_i64 : f16, i64
      %130 = arith.mulf %129, %cst_2 : f16
      %131 = arith.addf %in, %130 : f16
      %132 = arith.mulf %131, %cst_3 : f16
      %133 = math.tanh %132 : f16
      %134 = arith.addf %133, %cst_4 : f16
      %135 = arith.mulf %134, %cst_5 : f16
      %136 = arith.mulf %in, %135 : f16
      linalg.yield %136 : f16
    } -> tensor<8x128x3072xf16>
    %collapsed_36 = tensor.collapse_shape %119 [[0, 1], [2]] : tensor<8x128x3072xf16> into tensor<1024x3072xf16>
    %120 = tensor.empty() : tensor<3072x768xf16>
    %transposed_37 = linalg.transpose ins(%arg11 : tensor<768x3072xf16>) outs(%120 : tensor<3072x768xf16>) permutation = [1, 0] 
    %121 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg12 : tensor<768xf16>) outs(%77 : tensor<768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<768xf32>
    %122 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed_36 : tensor<1024x3072xf16>) outs(%112 : tensor<1024x3072xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<1024x3072xf32>
    %123 = tensor.empty() : tensor<3072x768xf32>
    %124 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed_37 : tensor<3072x768xf16>) outs(%123 : tensor<3072x768xf32>) {
    ^bb0(%in: f16, %out: f32):
      %129 = arith.extf %in : f16 to f32
      linalg.yield %129 : f32
    } -> tensor<3072x768xf32>
    %125 = linalg.matmul ins(%122, %124 : tensor<1024x3072xf32>, tensor<3072x768xf32>) outs(%82 : tensor<1024x768xf32>) -> tensor<1024x768xf32>
    %126 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%125, %121 : tensor<1024x768xf32>, tensor<768xf32>) outs(%28 : tensor<1024x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<1024x768xf32>
    %127 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%126 : tensor<1024x768xf32>) outs(%85 : tensor<1024x768xf16>) {
    ^bb0(%in: f32, %out: f16):
      %129 = arith.truncf %in : f32 to f16
      linalg.yield %129 : f16
    } -> tensor<1024x768xf16>
    %expanded_38 = tensor.expand_shape %127 [[0, 1], [2]] output_shape [8, 128, 768] : tensor<1024x768xf16> into tensor<8x128x768xf16>
    %128 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87, %expanded_38 : tensor<8x128x768xf16>, tensor<8x128x768xf16>) outs(%23 : tensor<8x128x768xf16>) {
    ^bb0(%in: f16, %in_39: f16, %out: f16):
      %129 = arith.addf %in, %in_39 : f16
      linalg.yield %129 : f16
    } -> tensor<8x128x768xf16>
    return %128 : tensor<8x128x768xf16>
  }
}
