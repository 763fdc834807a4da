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
  func.func @llama_block(%arg0: tensor<1x512x1024xf32>, %arg1: tensor<1024xf32>, %arg2: tensor<1024x1024xf32>, %arg3: tensor<1024x1024xf32>, %arg4: tensor<1024x1024xf32>, %arg5: tensor<1024x1024xf32>, %arg6: tensor<512x64xf32>, %arg7: tensor<512x64xf32>, %arg8: tensor<1024xf32>, %arg9: tensor<2816x1024xf32>, %arg10: tensor<2816x1024xf32>, %arg11: tensor<1024x2816xf32>) -> tensor<1x512x1024xf32> {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.000000e+00 : f32
    %cst_2 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_3 = arith.constant dense<true> : tensor<512x512xi1>
    %cst_4 = arith.constant 9.9999999999999995E-7 : f64
    %cst_5 = arith.constant 1.024000e+03 : f32
    %cst_6 = arith.constant 1.250000e-01 : f32
    %0 = tensor.empty() : tensor<1x512x1024xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x512x1024xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    %2 = tensor.empty() : tensor<1x512x1xf32>
    %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<1x512x1xf32>) -> tensor<1x512x1xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<1x512x1024xf32>) outs(%3 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.addf %in, %out : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x512x1xf32>) outs(%2 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.divf %in, %cst_5 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1xf32>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x512x1xf32>) outs(%2 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.truncf %cst_4 : f64 to f32
      %78 = arith.addf %in, %77 : f32
      linalg.yield %78 : f32
    } -> tensor<1x512x1xf32>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x512x1xf32>) outs(%2 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = math.rsqrt %in : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1xf32>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<1x512x1024xf32>, tensor<1x512x1xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %8 : tensor<1024xf32>, tensor<1x512x1024xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    %10 = tensor.empty() : tensor<1024x1024xf32>
    %transposed = linalg.transpose ins(%arg2 : tensor<1024x1024xf32>) outs(%10 : tensor<1024x1024xf32>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<1x512x1024xf32> into tensor<512x1024xf32>
    %11 = tensor.empty() : tensor<512x1024xf32>
    %12 = linalg.fill ins(%cst : f32) outs(%11 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<512x1024xf32>, tensor<1024x1024xf32>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %expanded = tensor.expand_shape %13 [[0, 1], [2, 3]] output_shape [1, 512, 16, 64] : tensor<512x1024xf32> into tensor<1x512x16x64xf32>
    %14 = tensor.empty() : tensor<1x16x512x64xf32>
    %transposed_7 = linalg.transpose ins(%expanded : tensor<1x512x16x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_8 = linalg.transpose ins(%arg3 : tensor<1024x1024xf32>) outs(%10 : tensor<1024x1024xf32>) permutation = [1, 0] 
    %15 = linalg.matmul ins(%collapsed, %transposed_8 : tensor<512x1024xf32>, tensor<1024x1024xf32>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %expanded_9 = tensor.expand_shape %15 [[0, 1], [2, 3]] output_shape [1, 512, 16, 64] : tensor<512x1024xf32> into tensor<1x512x16x64xf32>
    %transposed_10 = linalg.transpose ins(%expanded_9 : tensor<1x512x16x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_11 = linalg.transpose ins(%arg4 : tensor<1024x1024xf32>) outs(%10 : tensor<1024x1024xf32>) permutation = [1, 0] 
    %16 = linalg.matmul ins(%collapsed, %transposed_11 : tensor<512x1024xf32>, tensor<1024x1024xf32>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %expanded_12 = tensor.expand_shape %16 [[0, 1], [2, 3]] output_shape [1, 512, 16, 64] : tensor<512x1024xf32> into tensor<1x512x16x64xf32>
    %transposed_13 = linalg.transpose ins(%expanded_12 : tensor<1x512x16x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) permutation = [0, 2, 1, 3] 
    %17 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_7, %arg6 : tensor<1x16x512x64xf32>, tensor<512x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x64xf32>
    %extracted_slice = tensor.extract_slice %transposed_7[0, 0, 0, 32] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf32> to tensor<1x16x512x32xf32>
    %18 = tensor.empty() : tensor<1x16x512x32xf32>
    %19 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<1x16x512x32xf32>) outs(%18 : tensor<1x16x512x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.negf %in : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x32xf32>
    %extracted_slice_14 = tensor.extract_slice %transposed_7[0, 0, 0, 0] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf32> to tensor<1x16x512x32xf32>
    %concat = tensor.concat dim(3) %19, %extracted_slice_14 : (tensor<1x16x512x32xf32>, tensor<1x16x512x32xf32>) -> tensor<1x16x512x64xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %arg7 : tensor<1x16x512x64xf32>, tensor<512x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x64xf32>
    %21 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %20 : tensor<1x16x512x64xf32>, tensor<1x16x512x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.addf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x64xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_10, %arg6 : tensor<1x16x512x64xf32>, tensor<512x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x64xf32>
    %extracted_slice_15 = tensor.extract_slice %transposed_10[0, 0, 0, 32] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf32> to tensor<1x16x512x32xf32>
    %23 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_15 : tensor<1x16x512x32xf32>) outs(%18 : tensor<1x16x512x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.negf %in : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x32xf32>
    %extracted_slice_16 = tensor.extract_slice %transposed_10[0, 0, 0, 0] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf32> to tensor<1x16x512x32xf32>
    %concat_17 = tensor.concat dim(3) %23, %extracted_slice_16 : (tensor<1x16x512x32xf32>, tensor<1x16x512x32xf32>) -> tensor<1x16x512x64xf32>
    %24 = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_17, %arg7 : tensor<1x16x512x64xf32>, tensor<512x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x64xf32>
    %25 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%22, %24 : tensor<1x16x512x64xf32>, tensor<1x16x512x64xf32>) outs(%14 : tensor<1x16x512x64xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.addf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x64xf32>
    %26 = tensor.empty() : tensor<1x16x64x512xf32>
    %transposed_18 = linalg.transpose ins(%25 : tensor<1x16x512x64xf32>) outs(%26 : tensor<1x16x64x512xf32>) permutation = [0, 1, 3, 2] 
    %collapsed_19 = tensor.collapse_shape %21 [[0, 1], [2], [3]] : tensor<1x16x512x64xf32> into tensor<16x512x64xf32>
    %collapsed_20 = tensor.collapse_shape %transposed_18 [[0, 1], [2], [3]] : tensor<1x16x64x512xf32> into tensor<16x64x512xf32>
    %27 = tensor.empty() : tensor<16x512x512xf32>
    %28 = linalg.fill ins(%cst : f32) outs(%27 : tensor<16x512x512xf32>) -> tensor<16x512x512xf32>
    %29 = linalg.batch_matmul ins(%collapsed_19, %collapsed_20 : tensor<16x512x64xf32>, tensor<16x64x512xf32>) outs(%28 : tensor<16x512x512xf32>) -> tensor<16x512x512xf32>
    %expanded_21 = tensor.expand_shape %29 [[0, 1], [2], [3]] output_shape [1, 16, 512, 512] : tensor<16x512x512xf32> into tensor<1x16x512x512xf32>
    %30 = tensor.empty() : tensor<1x16x512x512xf32>
    %31 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_21 : tensor<1x16x512x512xf32>) outs(%30 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.mulf %in, %cst_6 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x512xf32>
    %32 = tensor.empty() : tensor<512xi64>
    %33 = linalg.generic {indexing_maps = [#map5], iterator_types = ["parallel"]} outs(%32 : tensor<512xi64>) {
    ^bb0(%out: i64):
      %77 = linalg.index 0 : index
      %78 = arith.index_cast %77 : index to i64
      linalg.yield %78 : i64
    } -> tensor<512xi64>
    %expanded_22 = tensor.expand_shape %33 [[0, 1]] output_shape [1, 512] : tensor<512xi64> into tensor<1x512xi64>
    %expanded_23 = tensor.expand_shape %33 [[0, 1]] output_shape [512, 1] : tensor<512xi64> into tensor<512x1xi64>
    %34 = tensor.empty() : tensor<512x512xi64>
    %35 = linalg.generic {indexing_maps = [#map6, #map7, #map8], iterator_types = ["parallel", "parallel"]} ins(%expanded_22, %expanded_23 : tensor<1x512xi64>, tensor<512x1xi64>) outs(%34 : tensor<512x512xi64>) {
    ^bb0(%in: i64, %in_40: i64, %out: i64):
      %77 = arith.subi %in, %in_40 : i64
      linalg.yield %77 : i64
    } -> tensor<512x512xi64>
    %36 = tensor.empty() : tensor<512x512xi1>
    %37 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%35 : tensor<512x512xi64>) outs(%36 : tensor<512x512xi1>) {
    ^bb0(%in: i64, %out: i1):
      %77 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %77 : i1
    } -> tensor<512x512xi1>
    %38 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%37, %cst_3 : tensor<512x512xi1>, tensor<512x512xi1>) outs(%36 : tensor<512x512xi1>) {
    ^bb0(%in: i1, %in_40: i1, %out: i1):
      %77 = arith.andi %in, %in_40 : i1
      linalg.yield %77 : i1
    } -> tensor<512x512xi1>
    %39 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = ["parallel", "parallel"]} ins(%38 : tensor<512x512xi1>) outs(%36 : tensor<512x512xi1>) {
    ^bb0(%in: i1, %out: i1):
      %77 = arith.xori %in, %true : i1
      linalg.yield %77 : i1
    } -> tensor<512x512xi1>
    %40 = linalg.generic {indexing_maps = [#map4, #map9, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %cst_2, %31 : tensor<512x512xi1>, tensor<f32>, tensor<1x16x512x512xf32>) outs(%30 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: i1, %in_40: f32, %in_41: f32, %out: f32):
      %77 = arith.select %in, %in_40, %in_41 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x512xf32>
    %41 = tensor.empty() : tensor<1x16x512xi64>
    %42 = linalg.fill ins(%c0_i64 : i64) outs(%41 : tensor<1x16x512xi64>) -> tensor<1x16x512xi64>
    %43 = tensor.empty() : tensor<1x16x512xf32>
    %44 = linalg.fill ins(%cst_0 : f32) outs(%43 : tensor<1x16x512xf32>) -> tensor<1x16x512xf32>
    %45:2 = linalg.generic {indexing_maps = [#map3, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%40 : tensor<1x16x512x512xf32>) outs(%44, %42 : tensor<1x16x512xf32>, tensor<1x16x512xi64>) {
    ^bb0(%in: f32, %out: f32, %out_40: i64):
      %77 = linalg.index 3 : index
      %78 = arith.index_cast %77 : index to i64
      %79 = arith.maximumf %in, %out : f32
      %80 = arith.cmpf ogt, %in, %out : f32
      %81 = arith.select %80, %78, %out_40 : i64
      linalg.yield %79, %81 : f32, i64
    } -> (tensor<1x16x512xf32>, tensor<1x16x512xi64>)
    %expanded_24 = tensor.expand_shape %45#0 [[0], [1], [2, 3]] output_shape [1, 16, 512, 1] : tensor<1x16x512xf32> into tensor<1x16x512x1xf32>
    %46 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40, %expanded_24 : tensor<1x16x512x512xf32>, tensor<1x16x512x1xf32>) outs(%30 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.subf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x512xf32>
    %47 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%46 : tensor<1x16x512x512xf32>) outs(%30 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = math.exp %in : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x512xf32>
    %48 = tensor.empty() : tensor<1x16x512x1xf32>
    %49 = linalg.fill ins(%cst : f32) outs(%48 : tensor<1x16x512x1xf32>) -> tensor<1x16x512x1xf32>
    %50 = linalg.generic {indexing_maps = [#map3, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%47 : tensor<1x16x512x512xf32>) outs(%49 : tensor<1x16x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.addf %in, %out : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x1xf32>
    %51 = linalg.generic {indexing_maps = [#map3, #map11, #map3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47, %50 : tensor<1x16x512x512xf32>, tensor<1x16x512x1xf32>) outs(%30 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.divf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x16x512x512xf32>
    %collapsed_25 = tensor.collapse_shape %51 [[0, 1], [2], [3]] : tensor<1x16x512x512xf32> into tensor<16x512x512xf32>
    %collapsed_26 = tensor.collapse_shape %transposed_13 [[0, 1], [2], [3]] : tensor<1x16x512x64xf32> into tensor<16x512x64xf32>
    %52 = tensor.empty() : tensor<16x512x64xf32>
    %53 = linalg.fill ins(%cst : f32) outs(%52 : tensor<16x512x64xf32>) -> tensor<16x512x64xf32>
    %54 = linalg.batch_matmul ins(%collapsed_25, %collapsed_26 : tensor<16x512x512xf32>, tensor<16x512x64xf32>) outs(%53 : tensor<16x512x64xf32>) -> tensor<16x512x64xf32>
    %expanded_27 = tensor.expand_shape %54 [[0, 1], [2], [3]] output_shape [1, 16, 512, 64] : tensor<16x512x64xf32> into tensor<1x16x512x64xf32>
    %55 = tensor.empty() : tensor<1x512x16x64xf32>
    %transposed_28 = linalg.transpose ins(%expanded_27 : tensor<1x16x512x64xf32>) outs(%55 : tensor<1x512x16x64xf32>) permutation = [0, 2, 1, 3] 
    %transposed_29 = linalg.transpose ins(%arg5 : tensor<1024x1024xf32>) outs(%10 : tensor<1024x1024xf32>) permutation = [1, 0] 
    %collapsed_30 = tensor.collapse_shape %transposed_28 [[0, 1], [2, 3]] : tensor<1x512x16x64xf32> into tensor<512x1024xf32>
    %56 = linalg.matmul ins(%collapsed_30, %transposed_29 : tensor<512x1024xf32>, tensor<1024x1024xf32>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %expanded_31 = tensor.expand_shape %56 [[0, 1], [2]] output_shape [1, 512, 1024] : tensor<512x1024xf32> into tensor<1x512x1024xf32>
    %57 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_31 : tensor<1x512x1024xf32>, tensor<1x512x1024xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.addf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    %58 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57 : tensor<1x512x1024xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = math.fpowi %in, %c2_i64 : f32, i64
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    %59 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%58 : tensor<1x512x1024xf32>) outs(%3 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.addf %in, %out : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1xf32>
    %60 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%59 : tensor<1x512x1xf32>) outs(%2 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.divf %in, %cst_5 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1xf32>
    %61 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%60 : tensor<1x512x1xf32>) outs(%2 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.truncf %cst_4 : f64 to f32
      %78 = arith.addf %in, %77 : f32
      linalg.yield %78 : f32
    } -> tensor<1x512x1xf32>
    %62 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%61 : tensor<1x512x1xf32>) outs(%2 : tensor<1x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = math.rsqrt %in : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1xf32>
    %63 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57, %62 : tensor<1x512x1024xf32>, tensor<1x512x1xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    %64 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg8, %63 : tensor<1024xf32>, tensor<1x512x1024xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    %65 = tensor.empty() : tensor<1024x2816xf32>
    %transposed_32 = linalg.transpose ins(%arg9 : tensor<2816x1024xf32>) outs(%65 : tensor<1024x2816xf32>) permutation = [1, 0] 
    %collapsed_33 = tensor.collapse_shape %64 [[0, 1], [2]] : tensor<1x512x1024xf32> into tensor<512x1024xf32>
    %66 = tensor.empty() : tensor<512x2816xf32>
    %67 = linalg.fill ins(%cst : f32) outs(%66 : tensor<512x2816xf32>) -> tensor<512x2816xf32>
    %68 = linalg.matmul ins(%collapsed_33, %transposed_32 : tensor<512x1024xf32>, tensor<1024x2816xf32>) outs(%67 : tensor<512x2816xf32>) -> tensor<512x2816xf32>
    %expanded_34 = tensor.expand_shape %68 [[0, 1], [2]] output_shape [1, 512, 2816] : tensor<512x2816xf32> into tensor<1x512x2816xf32>
    %69 = tensor.empty() : tensor<1x512x2816xf32>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34 : tensor<1x512x2816xf32>) outs(%69 : tensor<1x512x2816xf32>) {
    ^bb0(%in: f32, %out: f32):
      %77 = arith.negf %in : f32
      %78 = math.exp %77 : f32
      %79 = arith.addf %78, %cst_1 : f32
      %80 = arith.divf %cst_1, %79 : f32
      linalg.yield %80 : f32
    } -> tensor<1x512x2816xf32>
    %71 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_34, %70 : tensor<1x512x2816xf32>, tensor<1x512x2816xf32>) outs(%69 : tensor<1x512x2816xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x2816xf32>
    %transposed_35 = linalg.transpose ins(%arg10 : tensor<2816x1024xf32>) outs(%65 : tensor<1024x2816xf32>) permutation = [1, 0] 
    %72 = linalg.matmul ins(%collapsed_33, %transposed_35 : tensor<512x1024xf32>, tensor<1024x2816xf32>) outs(%67 : tensor<512x2816xf32>) -> tensor<512x2816xf32>
    %expanded_36 = tensor.expand_shape %72 [[0, 1], [2]] output_shape [1, 512, 2816] : tensor<512x2816xf32> into tensor<1x512x2816xf32>
    %73 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71, %expanded_36 : tensor<1x512x2816xf32>, tensor<1x512x2816xf32>) outs(%69 : tensor<1x512x2816xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.mulf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x2816xf32>
    %74 = tensor.empty() : tensor<2816x1024xf32>
    %transposed_37 = linalg.transpose ins(%arg11 : tensor<1024x2816xf32>) outs(%74 : tensor<2816x1024xf32>) permutation = [1, 0] 
    %collapsed_38 = tensor.collapse_shape %73 [[0, 1], [2]] : tensor<1x512x2816xf32> into tensor<512x2816xf32>
    %75 = linalg.matmul ins(%collapsed_38, %transposed_37 : tensor<512x2816xf32>, tensor<2816x1024xf32>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %expanded_39 = tensor.expand_shape %75 [[0, 1], [2]] output_shape [1, 512, 1024] : tensor<512x1024xf32> into tensor<1x512x1024xf32>
    %76 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%57, %expanded_39 : tensor<1x512x1024xf32>, tensor<1x512x1024xf32>) outs(%0 : tensor<1x512x1024xf32>) {
    ^bb0(%in: f32, %in_40: f32, %out: f32):
      %77 = arith.addf %in, %in_40 : f32
      linalg.yield %77 : f32
    } -> tensor<1x512x1024xf32>
    return %76 : tensor<1x512x1024xf32>
  }
}
