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
  func.func @gpt2_block_bf16(%arg0: tensor<2x8x32xbf16>, %arg1: tensor<32xbf16>, %arg2: tensor<32xbf16>, %arg3: tensor<96x32xbf16>, %arg4: tensor<96xbf16>, %arg5: tensor<32x32xbf16>, %arg6: tensor<32xbf16>, %arg7: tensor<32xbf16>, %arg8: tensor<32xbf16>, %arg9: tensor<128x32xbf16>, %arg10: tensor<128xbf16>, %arg11: tensor<32x128xbf16>, %arg12: tensor<32xbf16>) -> tensor<2x8x32xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 0xFF800000 : f32
    %c3_i64 = arith.constant 3 : i64
    %cst_2 = arith.constant 4.467770e-02 : bf16
    %cst_3 = arith.constant 7.968750e-01 : bf16
    %cst_4 = arith.constant 1.000000e+00 : bf16
    %cst_5 = arith.constant 5.000000e-01 : bf16
    %cst_6 = arith.constant dense<0xFF80> : tensor<bf16>
    %cst_7 = arith.constant dense<true> : tensor<8x8xi1>
    %cst_8 = arith.constant 1.000000e-05 : f64
    %cst_9 = arith.constant 3.200000e+01 : f64
    %cst_10 = arith.constant 3.200000e+01 : f32
    %cst_11 = arith.constant 2.500000e-01 : bf16
    %0 = tensor.empty() : tensor<2x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<2x8x32xf32>
    %2 = tensor.empty() : tensor<2x8x32xf64>
    %3 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1 : tensor<2x8x32xf32>) outs(%2 : tensor<2x8x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %129 = arith.extf %in : f32 to f64
      linalg.yield %129 : f64
    } -> tensor<2x8x32xf64>
    %4 = tensor.empty() : tensor<2x8x1xf64>
    %5 = linalg.fill ins(%cst : f64) outs(%4 : tensor<2x8x1xf64>) -> tensor<2x8x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3 : tensor<2x8x32xf64>) outs(%5 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x8x1xf64>) outs(%4 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %7 : tensor<2x8x32xf64>, tensor<2x8x1xf64>) outs(%2 : tensor<2x8x32xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.subf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x32xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8, %8 : tensor<2x8x32xf64>, tensor<2x8x32xf64>) outs(%2 : tensor<2x8x32xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.mulf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x32xf64>
    %10 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%9 : tensor<2x8x32xf64>) outs(%5 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%10 : tensor<2x8x1xf64>) outs(%4 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %12 = tensor.empty() : tensor<2x8x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<2x8x1xf64>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %129 = arith.truncf %in : f64 to f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %14 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<2x8x32xf32>) outs(%14 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.addf %in, %out : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<2x8x1xf32>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.divf %in, %cst_10 : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %17 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<2x8x1xf32>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.truncf %cst_8 : f64 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<2x8x1xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%17 : tensor<2x8x1xf32>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = math.rsqrt %in : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %16 : tensor<2x8x32xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.subf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x32xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %18 : tensor<2x8x32xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.mulf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x32xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg1 : tensor<2x8x32xf32>, tensor<32xbf16>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: bf16, %out: f32):
      %129 = arith.extf %in_39 : bf16 to f32
      %130 = arith.mulf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<2x8x32xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%21, %arg2 : tensor<2x8x32xf32>, tensor<32xbf16>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: bf16, %out: f32):
      %129 = arith.extf %in_39 : bf16 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<2x8x32xf32>
    %23 = tensor.empty() : tensor<2x8x32xbf16>
    %24 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%22 : tensor<2x8x32xf32>) outs(%23 : tensor<2x8x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<2x8x32xbf16>
    %collapsed = tensor.collapse_shape %24 [[0, 1], [2]] : tensor<2x8x32xbf16> into tensor<16x32xbf16>
    %25 = tensor.empty() : tensor<32x96xbf16>
    %transposed = linalg.transpose ins(%arg3 : tensor<96x32xbf16>) outs(%25 : tensor<32x96xbf16>) permutation = [1, 0] 
    %26 = tensor.empty() : tensor<96xf32>
    %27 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg4 : tensor<96xbf16>) outs(%26 : tensor<96xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<96xf32>
    %28 = tensor.empty() : tensor<16x32xf32>
    %29 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed : tensor<16x32xbf16>) outs(%28 : tensor<16x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<16x32xf32>
    %30 = tensor.empty() : tensor<32x96xf32>
    %31 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<32x96xbf16>) outs(%30 : tensor<32x96xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<32x96xf32>
    %32 = tensor.empty() : tensor<16x96xf32>
    %33 = linalg.fill ins(%cst_0 : f32) outs(%32 : tensor<16x96xf32>) -> tensor<16x96xf32>
    %34 = linalg.matmul ins(%29, %31 : tensor<16x32xf32>, tensor<32x96xf32>) outs(%33 : tensor<16x96xf32>) -> tensor<16x96xf32>
    %35 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%34, %27 : tensor<16x96xf32>, tensor<96xf32>) outs(%32 : tensor<16x96xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<16x96xf32>
    %36 = tensor.empty() : tensor<16x96xbf16>
    %37 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%35 : tensor<16x96xf32>) outs(%36 : tensor<16x96xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<16x96xbf16>
    %expanded = tensor.expand_shape %37 [[0, 1], [2]] output_shape [2, 8, 96] : tensor<16x96xbf16> into tensor<2x8x96xbf16>
    %extracted_slice = tensor.extract_slice %expanded[0, 0, 0] [2, 8, 32] [1, 1, 1] : tensor<2x8x96xbf16> to tensor<2x8x32xbf16>
    %extracted_slice_12 = tensor.extract_slice %expanded[0, 0, 32] [2, 8, 32] [1, 1, 1] : tensor<2x8x96xbf16> to tensor<2x8x32xbf16>
    %extracted_slice_13 = tensor.extract_slice %expanded[0, 0, 64] [2, 8, 32] [1, 1, 1] : tensor<2x8x96xbf16> to tensor<2x8x32xbf16>
    %expanded_14 = tensor.expand_shape %extracted_slice [[0], [1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<2x8x32xbf16> into tensor<2x8x2x16xbf16>
    %38 = tensor.empty() : tensor<2x2x8x16xbf16>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<2x8x2x16xbf16>) outs(%38 : tensor<2x2x8x16xbf16>) permutation = [0, 2, 1, 3] 
    %expanded_16 = tensor.expand_shape %extracted_slice_12 [[0], [1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<2x8x32xbf16> into tensor<2x8x2x16xbf16>
    %expanded_17 = tensor.expand_shape %extracted_slice_13 [[0], [1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<2x8x32xbf16> into tensor<2x8x2x16xbf16>
    %transposed_18 = linalg.transpose ins(%expanded_17 : tensor<2x8x2x16xbf16>) outs(%38 : tensor<2x2x8x16xbf16>) permutation = [0, 2, 1, 3] 
    %39 = tensor.empty() : tensor<2x2x16x8xbf16>
    %transposed_19 = linalg.transpose ins(%expanded_16 : tensor<2x8x2x16xbf16>) outs(%39 : tensor<2x2x16x8xbf16>) permutation = [0, 2, 3, 1] 
    %collapsed_20 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<2x2x8x16xbf16> into tensor<4x8x16xbf16>
    %collapsed_21 = tensor.collapse_shape %transposed_19 [[0, 1], [2], [3]] : tensor<2x2x16x8xbf16> into tensor<4x16x8xbf16>
    %40 = tensor.empty() : tensor<4x8x8xf32>
    %41 = linalg.fill ins(%cst_0 : f32) outs(%40 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %42 = linalg.batch_matmul ins(%collapsed_20, %collapsed_21 : tensor<4x8x16xbf16>, tensor<4x16x8xbf16>) outs(%41 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %43 = tensor.empty() : tensor<4x8x8xbf16>
    %44 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%42 : tensor<4x8x8xf32>) outs(%43 : tensor<4x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<4x8x8xbf16>
    %expanded_22 = tensor.expand_shape %44 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xbf16> into tensor<2x2x8x8xbf16>
    %45 = tensor.empty() : tensor<2x2x8x8xbf16>
    %46 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_22 : tensor<2x2x8x8xbf16>) outs(%45 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %129 = arith.mulf %in, %cst_11 : bf16
      linalg.yield %129 : bf16
    } -> tensor<2x2x8x8xbf16>
    %47 = tensor.empty() : tensor<8xi64>
    %48 = linalg.generic {indexing_maps = [#map3], iterator_types = ["parallel"]} outs(%47 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %129 = linalg.index 0 : index
      %130 = arith.index_cast %129 : index to i64
      linalg.yield %130 : i64
    } -> tensor<8xi64>
    %expanded_23 = tensor.expand_shape %48 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_24 = tensor.expand_shape %48 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %49 = tensor.empty() : tensor<8x8xi64>
    %50 = linalg.generic {indexing_maps = [#map7, #map8, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded_23, %expanded_24 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%49 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_39: i64, %out: i64):
      %129 = arith.subi %in, %in_39 : i64
      linalg.yield %129 : i64
    } -> tensor<8x8xi64>
    %51 = tensor.empty() : tensor<8x8xi1>
    %52 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%50 : tensor<8x8xi64>) outs(%51 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %129 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %129 : i1
    } -> tensor<8x8xi1>
    %53 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%52, %cst_7 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%51 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_39: i1, %out: i1):
      %129 = arith.andi %in, %in_39 : i1
      linalg.yield %129 : i1
    } -> tensor<8x8xi1>
    %54 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%53 : tensor<8x8xi1>) outs(%51 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %out: i1):
      %129 = arith.xori %in, %true : i1
      linalg.yield %129 : i1
    } -> tensor<8x8xi1>
    %55 = linalg.generic {indexing_maps = [#map9, #map10, #map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54, %cst_6, %46 : tensor<8x8xi1>, tensor<bf16>, tensor<2x2x8x8xbf16>) outs(%45 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: i1, %in_39: bf16, %in_40: bf16, %out: bf16):
      %129 = arith.select %in, %in_39, %in_40 : bf16
      linalg.yield %129 : bf16
    } -> tensor<2x2x8x8xbf16>
    %56 = tensor.empty() : tensor<2x2x8x8xf32>
    %57 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55 : tensor<2x2x8x8xbf16>) outs(%56 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<2x2x8x8xf32>
    %58 = tensor.empty() : tensor<2x2x8xi64>
    %59 = linalg.fill ins(%c0_i64 : i64) outs(%58 : tensor<2x2x8xi64>) -> tensor<2x2x8xi64>
    %60 = tensor.empty() : tensor<2x2x8xf32>
    %61 = linalg.fill ins(%cst_1 : f32) outs(%60 : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
    %62:2 = linalg.generic {indexing_maps = [#map6, #map11, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%57 : tensor<2x2x8x8xf32>) outs(%61, %59 : tensor<2x2x8xf32>, tensor<2x2x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_39: i64):
      %129 = linalg.index 3 : index
      %130 = arith.index_cast %129 : index to i64
      %131 = arith.maximumf %in, %out : f32
      %132 = arith.cmpf ogt, %in, %out : f32
      %133 = arith.select %132, %130, %out_39 : i64
      linalg.yield %131, %133 : f32, i64
    } -> (tensor<2x2x8xf32>, tensor<2x2x8xi64>)
    %expanded_25 = tensor.expand_shape %62#0 [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
    %63 = linalg.generic {indexing_maps = [#map6, #map12, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%57, %expanded_25 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%56 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.subf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<2x2x8x8xf32>
    %64 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%63 : tensor<2x2x8x8xf32>) outs(%56 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = math.exp %in : f32
      linalg.yield %129 : f32
    } -> tensor<2x2x8x8xf32>
    %65 = tensor.empty() : tensor<2x2x8x1xf32>
    %66 = linalg.fill ins(%cst_0 : f32) outs(%65 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
    %67 = linalg.generic {indexing_maps = [#map6, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%64 : tensor<2x2x8x8xf32>) outs(%66 : tensor<2x2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.addf %in, %out : f32
      linalg.yield %129 : f32
    } -> tensor<2x2x8x1xf32>
    %68 = linalg.generic {indexing_maps = [#map6, #map12, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%64, %67 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%56 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.divf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<2x2x8x8xf32>
    %69 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%68 : tensor<2x2x8x8xf32>) outs(%45 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<2x2x8x8xbf16>
    %collapsed_26 = tensor.collapse_shape %69 [[0, 1], [2], [3]] : tensor<2x2x8x8xbf16> into tensor<4x8x8xbf16>
    %collapsed_27 = tensor.collapse_shape %transposed_18 [[0, 1], [2], [3]] : tensor<2x2x8x16xbf16> into tensor<4x8x16xbf16>
    %70 = tensor.empty() : tensor<4x8x16xf32>
    %71 = linalg.fill ins(%cst_0 : f32) outs(%70 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %72 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<4x8x8xbf16>, tensor<4x8x16xbf16>) outs(%71 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %73 = tensor.empty() : tensor<4x8x16xbf16>
    %74 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<4x8x16xf32>) outs(%73 : tensor<4x8x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<4x8x16xbf16>
    %expanded_28 = tensor.expand_shape %74 [[0, 1], [2], [3]] output_shape [2, 2, 8, 16] : tensor<4x8x16xbf16> into tensor<2x2x8x16xbf16>
    %75 = tensor.empty() : tensor<2x8x2x16xbf16>
    %transposed_29 = linalg.transpose ins(%expanded_28 : tensor<2x2x8x16xbf16>) outs(%75 : tensor<2x8x2x16xbf16>) permutation = [0, 2, 1, 3] 
    %collapsed_30 = tensor.collapse_shape %transposed_29 [[0, 1], [2, 3]] : tensor<2x8x2x16xbf16> into tensor<16x32xbf16>
    %76 = tensor.empty() : tensor<32x32xbf16>
    %transposed_31 = linalg.transpose ins(%arg5 : tensor<32x32xbf16>) outs(%76 : tensor<32x32xbf16>) permutation = [1, 0] 
    %77 = tensor.empty() : tensor<32xf32>
    %78 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg6 : tensor<32xbf16>) outs(%77 : tensor<32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<32xf32>
    %79 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed_30 : tensor<16x32xbf16>) outs(%28 : tensor<16x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<16x32xf32>
    %80 = tensor.empty() : tensor<32x32xf32>
    %81 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed_31 : tensor<32x32xbf16>) outs(%80 : tensor<32x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<32x32xf32>
    %82 = linalg.fill ins(%cst_0 : f32) outs(%28 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %83 = linalg.matmul ins(%79, %81 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%82 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %84 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%83, %78 : tensor<16x32xf32>, tensor<32xf32>) outs(%28 : tensor<16x32xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<16x32xf32>
    %85 = tensor.empty() : tensor<16x32xbf16>
    %86 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%84 : tensor<16x32xf32>) outs(%85 : tensor<16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<16x32xbf16>
    %expanded_32 = tensor.expand_shape %86 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xbf16> into tensor<2x8x32xbf16>
    %87 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_32 : tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) outs(%23 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_39: bf16, %out: bf16):
      %129 = arith.addf %in, %in_39 : bf16
      linalg.yield %129 : bf16
    } -> tensor<2x8x32xbf16>
    %88 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87 : tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<2x8x32xf32>
    %89 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88 : tensor<2x8x32xf32>) outs(%2 : tensor<2x8x32xf64>) {
    ^bb0(%in: f32, %out: f64):
      %129 = arith.extf %in : f32 to f64
      linalg.yield %129 : f64
    } -> tensor<2x8x32xf64>
    %90 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%89 : tensor<2x8x32xf64>) outs(%5 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %91 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%90 : tensor<2x8x1xf64>) outs(%4 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %92 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%89, %91 : tensor<2x8x32xf64>, tensor<2x8x1xf64>) outs(%2 : tensor<2x8x32xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.subf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x32xf64>
    %93 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%92, %92 : tensor<2x8x32xf64>, tensor<2x8x32xf64>) outs(%2 : tensor<2x8x32xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %129 = arith.mulf %in, %in_39 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x32xf64>
    %94 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%93 : tensor<2x8x32xf64>) outs(%5 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.addf %in, %out : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %95 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%94 : tensor<2x8x1xf64>) outs(%4 : tensor<2x8x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %129 = arith.divf %in, %cst_9 : f64
      linalg.yield %129 : f64
    } -> tensor<2x8x1xf64>
    %96 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%95 : tensor<2x8x1xf64>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %129 = arith.truncf %in : f64 to f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %97 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%88 : tensor<2x8x32xf32>) outs(%14 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.addf %in, %out : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %98 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%97 : tensor<2x8x1xf32>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.divf %in, %cst_10 : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %99 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%96 : tensor<2x8x1xf32>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = arith.truncf %cst_8 : f64 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<2x8x1xf32>
    %100 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%99 : tensor<2x8x1xf32>) outs(%12 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %129 = math.rsqrt %in : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x1xf32>
    %101 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %98 : tensor<2x8x32xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.subf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x32xf32>
    %102 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%101, %100 : tensor<2x8x32xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.mulf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<2x8x32xf32>
    %103 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%102, %arg7 : tensor<2x8x32xf32>, tensor<32xbf16>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: bf16, %out: f32):
      %129 = arith.extf %in_39 : bf16 to f32
      %130 = arith.mulf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<2x8x32xf32>
    %104 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%103, %arg8 : tensor<2x8x32xf32>, tensor<32xbf16>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_39: bf16, %out: f32):
      %129 = arith.extf %in_39 : bf16 to f32
      %130 = arith.addf %in, %129 : f32
      linalg.yield %130 : f32
    } -> tensor<2x8x32xf32>
    %105 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%104 : tensor<2x8x32xf32>) outs(%23 : tensor<2x8x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<2x8x32xbf16>
    %collapsed_33 = tensor.collapse_shape %105 [[0, 1], [2]] : tensor<2x8x32xbf16> into tensor<16x32xbf16>
    %106 = tensor.empty() : tensor<32x128xbf16>
    %transposed_34 = linalg.transpose ins(%arg9 : tensor<128x32xbf16>) outs(%106 : tensor<32x128xbf16>) permutation = [1, 0] 
    %107 = tensor.empty() : tensor<128xf32>
    %108 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg10 : tensor<128xbf16>) outs(%107 : tensor<128xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<128xf32>
    %109 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed_33 : tensor<16x32xbf16>) outs(%28 : tensor<16x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<16x32xf32>
    %110 = tensor.empty() : tensor<32x128xf32>
    %111 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed_34 : tensor<32x128xbf16>) outs(%110 : tensor<32x128xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<32x128xf32>
    %112 = tensor.empty() : tensor<16x128xf32>
    %113 = linalg.fill ins(%cst_0 : f32) outs(%112 : tensor<16x128xf32>) -> tensor<16x128xf32>
    %114 = linalg.matmul ins(%109, %111 : tensor<16x32xf32>, tensor<32x128xf32>) outs(%113 : tensor<16x128xf32>) -> tensor<16x128xf32>
    %115 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%114, %108 : tensor<16x128xf32>, tensor<128xf32>) outs(%112 : tensor<16x128xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<16x128xf32>
    %116 = tensor.empty() : tensor<16x128xbf16>
    %117 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%115 : tensor<16x128xf32>) outs(%116 : tensor<16x128xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<16x128xbf16>
    %expanded_35 = tensor.expand_shape %117 [[0, 1], [2]] output_shape [2, 8, 128] : tensor<16x128xbf16> into tensor<2x8x128xbf16>
    %118 = tensor.empty() : tensor<2x8x128xbf16>
    %119 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<2x8x128xbf16>) outs(%118 : tensor<2x8x128xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %129 = math.fpowi %in, %c3_i64 : bf16, i64
      %130 = arith.mulf %129, %cst_2 : bf16
      %131 = arith.addf %in, %130 : bf16
      %132 = arith.mulf %131, %cst_3 : bf16
      %133 = math.tanh %132 : bf16
      %134 = arith.addf %133, %cst_4 : bf16
      %135 = arith.mulf %134, %cst_5 : bf16
      %136 = arith.mulf %in, %135 : bf16
      linalg.yield %136 : bf16
    } -> tensor<2x8x128xbf16>
    %collapsed_36 = tensor.collapse_shape %119 [[0, 1], [2]] : tensor<2x8x128xbf16> into tensor<16x128xbf16>
    %120 = tensor.empty() : tensor<128x32xbf16>
    %transposed_37 = linalg.transpose ins(%arg11 : tensor<32x128xbf16>) outs(%120 : tensor<128x32xbf16>) permutation = [1, 0] 
    %121 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel"]} ins(%arg12 : tensor<32xbf16>) outs(%77 : tensor<32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<32xf32>
    %122 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%collapsed_36 : tensor<16x128xbf16>) outs(%112 : tensor<16x128xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<16x128xf32>
    %123 = tensor.empty() : tensor<128x32xf32>
    %124 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%transposed_37 : tensor<128x32xbf16>) outs(%123 : tensor<128x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %129 = arith.extf %in : bf16 to f32
      linalg.yield %129 : f32
    } -> tensor<128x32xf32>
    %125 = linalg.matmul ins(%122, %124 : tensor<16x128xf32>, tensor<128x32xf32>) outs(%82 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %126 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%125, %121 : tensor<16x32xf32>, tensor<32xf32>) outs(%28 : tensor<16x32xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %129 = arith.addf %in, %in_39 : f32
      linalg.yield %129 : f32
    } -> tensor<16x32xf32>
    %127 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%126 : tensor<16x32xf32>) outs(%85 : tensor<16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %129 = arith.truncf %in : f32 to bf16
      linalg.yield %129 : bf16
    } -> tensor<16x32xbf16>
    %expanded_38 = tensor.expand_shape %127 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xbf16> into tensor<2x8x32xbf16>
    %128 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87, %expanded_38 : tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) outs(%23 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_39: bf16, %out: bf16):
      %129 = arith.addf %in, %in_39 : bf16
      linalg.yield %129 : bf16
    } -> tensor<2x8x32xbf16>
    return %128 : tensor<2x8x32xbf16>
  }
}
