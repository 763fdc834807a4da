#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map4 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map5 = affine_map<(d0) -> (d0)>
#map6 = affine_map<(d0, d1) -> (0, d1)>
#map7 = affine_map<(d0, d1) -> (d0, 0)>
#map8 = affine_map<(d0, d1) -> (d0, d1)>
#map9 = affine_map<(d0, d1, d2, d3) -> ()>
#map10 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map11 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @llama_block(%arg0: tensor<2x8x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32x32xf32>, %arg3: tensor<32x32xf32>, %arg4: tensor<32x32xf32>, %arg5: tensor<32x32xf32>, %arg6: tensor<8x16xf32>, %arg7: tensor<8x16xf32>, %arg8: tensor<32xf32>, %arg9: tensor<88x32xf32>, %arg10: tensor<88x32xf32>, %arg11: tensor<32x88xf32>) -> tensor<2x8x32xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = arith.constant dense<true> : tensor<8x8xi1>
    %cst_4 = arith.constant 9.9999999999999995E-7 : f64
    %cst_5 = arith.constant 3.200000e+01 : f32
    %cst_6 = arith.constant 2.500000e-01 : f32
    %0 = tensor.empty() : tensor<2x8x32xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    %2 = tensor.empty() : tensor<2x8x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<2x8x1xf32>) -> tensor<2x8x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<2x8x32xf32>) outs(%3 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.addf %in, %out : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<2x8x1xf32>) outs(%2 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.divf %in, %cst_5 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<2x8x1xf32>) outs(%2 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.truncf %cst_4 : f64 to f32
      %77 = arith.addf %in, %76 : f32
      linalg.yield %77 : f32
    } -> tensor<2x8x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<2x8x1xf32>) outs(%2 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = math.rsqrt %in : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<2x8x32xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %8 : tensor<32xf32>, tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    %10 = tensor.empty() : tensor<32x32xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %11 = tensor.empty() : tensor<16x32xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<16x32xf32>, tensor<32x32xf32>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %expanded = tensor.expand_shape %13 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
    %14 = tensor.empty() : tensor<2x2x8x16xf32>
    %transposed_7 = linalg.transpose ins(%expanded : tensor<2x8x2x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_8 = linalg.transpose ins(%arg3 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %15 = linalg.matmul ins(%collapsed, %transposed_8 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %expanded_9 = tensor.expand_shape %15 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
    %transposed_10 = linalg.transpose ins(%expanded_9 : tensor<2x8x2x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_11 = linalg.transpose ins(%arg4 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %16 = linalg.matmul ins(%collapsed, %transposed_11 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %expanded_12 = tensor.expand_shape %16 [[0, 1], [2, 3]] output_shape [2, 8, 2, 16] : tensor<16x32xf32> into tensor<2x8x2x16xf32>
    %transposed_13 = linalg.transpose ins(%expanded_12 : tensor<2x8x2x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) permutation = [0, 2, 1, 3] 
    %17 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_7, %arg6 : tensor<2x2x8x16xf32>, tensor<8x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x16xf32>
    %extracted_slice = tensor.extract_slice %transposed_7[0, 0, 0, 8] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xf32> to tensor<2x2x8x8xf32>
    %18 = tensor.empty() : tensor<2x2x8x8xf32>
    %19 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<2x2x8x8xf32>) outs(%18 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.negf %in : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x8xf32>
    %extracted_slice_14 = tensor.extract_slice %transposed_7[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xf32> to tensor<2x2x8x8xf32>
    %concat = tensor.concat dim(3) %19, %extracted_slice_14 : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x16xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %arg7 : tensor<2x2x8x16xf32>, tensor<8x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x16xf32>
    %21 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %20 : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.addf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x16xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_10, %arg6 : tensor<2x2x8x16xf32>, tensor<8x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x16xf32>
    %extracted_slice_15 = tensor.extract_slice %transposed_10[0, 0, 0, 8] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xf32> to tensor<2x2x8x8xf32>
    %23 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_15 : tensor<2x2x8x8xf32>) outs(%18 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.negf %in : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x8xf32>
    %extracted_slice_16 = tensor.extract_slice %transposed_10[0, 0, 0, 0] [2, 2, 8, 8] [1, 1, 1, 1] : tensor<2x2x8x16xf32> to tensor<2x2x8x8xf32>
    %concat_17 = tensor.concat dim(3) %23, %extracted_slice_16 : (tensor<2x2x8x8xf32>, tensor<2x2x8x8xf32>) -> tensor<2x2x8x16xf32>
    %24 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_17, %arg7 : tensor<2x2x8x16xf32>, tensor<8x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x16xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %24 : tensor<2x2x8x16xf32>, tensor<2x2x8x16xf32>) outs(%14 : tensor<2x2x8x16xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.addf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x16xf32>
    %26 = tensor.empty() : tensor<2x2x16x8xf32>
    %transposed_18 = linalg.transpose ins(%25 : tensor<2x2x8x16xf32>) outs(%26 : tensor<2x2x16x8xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_19 = tensor.collapse_shape %21 [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
    %collapsed_20 = tensor.collapse_shape %transposed_18 [[0, 1], [2], [3]] : tensor<2x2x16x8xf32> into tensor<4x16x8xf32>
    %27 = tensor.empty() : tensor<4x8x8xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %29 = linalg.batch_matmul ins(%collapsed_19, %collapsed_20 : tensor<4x8x16xf32>, tensor<4x16x8xf32>) outs(%28 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %expanded_21 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [2, 2, 8, 8] : tensor<4x8x8xf32> into tensor<2x2x8x8xf32>
    %30 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_21 : tensor<2x2x8x8xf32>) outs(%18 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.mulf %in, %cst_6 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x8xf32>
    %31 = tensor.empty() : tensor<8xi64>
    %32 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel"]} outs(%31 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %76 = linalg.index 0 : index
      %77 = arith.index_cast %76 : index to i64
      linalg.yield %77 : i64
    } -> tensor<8xi64>
    %expanded_22 = tensor.expand_shape %32 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_23 = tensor.expand_shape %32 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %33 = tensor.empty() : tensor<8x8xi64>
    %34 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel"]} ins(%expanded_22, %expanded_23 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%33 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_40: i64, %out: i64):
      %76 = arith.subi %in, %in_40 : i64
      linalg.yield %76 : i64
    } -> tensor<8x8xi64>
    %35 = tensor.empty() : tensor<8x8xi1>
    %36 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%34 : tensor<8x8xi64>) outs(%35 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %76 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %76 : i1
    } -> tensor<8x8xi1>
    %37 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%36, %cst_3 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%35 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_40: i1, %out: i1):
      %76 = arith.andi %in, %in_40 : i1
      linalg.yield %76 : i1
    } -> tensor<8x8xi1>
    %38 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%37 : tensor<8x8xi1>) outs(%35 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %out: i1):
      %76 = arith.xori %in, %true : i1
      linalg.yield %76 : i1
    } -> tensor<8x8xi1>
    %39 = linalg.generic {indexing_maps = [#map4, #map9, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%38, %cst_2, %30 : tensor<8x8xi1>, tensor<f32>, tensor<2x2x8x8xf32>) outs(%18 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: i1, %in_40: f32, %in_41: f32, %out: f32):
      %76 = arith.select %in, %in_40, %in_41 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x8xf32>
    %40 = tensor.empty() : tensor<2x2x8xi64>
    %41 = linalg.fill ins(%c0_i64 : i64) outs(%40 : tensor<2x2x8xi64>) -> tensor<2x2x8xi64>
    %42 = tensor.empty() : tensor<2x2x8xf32>
    %43 = linalg.fill ins(%cst_0 : f32) outs(%42 : tensor<2x2x8xf32>) -> tensor<2x2x8xf32>
    %44:2 = linalg.generic {indexing_maps = [#map3, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%39 : tensor<2x2x8x8xf32>) outs(%43, %41 : tensor<2x2x8xf32>, tensor<2x2x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_40: i64):
      %76 = linalg.index 3 : index
      %77 = arith.index_cast %76 : index to i64
      %78 = arith.maximumf %in, %out : f32
      %79 = arith.cmpf ogt, %in, %out : f32
      %80 = arith.select %79, %77, %out_40 : i64
      linalg.yield %78, %80 : f32, i64
    } -> (tensor<2x2x8xf32>, tensor<2x2x8xi64>)
    %expanded_24 = tensor.expand_shape %44#0 [[0], [1], [2, 3]] output_shape [2, 2, 8, 1] : tensor<2x2x8xf32> into tensor<2x2x8x1xf32>
    %45 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %expanded_24 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%18 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.subf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x8xf32>
    %46 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45 : tensor<2x2x8x8xf32>) outs(%18 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = math.exp %in : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x8xf32>
    %47 = tensor.empty() : tensor<2x2x8x1xf32>
    %48 = linalg.fill ins(%cst : f32) outs(%47 : tensor<2x2x8x1xf32>) -> tensor<2x2x8x1xf32>
    %49 = linalg.generic {indexing_maps = [#map3, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%46 : tensor<2x2x8x8xf32>) outs(%48 : tensor<2x2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.addf %in, %out : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x1xf32>
    %50 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%46, %49 : tensor<2x2x8x8xf32>, tensor<2x2x8x1xf32>) outs(%18 : tensor<2x2x8x8xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.divf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x2x8x8xf32>
    %collapsed_25 = tensor.collapse_shape %50 [[0, 1], [2], [3]] : tensor<2x2x8x8xf32> into tensor<4x8x8xf32>
    %collapsed_26 = tensor.collapse_shape %transposed_13 [[0, 1], [2], [3]] : tensor<2x2x8x16xf32> into tensor<4x8x16xf32>
    %51 = tensor.empty() : tensor<4x8x16xf32>
    %52 = linalg.fill ins(%cst : f32) outs(%51 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %53 = linalg.batch_matmul ins(%collapsed_25, %collapsed_26 : tensor<4x8x8xf32>, tensor<4x8x16xf32>) outs(%52 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
    %expanded_27 = tensor.expand_shape %53 [[0, 1], [2], [3]] output_shape [2, 2, 8, 16] : tensor<4x8x16xf32> into tensor<2x2x8x16xf32>
    %54 = tensor.empty() : tensor<2x8x2x16xf32>
    %transposed_28 = linalg.transpose ins(%expanded_27 : tensor<2x2x8x16xf32>) outs(%54 : tensor<2x8x2x16xf32>) permutation = [0, 2, 1, 3] 
    %transposed_29 = linalg.transpose ins(%arg5 : tensor<32x32xf32>) outs(%10 : tensor<32x32xf32>) permutation = [1, 0] 
    %collapsed_30 = tensor.collapse_shape %transposed_28 [[0, 1], [2, 3]] : tensor<2x8x2x16xf32> into tensor<16x32xf32>
    %55 = linalg.matmul ins(%collapsed_30, %transposed_29 : tensor<16x32xf32>, tensor<32x32xf32>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %expanded_31 = tensor.expand_shape %55 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %56 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_31 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.addf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56 : tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    %58 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%57 : tensor<2x8x32xf32>) outs(%3 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.addf %in, %out : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x1xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%58 : tensor<2x8x1xf32>) outs(%2 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.divf %in, %cst_5 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x1xf32>
    %60 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%59 : tensor<2x8x1xf32>) outs(%2 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.truncf %cst_4 : f64 to f32
      %77 = arith.addf %in, %76 : f32
      linalg.yield %77 : f32
    } -> tensor<2x8x1xf32>
    %61 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<2x8x1xf32>) outs(%2 : tensor<2x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = math.rsqrt %in : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x1xf32>
    %62 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %61 : tensor<2x8x32xf32>, tensor<2x8x1xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    %63 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg8, %62 : tensor<32xf32>, tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    %64 = tensor.empty() : tensor<32x88xf32>
    %transposed_32 = linalg.transpose ins(%arg9 : tensor<88x32xf32>) outs(%64 : tensor<32x88xf32>) permutation = [1, 0] 
    %collapsed_33 = tensor.collapse_shape %63 [[0, 1], [2]] : tensor<2x8x32xf32> into tensor<16x32xf32>
    %65 = tensor.empty() : tensor<16x88xf32>
    %66 = linalg.fill ins(%cst : f32) outs(%65 : tensor<16x88xf32>) -> tensor<16x88xf32>
    %67 = linalg.matmul ins(%collapsed_33, %transposed_32 : tensor<16x32xf32>, tensor<32x88xf32>) outs(%66 : tensor<16x88xf32>) -> tensor<16x88xf32>
    %expanded_34 = tensor.expand_shape %67 [[0, 1], [2]] output_shape [2, 8, 88] : tensor<16x88xf32> into tensor<2x8x88xf32>
    %68 = tensor.empty() : tensor<2x8x88xf32>
    %69 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<2x8x88xf32>) outs(%68 : tensor<2x8x88xf32>) {
    ^bb0(%in: f32, %out: f32):
      %76 = arith.negf %in : f32
      %77 = math.exp %76 : f32
      %78 = arith.addf %77, %cst_1 : f32
      %79 = arith.divf %cst_1, %78 : f32
      linalg.yield %79 : f32
    } -> tensor<2x8x88xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34, %69 : tensor<2x8x88xf32>, tensor<2x8x88xf32>) outs(%68 : tensor<2x8x88xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x88xf32>
    %transposed_35 = linalg.transpose ins(%arg10 : tensor<88x32xf32>) outs(%64 : tensor<32x88xf32>) permutation = [1, 0] 
    %71 = linalg.matmul ins(%collapsed_33, %transposed_35 : tensor<16x32xf32>, tensor<32x88xf32>) outs(%66 : tensor<16x88xf32>) -> tensor<16x88xf32>
    %expanded_36 = tensor.expand_shape %71 [[0, 1], [2]] output_shape [2, 8, 88] : tensor<16x88xf32> into tensor<2x8x88xf32>
    %72 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%70, %expanded_36 : tensor<2x8x88xf32>, tensor<2x8x88xf32>) outs(%68 : tensor<2x8x88xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.mulf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x88xf32>
    %73 = tensor.empty() : tensor<88x32xf32>
    %transposed_37 = linalg.transpose ins(%arg11 : tensor<32x88xf32>) outs(%73 : tensor<88x32xf32>) permutation = [1, 0] 
    %collapsed_38 = tensor.collapse_shape %72 [[0, 1], [2]] : tensor<2x8x88xf32> into tensor<16x88xf32>
    %74 = linalg.matmul ins(%collapsed_38, %transposed_37 : tensor<16x88xf32>, tensor<88x32xf32>) outs(%12 : tensor<16x32xf32>) -> tensor<16x32xf32>
    %expanded_39 = tensor.expand_shape %74 [[0, 1], [2]] output_shape [2, 8, 32] : tensor<16x32xf32> into tensor<2x8x32xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%56, %expanded_39 : tensor<2x8x32xf32>, tensor<2x8x32xf32>) outs(%0 : tensor<2x8x32xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %76 = arith.addf %in, %in_40 : f32
      linalg.yield %76 : f32
    } -> tensor<2x8x32xf32>
    return %75 : tensor<2x8x32xf32>
  }
}
