#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1) -> (d0, d1)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map6 = affine_map<(d0) -> (d0)>
#map7 = affine_map<(d0, d1) -> (0, d1)>
#map8 = affine_map<(d0, d1) -> (d0, 0)>
#map9 = affine_map<(d0, d1, d2, d3) -> ()>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @llama_block_bf16(%arg0: tensor<2x8x32xbf16>, %arg1: tensor<32xbf16>, %arg2: tensor<32x32xbf16>, %arg3: tensor<32x32xbf16>, %arg4: tensor<32x32xbf16>, %arg5: tensor<32x32xbf16>, %arg6: tensor<8x16xbf16>, %arg7: tensor<8x16xbf16>, %arg8: tensor<32xbf16>, %arg9: tensor<88x32xbf16>, %arg10: tensor<88x32xbf16>, %arg11: tensor<32x88xbf16>) -> tensor<2x8x32xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : bf16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant dense<0xFF80> : tensor<bf16>
    %cst_4 = arith.constant dense<true> : tensor<8x8xi1>
    %cst_5 = arith.constant 9.9999999999999995E-7 : f64
    %cst_6 = arith.constant 3.200000e+01 : bf16
    %cst_7 = arith.constant 2.500000e-01 : bf16
    %0 = tensor.empty() : tensor<2x8x32xbf16>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = math.fpowi %in, %c2_i64 : bf16, i64
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    %2 = tensor.empty() : tensor<2x8x1xbf16>
    %3 = linalg.fill ins(%cst : bf16) outs(%2 : tensor<2x8x1xbf16>) -> tensor<2x8x1xbf16>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<2x8x32xbf16>) outs(%3 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.addf %in, %out : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x1xbf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<2x8x1xbf16>) outs(%2 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.divf %in, %cst_6 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x1xbf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<2x8x1xbf16>) outs(%2 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.truncf %cst_5 : f64 to bf16
      %96 = arith.addf %in, %95 : bf16
      linalg.yield %96 : bf16
    } -> tensor<2x8x1xbf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x8x1xbf16>) outs(%2 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = math.rsqrt %in : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x1xbf16>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<2x8x32xbf16>, tensor<2x8x1xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %8 : tensor<32xbf16>, tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    %10 = tensor.empty() : tensor<32x32xbf16>
    %transposed = linalg.transpose ins(%arg2 : tensor<32x32xbf16>) outs(%10 : tensor<32x32xbf16>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<2x8x32xbf16> into tensor<16x32xbf16>
    %11 = tensor.empty() : tensor<16x32xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<16x32xbf16>, tensor<32x32xbf16>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %14 = tensor.empty() : tensor<16x32xbf16>
    %15 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<16x32xf32>) outs(%14 : tensor<16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<16x32xbf16>
    %expanded = tensor.expand_shape %15 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xbf16> into tensor<2x8x2x16xbf16>
    %16 = tensor.empty() : tensor<2x2x8x16xbf16>
    %transposed_8 = linalg.transpose ins(%expanded : tensor<2x8x2x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) permutation = [0, 2, 1, 3] 
    %transposed_9 = linalg.transpose ins(%arg3 : tensor<32x32xbf16>) outs(%10 : tensor<32x32xbf16>) permutation = [1, 0] 
    %17 = linalg.matmul ins(%collapsed, %transposed_9 : tensor<16x32xbf16>, tensor<32x32xbf16>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %18 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<16x32xf32>) outs(%14 : tensor<16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<16x32xbf16>
    %expanded_10 = tensor.expand_shape %18 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xbf16> into tensor<2x8x2x16xbf16>
    %transposed_11 = linalg.transpose ins(%expanded_10 : tensor<2x8x2x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) permutation = [0, 2, 1, 3] 
    %transposed_12 = linalg.transpose ins(%arg4 : tensor<32x32xbf16>) outs(%10 : tensor<32x32xbf16>) permutation = [1, 0] 
    %19 = linalg.matmul ins(%collapsed, %transposed_12 : tensor<16x32xbf16>, tensor<32x32xbf16>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<16x32xf32>) outs(%14 : tensor<16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<16x32xbf16>
    %expanded_13 = tensor.expand_shape %20 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xbf16> into tensor<2x8x2x16xbf16>
    %transposed_14 = linalg.transpose ins(%expanded_13 : tensor<2x8x2x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) permutation = [0, 2, 1, 3] 
    %21 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_8, %arg6 : tensor<2x2x8x16xbf16>, tensor<8x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x16xbf16>
    %extracted_slice = tensor.extract_slice %transposed_8[0, 0, 0, 8] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xbf16> to tensor<2x2x8x8xbf16>
    %22 = tensor.empty() : tensor<2x2x8x8xbf16>
    %23 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<2x2x8x8xbf16>) outs(%22 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.negf %in : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x8xbf16>
    %extracted_slice_15 = tensor.extract_slice %transposed_8[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xbf16> to tensor<2x2x8x8xbf16>
    %concat = tensor.concat dim(3) %23, %extracted_slice_15 : (tensor<2x2x8x8xbf16>, tensor<2x2x8x8xbf16>) -> tensor<2x2x8x16xbf16>
    %24 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %arg7 : tensor<2x2x8x16xbf16>, tensor<8x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x16xbf16>
    %25 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %24 : tensor<2x2x8x16xbf16>, tensor<2x2x8x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.addf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x16xbf16>
    %26 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_11, %arg6 : tensor<2x2x8x16xbf16>, tensor<8x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x16xbf16>
    %extracted_slice_16 = tensor.extract_slice %transposed_11[0, 0, 0, 8] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xbf16> to tensor<2x2x8x8xbf16>
    %27 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_16 : tensor<2x2x8x8xbf16>) outs(%22 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.negf %in : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x8xbf16>
    %extracted_slice_17 = tensor.extract_slice %transposed_11[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xbf16> to tensor<2x2x8x8xbf16>
    %concat_18 = tensor.concat dim(3) %27, %extracted_slice_17 : (tensor<2x2x8x8xbf16>, tensor<2x2x8x8xbf16>) -> tensor<2x2x8x16xbf16>
    %28 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_18, %arg7 : tensor<2x2x8x16xbf16>, tensor<8x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x16xbf16>
    %29 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %28 : tensor<2x2x8x16xbf16>, tensor<2x2x8x16xbf16>) outs(%16 : tensor<2x2x8x16xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.addf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x16xbf16>
    %30 = tensor.empty() : tensor<2x2x16x8xbf16>
    %transposed_19 = linalg.transpose ins(%29 : tensor<2x2x8x16xbf16>) outs(%30 : tensor<2x2x16x8xbf16>) permutation = [0, 1, 3, 2] 
    %collapsed_20 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<2x2x8x16xbf16> into tensor<4x8x16xbf16>
    %collapsed_21 = tensor.collapse_shape %transposed_19 [[0, 1], [2], [3]] : tensor<2x2x16x8xbf16> into tensor<4x16x8xbf16>
    %31 = tensor.empty() : tensor<4x8x8xf32>
    %32 = linalg.fill ins(%cst_0 : f32) outs(%31 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %33 = linalg.batch_matmul ins(%collapsed_20, %collapsed_21 : tensor<4x8x16xbf16>, tensor<4x16x8xbf16>) outs(%32 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %34 = tensor.empty() : tensor<4x8x8xbf16>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%33 : tensor<4x8x8xf32>) outs(%34 : tensor<4x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<4x8x8xbf16>
    %expanded_22 = tensor.expand_shape %35 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xbf16> into tensor<2x2x8x8xbf16>
    %36 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_22 : tensor<2x2x8x8xbf16>) outs(%22 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.mulf %in, %cst_7 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x8xbf16>
    %37 = tensor.empty() : tensor<8xi64>
    %38 = linalg.generic {indexing_maps = [#map6], iterator_types = ["parallel"]} outs(%37 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %95 = linalg.index 0 : index
      %96 = arith.index_cast %95 : index to i64
      linalg.yield %96 : i64
    } -> tensor<8xi64>
    %expanded_23 = tensor.expand_shape %38 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_24 = tensor.expand_shape %38 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %39 = tensor.empty() : tensor<8x8xi64>
    %40 = linalg.generic {indexing_maps = [#map7, #map8, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_23, %expanded_24 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%39 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_41: i64, %out: i64):
      %95 = arith.subi %in, %in_41 : i64
      linalg.yield %95 : i64
    } -> tensor<8x8xi64>
    %41 = tensor.empty() : tensor<8x8xi1>
    %42 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%40 : tensor<8x8xi64>) outs(%41 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %95 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %95 : i1
    } -> tensor<8x8xi1>
    %43 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%42, %cst_4 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%41 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_41: i1, %out: i1):
      %95 = arith.andi %in, %in_41 : i1
      linalg.yield %95 : i1
    } -> tensor<8x8xi1>
    %44 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%43 : tensor<8x8xi1>) outs(%41 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %out: i1):
      %95 = arith.xori %in, %true : i1
      linalg.yield %95 : i1
    } -> tensor<8x8xi1>
    %45 = linalg.generic {indexing_maps = [#map5, #map9, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %cst_3, %36 : tensor<8x8xi1>, tensor<bf16>, tensor<2x2x8x8xbf16>) outs(%22 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: i1, %in_41: bf16, %in_42: bf16, %out: bf16):
      %95 = arith.select %in, %in_41, %in_42 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x8xbf16>
    %46 = tensor.empty() : tensor<2x2x8x8xf32>
    %47 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45 : tensor<2x2x8x8xbf16>) outs(%46 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %95 = arith.extf %in : bf16 to f32
      linalg.yield %95 : f32
    } -> tensor<2x2x8x8xf32>
    %48 = tensor.empty() : tensor<2x2x8xi64>
    %49 = linalg.fill ins(%c0_i64 : i64) outs(%48 : tensor<2x2x8xi64>) -> tensor<2x2x8xi64>
    %50 = tensor.empty() : tensor<2x2x8xf32>
    %51 = linalg.fill ins(%cst_1 : f32) outs(%50 : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
    %52:2 = linalg.generic {indexing_maps = [#map4, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%47 : tensor<2x2x8x8xf32>) outs(%51, %49 : tensor<2x2x8xf32>, tensor<2x2x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_41: i64):
      %95 = linalg.index 3 : index
      %96 = arith.index_cast %95 : index to i64
      %97 = arith.maximumf %in, %out : f32
      %98 = arith.cmpf ogt, %in, %out : f32
      %99 = arith.select %98, %96, %out_41 : i64
      linalg.yield %97, %99 : f32, i64
    } -> (tensor<2x2x8xf32>, tensor<2x2x8xi64>)
    %expanded_25 = tensor.expand_shape %52#0 [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
    %53 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47, %expanded_25 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%46 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_41: f32, %out: f32):
      %95 = arith.subf %in, %in_41 : f32
      linalg.yield %95 : f32
    } -> tensor<2x2x8x8xf32>
    %54 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%53 : tensor<2x2x8x8xf32>) outs(%46 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = math.exp %in : f32
      linalg.yield %95 : f32
    } -> tensor<2x2x8x8xf32>
    %55 = tensor.empty() : tensor<2x2x8x1xf32>
    %56 = linalg.fill ins(%cst_0 : f32) outs(%55 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
    %57 = linalg.generic {indexing_maps = [#map4, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%54 : tensor<2x2x8x8xf32>) outs(%56 : tensor<2x2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.addf %in, %out : f32
      linalg.yield %95 : f32
    } -> tensor<2x2x8x1xf32>
    %58 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54, %57 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%46 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_41: f32, %out: f32):
      %95 = arith.divf %in, %in_41 : f32
      linalg.yield %95 : f32
    } -> tensor<2x2x8x8xf32>
    %59 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%58 : tensor<2x2x8x8xf32>) outs(%22 : tensor<2x2x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<2x2x8x8xbf16>
    %collapsed_26 = tensor.collapse_shape %59 [[0, 1], [2], [3]] : tensor<2x2x8x8xbf16> into tensor<4x8x8xbf16>
    %collapsed_27 = tensor.collapse_shape %transposed_14 [[0, 1], [2], [3]] : tensor<2x2x8x16xbf16> into tensor<4x8x16xbf16>
    %60 = tensor.empty() : tensor<4x8x16xf32>
    %61 = linalg.fill ins(%cst_0 : f32) outs(%60 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %62 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<4x8x8xbf16>, tensor<4x8x16xbf16>) outs(%61 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %63 = tensor.empty() : tensor<4x8x16xbf16>
    %64 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%62 : tensor<4x8x16xf32>) outs(%63 : tensor<4x8x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<4x8x16xbf16>
    %expanded_28 = tensor.expand_shape %64 [[0, 1], [2], [3]] output_shape [2, 2, 8, 16] : tensor<4x8x16xbf16> into tensor<2x2x8x16xbf16>
    %65 = tensor.empty() : tensor<2x8x2x16xbf16>
    %transposed_29 = linalg.transpose ins(%expanded_28 : tensor<2x2x8x16xbf16>) outs(%65 : tensor<2x8x2x16xbf16>) permutation = [0, 2, 1, 3] 
    %transposed_30 = linalg.transpose ins(%arg5 : tensor<32x32xbf16>) outs(%10 : tensor<32x32xbf16>) permutation = [1, 0] 
    %collapsed_31 = tensor.collapse_shape %transposed_29 [[0, 1], [2, 3]] : tensor<2x8x2x16xbf16> into tensor<16x32xbf16>
    %66 = linalg.matmul ins(%collapsed_31, %transposed_30 : tensor<16x32xbf16>, tensor<32x32xbf16>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %67 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%66 : tensor<16x32xf32>) outs(%14 : tensor<16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<16x32xbf16>
    %expanded_32 = tensor.expand_shape %67 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xbf16> into tensor<2x8x32xbf16>
    %68 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_32 : tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.addf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    %69 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%68 : tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = math.fpowi %in, %c2_i64 : bf16, i64
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    %70 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%69 : tensor<2x8x32xbf16>) outs(%3 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.addf %in, %out : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x1xbf16>
    %71 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%70 : tensor<2x8x1xbf16>) outs(%2 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.divf %in, %cst_6 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x1xbf16>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71 : tensor<2x8x1xbf16>) outs(%2 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = arith.truncf %cst_5 : f64 to bf16
      %96 = arith.addf %in, %95 : bf16
      linalg.yield %96 : bf16
    } -> tensor<2x8x1xbf16>
    %73 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<2x8x1xbf16>) outs(%2 : tensor<2x8x1xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %95 = math.rsqrt %in : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x1xbf16>
    %74 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%68, %73 : tensor<2x8x32xbf16>, tensor<2x8x1xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    %75 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg8, %74 : tensor<32xbf16>, tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    %76 = tensor.empty() : tensor<32x88xbf16>
    %transposed_33 = linalg.transpose ins(%arg9 : tensor<88x32xbf16>) outs(%76 : tensor<32x88xbf16>) permutation = [1, 0] 
    %collapsed_34 = tensor.collapse_shape %75 [[0, 1], [2]] : tensor<2x8x32xbf16> into tensor<16x32xbf16>
    %77 = tensor.empty() : tensor<16x88xf32>
    %78 = linalg.fill ins(%cst_0 : f32) outs(%77 : tensor<16x88xf32>) -> tensor<16x88xf32>
    %79 = linalg.matmul ins(%collapsed_34, %transposed_33 : tensor<16x32xbf16>, tensor<32x88xbf16>) outs(%78 : tensor<16x88xf32>) -> tensor<16x88xf32>
    %80 = tensor.empty() : tensor<16x88xbf16>
    %81 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%79 : tensor<16x88xf32>) outs(%80 : tensor<16x88xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<16x88xbf16>
    %expanded_35 = tensor.expand_shape %81 [[0, 1], [2]] output_shape [2, 8, 88] : tensor<16x88xbf16> into tensor<2x8x88xbf16>
    %82 = tensor.empty() : tensor<2x8x88xf32>
    %83 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<2x8x88xbf16>) outs(%82 : tensor<2x8x88xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %95 = arith.extf %in : bf16 to f32
      linalg.yield %95 : f32
    } -> tensor<2x8x88xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%83 : tensor<2x8x88xf32>) outs(%82 : tensor<2x8x88xf32>) {
    ^bb0(%in: f32, %out: f32):
      %95 = arith.negf %in : f32
      %96 = math.exp %95 : f32
      %97 = arith.addf %96, %cst_2 : f32
      %98 = arith.divf %cst_2, %97 : f32
      linalg.yield %98 : f32
    } -> tensor<2x8x88xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%83, %84 : tensor<2x8x88xf32>, tensor<2x8x88xf32>) outs(%82 : tensor<2x8x88xf32>) {
    ^bb0(%in: f32, %in_41: f32, %out: f32):
      %95 = arith.mulf %in, %in_41 : f32
      linalg.yield %95 : f32
    } -> tensor<2x8x88xf32>
    %86 = tensor.empty() : tensor<2x8x88xbf16>
    %87 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%85 : tensor<2x8x88xf32>) outs(%86 : tensor<2x8x88xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x88xbf16>
    %transposed_36 = linalg.transpose ins(%arg10 : tensor<88x32xbf16>) outs(%76 : tensor<32x88xbf16>) permutation = [1, 0] 
    %88 = linalg.matmul ins(%collapsed_34, %transposed_36 : tensor<16x32xbf16>, tensor<32x88xbf16>) outs(%78 : tensor<16x88xf32>) -> tensor<16x88xf32>
    %89 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%88 : tensor<16x88xf32>) outs(%80 : tensor<16x88xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<16x88xbf16>
    %expanded_37 = tensor.expand_shape %89 [[0, 1], [2]] output_shape [2, 8, 88] : tensor<16x88xbf16> into tensor<2x8x88xbf16>
    %90 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%87, %expanded_37 : tensor<2x8x88xbf16>, tensor<2x8x88xbf16>) outs(%86 : tensor<2x8x88xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.mulf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x88xbf16>
    %91 = tensor.empty() : tensor<88x32xbf16>
    %transposed_38 = linalg.transpose ins(%arg11 : tensor<32x88xbf16>) outs(%91 : tensor<88x32xbf16>) permutation = [1, 0] 
    %collapsed_39 = tensor.collapse_shape %90 [[0, 1], [2]] : tensor<2x8x88xbf16> into tensor<16x88xbf16>
    %92 = linalg.matmul ins(%collapsed_39, %transposed_38 : tensor<16x88xbf16>, tensor<88x32xbf16>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %93 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%92 : tensor<16x32xf32>) outs(%14 : tensor<16x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %95 = arith.truncf %in : f32 to bf16
      linalg.yield %95 : bf16
    } -> tensor<16x32xbf16>
    %expanded_40 = tensor.expand_shape %93 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xbf16> into tensor<2x8x32xbf16>
    %94 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%68, %expanded_40 : tensor<2x8x32xbf16>, tensor<2x8x32xbf16>) outs(%0 : tensor<2x8x32xbf16>) {
    ^bb0(%in: bf16, %in_41: bf16, %out: bf16):
      %95 = arith.addf %in, %in_41 : bf16
      linalg.yield %95 : bf16
    } -> tensor<2x8x32xbf16>
    return %94 : tensor<2x8x32xbf16>
  }
}
