#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1) -> (d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map6 = affine_map<(d0) -> (d0)>
#map7 = affine_map<(d0, d1) -> (0, d1)>
#map8 = affine_map<(d0, d1) -> (d0, 0)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map10 = affine_map<(d0, d1, d2, d3) -> ()>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map12 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @gpt2_block(%arg0: tensor<8x128x768xf32>, %arg1: tensor<768xf32>, %arg2: tensor<768xf32>, %arg3: tensor<2304x768xf32>, %arg4: tensor<2304xf32>, %arg5: tensor<768x768xf32>, %arg6: tensor<768xf32>, %arg7: tensor<768xf32>, %arg8: tensor<768xf32>, %arg9: tensor<3072x768xf32>, %arg10: tensor<3072xf32>, %arg11: tensor<768x3072xf32>, %arg12: tensor<768xf32>) -> tensor<8x128x768xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f64
    %cst_0 = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 0xFF800000 : f32
    %c3_i64 = arith.constant 3 : i64
    %cst_2 = arith.constant 4.471500e-02 : f32
    %cst_3 = arith.constant 7.977240e-01 : f32
    %cst_4 = arith.constant 1.000000e+00 : f32
    %cst_5 = arith.constant 5.000000e-01 : f32
    %cst_6 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_7 = arith.constant dense<true> : tensor<128x128xi1>
    %cst_8 = arith.constant 1.000000e-05 : f64
    %cst_9 = arith.constant 7.680000e+02 : f64
    %cst_10 = arith.constant 7.680000e+02 : f32
    %cst_11 = arith.constant 1.250000e-01 : f32
    %0 = tensor.empty() : tensor<8x128x768xf64>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<8x128x768xf32>) outs(%0 : tensor<8x128x768xf64>) {
    ^bb0(%in: f32, %out: f64):
      %91 = arith.extf %in : f32 to f64
      linalg.yield %91 : f64
    } -> tensor<8x128x768xf64>
    %2 = tensor.empty() : tensor<8x128x1xf64>
    %3 = linalg.fill ins(%cst : f64) outs(%2 : tensor<8x128x1xf64>) -> tensor<8x128x1xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<8x128x768xf64>) outs(%3 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.addf %in, %out : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<8x128x1xf64>) outs(%2 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.divf %in, %cst_9 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %6 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%1, %5 : tensor<8x128x768xf64>, tensor<8x128x1xf64>) outs(%0 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %91 = arith.subf %in, %in_39 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x768xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %6 : tensor<8x128x768xf64>, tensor<8x128x768xf64>) outs(%0 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %91 = arith.mulf %in, %in_39 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x768xf64>
    %8 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%7 : tensor<8x128x768xf64>) outs(%3 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.addf %in, %out : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%8 : tensor<8x128x1xf64>) outs(%2 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.divf %in, %cst_9 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %10 = tensor.empty() : tensor<8x128x1xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9 : tensor<8x128x1xf64>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %91 = arith.truncf %in : f64 to f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%10 : tensor<8x128x1xf32>) -> tensor<8x128x1xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<8x128x768xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.addf %in, %out : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%13 : tensor<8x128x1xf32>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.divf %in, %cst_10 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %15 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%11 : tensor<8x128x1xf32>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.truncf %cst_8 : f64 to f32
      %92 = arith.addf %in, %91 : f32
      linalg.yield %92 : f32
    } -> tensor<8x128x1xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%15 : tensor<8x128x1xf32>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = math.rsqrt %in : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %17 = tensor.empty() : tensor<8x128x768xf32>
    %18 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %14 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.subf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %19 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%18, %16 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.mulf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%19, %arg1 : tensor<8x128x768xf32>, tensor<768xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.mulf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %arg2 : tensor<8x128x768xf32>, tensor<768xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %collapsed = tensor.collapse_shape %21 [[0, 1], [2]] : tensor<8x128x768xf32> into tensor<1024x768xf32>
    %22 = tensor.empty() : tensor<768x2304xf32>
    %transposed = linalg.transpose ins(%arg3 : tensor<2304x768xf32>) outs(%22 : tensor<768x2304xf32>) permutation = [1, 0] 
    %23 = tensor.empty() : tensor<1024x2304xf32>
    %24 = linalg.fill ins(%cst_0 : f32) outs(%23 : tensor<1024x2304xf32>) -> tensor<1024x2304xf32>
    %25 = linalg.matmul ins(%collapsed, %transposed : tensor<1024x768xf32>, tensor<768x2304xf32>) outs(%24 : tensor<1024x2304xf32>) -> tensor<1024x2304xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%25, %arg4 : tensor<1024x2304xf32>, tensor<2304xf32>) outs(%23 : tensor<1024x2304xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<1024x2304xf32>
    %expanded = tensor.expand_shape %26 [[0, 1], [2]] output_shape [8, 128, 2304] : tensor<1024x2304xf32> into tensor<8x128x2304xf32>
    %extracted_slice = tensor.extract_slice %expanded[0, 0, 0] [8, 128, 768] [1, 1, 1] : tensor<8x128x2304xf32> to tensor<8x128x768xf32>
    %extracted_slice_12 = tensor.extract_slice %expanded[0, 0, 768] [8, 128, 768] [1, 1, 1] : tensor<8x128x2304xf32> to tensor<8x128x768xf32>
    %extracted_slice_13 = tensor.extract_slice %expanded[0, 0, 1536] [8, 128, 768] [1, 1, 1] : tensor<8x128x2304xf32> to tensor<8x128x768xf32>
    %expanded_14 = tensor.expand_shape %extracted_slice [[0], [1], [2, 3]] output_shape [8, 128, 12, 64] : tensor<8x128x768xf32> into tensor<8x128x12x64xf32>
    %27 = tensor.empty() : tensor<8x12x128x64xf32>
    %transposed_15 = linalg.transpose ins(%expanded_14 : tensor<8x128x12x64xf32>) outs(%27 : tensor<8x12x128x64xf32>) permutation = [0, 2, 1, 3] 
    %expanded_16 = tensor.expand_shape %extracted_slice_12 [[0], [1], [2, 3]] output_shape [8, 128, 12, 64] : tensor<8x128x768xf32> into tensor<8x128x12x64xf32>
    %expanded_17 = tensor.expand_shape %extracted_slice_13 [[0], [1], [2, 3]] output_shape [8, 128, 12, 64] : tensor<8x128x768xf32> into tensor<8x128x12x64xf32>
    %transposed_18 = linalg.transpose ins(%expanded_17 : tensor<8x128x12x64xf32>) outs(%27 : tensor<8x12x128x64xf32>) permutation = [0, 2, 1, 3] 
    %28 = tensor.empty() : tensor<8x12x64x128xf32>
    %transposed_19 = linalg.transpose ins(%expanded_16 : tensor<8x128x12x64xf32>) outs(%28 : tensor<8x12x64x128xf32>) permutation = [0, 2, 3, 1] 
    %collapsed_20 = tensor.collapse_shape %transposed_15 [[0, 1], [2], [3]] : tensor<8x12x128x64xf32> into tensor<96x128x64xf32>
    %collapsed_21 = tensor.collapse_shape %transposed_19 [[0, 1], [2], [3]] : tensor<8x12x64x128xf32> into tensor<96x64x128xf32>
    %29 = tensor.empty() : tensor<96x128x128xf32>
    %30 = linalg.fill ins(%cst_0 : f32) outs(%29 : tensor<96x128x128xf32>) -> tensor<96x128x128xf32>
    %31 = linalg.batch_matmul ins(%collapsed_20, %collapsed_21 : tensor<96x128x64xf32>, tensor<96x64x128xf32>) outs(%30 : tensor<96x128x128xf32>) -> tensor<96x128x128xf32>
    %expanded_22 = tensor.expand_shape %31 [[0, 1], [2], [3]] output_shape [8, 12, 128, 128] : tensor<96x128x128xf32> into tensor<8x12x128x128xf32>
    %32 = tensor.empty() : tensor<8x12x128x128xf32>
    %33 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_22 : tensor<8x12x128x128xf32>) outs(%32 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.mulf %in, %cst_11 : f32
      linalg.yield %91 : f32
    } -> tensor<8x12x128x128xf32>
    %34 = tensor.empty() : tensor<128xi64>
    %35 = linalg.generic {indexing_maps = [#map6], iterator_types = ["parallel"]} outs(%34 : tensor<128xi64>) {
    ^bb0(%out: i64):
      %91 = linalg.index 0 : index
      %92 = arith.index_cast %91 : index to i64
      linalg.yield %92 : i64
    } -> tensor<128xi64>
    %expanded_23 = tensor.expand_shape %35 [[0, 1]] output_shape [1, 128] : tensor<128xi64> into tensor<1x128xi64>
    %expanded_24 = tensor.expand_shape %35 [[0, 1]] output_shape [128, 1] : tensor<128xi64> into tensor<128x1xi64>
    %36 = tensor.empty() : tensor<128x128xi64>
    %37 = linalg.generic {indexing_maps = [#map7, #map8, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_23, %expanded_24 : tensor<1x128xi64>, tensor<128x1xi64>) outs(%36 : tensor<128x128xi64>) {
    ^bb0(%in: i64, %in_39: i64, %out: i64):
      %91 = arith.subi %in, %in_39 : i64
      linalg.yield %91 : i64
    } -> tensor<128x128xi64>
    %38 = tensor.empty() : tensor<128x128xi1>
    %39 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%37 : tensor<128x128xi64>) outs(%38 : tensor<128x128xi1>) {
    ^bb0(%in: i64, %out: i1):
      %91 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %91 : i1
    } -> tensor<128x128xi1>
    %40 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%39, %cst_7 : tensor<128x128xi1>, tensor<128x128xi1>) outs(%38 : tensor<128x128xi1>) {
    ^bb0(%in: i1, %in_39: i1, %out: i1):
      %91 = arith.andi %in, %in_39 : i1
      linalg.yield %91 : i1
    } -> tensor<128x128xi1>
    %41 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%40 : tensor<128x128xi1>) outs(%38 : tensor<128x128xi1>) {
    ^bb0(%in: i1, %out: i1):
      %91 = arith.xori %in, %true : i1
      linalg.yield %91 : i1
    } -> tensor<128x128xi1>
    %42 = linalg.generic {indexing_maps = [#map9, #map10, #map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%41, %cst_6, %33 : tensor<128x128xi1>, tensor<f32>, tensor<8x12x128x128xf32>) outs(%32 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: i1, %in_39: f32, %in_40: f32, %out: f32):
      %91 = arith.select %in, %in_39, %in_40 : f32
      linalg.yield %91 : f32
    } -> tensor<8x12x128x128xf32>
    %43 = tensor.empty() : tensor<8x12x128xi64>
    %44 = linalg.fill ins(%c0_i64 : i64) outs(%43 : tensor<8x12x128xi64>) -> tensor<8x12x128xi64>
    %45 = tensor.empty() : tensor<8x12x128xf32>
    %46 = linalg.fill ins(%cst_1 : f32) outs(%45 : tensor<8x12x128xf32>) -> tensor<8x12x128xf32>
    %47:2 = linalg.generic {indexing_maps = [#map5, #map11, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%42 : tensor<8x12x128x128xf32>) outs(%46, %44 : tensor<8x12x128xf32>, tensor<8x12x128xi64>) {
    ^bb0(%in: f32, %out: f32, %out_39: i64):
      %91 = linalg.index 3 : index
      %92 = arith.index_cast %91 : index to i64
      %93 = arith.maximumf %in, %out : f32
      %94 = arith.cmpf ogt, %in, %out : f32
      %95 = arith.select %94, %92, %out_39 : i64
      linalg.yield %93, %95 : f32, i64
    } -> (tensor<8x12x128xf32>, tensor<8x12x128xi64>)
    %expanded_25 = tensor.expand_shape %47#0 [[0], [1], [2, 3]] output_shape [8, 12, 128, 1] : tensor<8x12x128xf32> into tensor<8x12x128x1xf32>
    %48 = linalg.generic {indexing_maps = [#map5, #map12, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%42, %expanded_25 : tensor<8x12x128x128xf32>, tensor<8x12x128x1xf32>) outs(%32 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.subf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x12x128x128xf32>
    %49 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48 : tensor<8x12x128x128xf32>) outs(%32 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = math.exp %in : f32
      linalg.yield %91 : f32
    } -> tensor<8x12x128x128xf32>
    %50 = tensor.empty() : tensor<8x12x128x1xf32>
    %51 = linalg.fill ins(%cst_0 : f32) outs(%50 : tensor<8x12x128x1xf32>) -> tensor<8x12x128x1xf32>
    %52 = linalg.generic {indexing_maps = [#map5, #map12], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%49 : tensor<8x12x128x128xf32>) outs(%51 : tensor<8x12x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.addf %in, %out : f32
      linalg.yield %91 : f32
    } -> tensor<8x12x128x1xf32>
    %53 = linalg.generic {indexing_maps = [#map5, #map12, #map5], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%49, %52 : tensor<8x12x128x128xf32>, tensor<8x12x128x1xf32>) outs(%32 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.divf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x12x128x128xf32>
    %collapsed_26 = tensor.collapse_shape %53 [[0, 1], [2], [3]] : tensor<8x12x128x128xf32> into tensor<96x128x128xf32>
    %collapsed_27 = tensor.collapse_shape %transposed_18 [[0, 1], [2], [3]] : tensor<8x12x128x64xf32> into tensor<96x128x64xf32>
    %54 = tensor.empty() : tensor<96x128x64xf32>
    %55 = linalg.fill ins(%cst_0 : f32) outs(%54 : tensor<96x128x64xf32>) -> tensor<96x128x64xf32>
    %56 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<96x128x128xf32>, tensor<96x128x64xf32>) outs(%55 : tensor<96x128x64xf32>) -> tensor<96x128x64xf32>
    %expanded_28 = tensor.expand_shape %56 [[0, 1], [2], [3]] output_shape [8, 12, 128, 64] : tensor<96x128x64xf32> into tensor<8x12x128x64xf32>
    %57 = tensor.empty() : tensor<8x128x12x64xf32>
    %transposed_29 = linalg.transpose ins(%expanded_28 : tensor<8x12x128x64xf32>) outs(%57 : tensor<8x128x12x64xf32>) permutation = [0, 2, 1, 3] 
    %collapsed_30 = tensor.collapse_shape %transposed_29 [[0, 1], [2, 3]] : tensor<8x128x12x64xf32> into tensor<1024x768xf32>
    %58 = tensor.empty() : tensor<768x768xf32>
    %transposed_31 = linalg.transpose ins(%arg5 : tensor<768x768xf32>) outs(%58 : tensor<768x768xf32>) permutation = [1, 0] 
    %59 = tensor.empty() : tensor<1024x768xf32>
    %60 = linalg.fill ins(%cst_0 : f32) outs(%59 : tensor<1024x768xf32>) -> tensor<1024x768xf32>
    %61 = linalg.matmul ins(%collapsed_30, %transposed_31 : tensor<1024x768xf32>, tensor<768x768xf32>) outs(%60 : tensor<1024x768xf32>) -> tensor<1024x768xf32>
    %62 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%61, %arg6 : tensor<1024x768xf32>, tensor<768xf32>) outs(%59 : tensor<1024x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<1024x768xf32>
    %expanded_32 = tensor.expand_shape %62 [[0, 1], [2]] output_shape [8, 128, 768] : tensor<1024x768xf32> into tensor<8x128x768xf32>
    %63 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_32 : tensor<8x128x768xf32>, tensor<8x128x768xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %64 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63 : tensor<8x128x768xf32>) outs(%0 : tensor<8x128x768xf64>) {
    ^bb0(%in: f32, %out: f64):
      %91 = arith.extf %in : f32 to f64
      linalg.yield %91 : f64
    } -> tensor<8x128x768xf64>
    %65 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%64 : tensor<8x128x768xf64>) outs(%3 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.addf %in, %out : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %66 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%65 : tensor<8x128x1xf64>) outs(%2 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.divf %in, %cst_9 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %67 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%64, %66 : tensor<8x128x768xf64>, tensor<8x128x1xf64>) outs(%0 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %91 = arith.subf %in, %in_39 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x768xf64>
    %68 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%67, %67 : tensor<8x128x768xf64>, tensor<8x128x768xf64>) outs(%0 : tensor<8x128x768xf64>) {
    ^bb0(%in: f64, %in_39: f64, %out: f64):
      %91 = arith.mulf %in, %in_39 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x768xf64>
    %69 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%68 : tensor<8x128x768xf64>) outs(%3 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.addf %in, %out : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69 : tensor<8x128x1xf64>) outs(%2 : tensor<8x128x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %91 = arith.divf %in, %cst_9 : f64
      linalg.yield %91 : f64
    } -> tensor<8x128x1xf64>
    %71 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%70 : tensor<8x128x1xf64>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f64, %out: f32):
      %91 = arith.truncf %in : f64 to f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%63 : tensor<8x128x768xf32>) outs(%12 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.addf %in, %out : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %73 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<8x128x1xf32>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.divf %in, %cst_10 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %74 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71 : tensor<8x128x1xf32>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = arith.truncf %cst_8 : f64 to f32
      %92 = arith.addf %in, %91 : f32
      linalg.yield %92 : f32
    } -> tensor<8x128x1xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%74 : tensor<8x128x1xf32>) outs(%10 : tensor<8x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = math.rsqrt %in : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x1xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63, %73 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.subf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %77 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%76, %75 : tensor<8x128x768xf32>, tensor<8x128x1xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.mulf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %78 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%77, %arg7 : tensor<8x128x768xf32>, tensor<768xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.mulf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %79 = linalg.generic {indexing_maps = [#map, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%78, %arg8 : tensor<8x128x768xf32>, tensor<768xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    %collapsed_33 = tensor.collapse_shape %79 [[0, 1], [2]] : tensor<8x128x768xf32> into tensor<1024x768xf32>
    %80 = tensor.empty() : tensor<768x3072xf32>
    %transposed_34 = linalg.transpose ins(%arg9 : tensor<3072x768xf32>) outs(%80 : tensor<768x3072xf32>) permutation = [1, 0] 
    %81 = tensor.empty() : tensor<1024x3072xf32>
    %82 = linalg.fill ins(%cst_0 : f32) outs(%81 : tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
    %83 = linalg.matmul ins(%collapsed_33, %transposed_34 : tensor<1024x768xf32>, tensor<768x3072xf32>) outs(%82 : tensor<1024x3072xf32>) -> tensor<1024x3072xf32>
    %84 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%83, %arg10 : tensor<1024x3072xf32>, tensor<3072xf32>) outs(%81 : tensor<1024x3072xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<1024x3072xf32>
    %expanded_35 = tensor.expand_shape %84 [[0, 1], [2]] output_shape [8, 128, 3072] : tensor<1024x3072xf32> into tensor<8x128x3072xf32>
    %85 = tensor.empty() : tensor<8x128x3072xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<8x128x3072xf32>) outs(%85 : tensor<8x128x3072xf32>) {
    ^bb0(%in: f32, %out: f32):
      %91 = math.fpowi %in, %c3_i64 : f32, i64
      %92 = arith.mulf %91, %cst_2 : f32
      %93 = arith.addf %in, %92 : f32
      %94 = arith.mulf %93, %cst_3 : f32
      %95 = math.tanh %94 : f32
      %96 = arith.addf %95, %cst_4 : f32
      %97 = arith.mulf %96, %cst_5 : f32
      %98 = arith.mulf %in, %97 : f32
      linalg.yield %98 : f32
    } -> tensor<8x128x3072xf32>
    %collapsed_36 = tensor.collapse_shape %86 [[0, 1], [2]] : tensor<8x128x3072xf32> into tensor<1024x3072xf32>
    %87 = tensor.empty() : tensor<3072x768xf32>
    %transposed_37 = linalg.transpose ins(%arg11 : tensor<768x3072xf32>) outs(%87 : tensor<3072x768xf32>) permutation = [1, 0] 
    %88 = linalg.matmul ins(%collapsed_36, %transposed_37 : tensor<1024x3072xf32>, tensor<3072x768xf32>) outs(%60 : tensor<1024x768xf32>) -> tensor<1024x768xf32>
    %89 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel"]} ins(%88, %arg12 : tensor<1024x768xf32>, tensor<768xf32>) outs(%59 : tensor<1024x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<1024x768xf32>
    %expanded_38 = tensor.expand_shape %89 [[0, 1], [2]] output_shape [8, 128, 768] : tensor<1024x768xf32> into tensor<8x128x768xf32>
    %90 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63, %expanded_38 : tensor<8x128x768xf32>, tensor<8x128x768xf32>) outs(%17 : tensor<8x128x768xf32>) {
    ^bb0(%in: f32, %in_39: f32, %out: f32):
      %91 = arith.addf %in, %in_39 : f32
      linalg.yield %91 : f32
    } -> tensor<8x128x768xf32>
    return %90 : tensor<8x128x768xf32>
  }
}
