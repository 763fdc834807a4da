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
  func.func @llama_block_f16(%arg0: tensor<1x512x1024xf16>, %arg1: tensor<1024xf16>, %arg2: tensor<1024x1024xf16>, %arg3: tensor<1024x1024xf16>, %arg4: tensor<1024x1024xf16>, %arg5: tensor<1024x1024xf16>, %arg6: tensor<512x64xf16>, %arg7: tensor<512x64xf16>, %arg8: tensor<1024xf16>, %arg9: tensor<2816x1024xf16>, %arg10: tensor<2816x1024xf16>, %arg11: tensor<1024x2816xf16>) -> tensor<1x512x1024xf16> {
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %cst = arith.constant 0.000000e+00 : f16
    %cst_0 = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_1 = arith.constant 0xFF800000 : f32
    %cst_2 = arith.constant 1.000000e+00 : f32
    %cst_3 = arith.constant dense<0xFC00> : tensor<f16>
    %cst_4 = arith.constant dense<true> : tensor<512x512xi1>
    %cst_5 = arith.constant 9.9999999999999995E-7 : f64
    %cst_6 = arith.constant 1.024000e+03 : f16
    %cst_7 = arith.constant 1.250000e-01 : f16
    %0 = tensor.empty() : tensor<1x512x1024xf16>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0 : tensor<1x512x1024xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = math.fpowi %in, %c2_i64 : f16, i64
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    %2 = tensor.empty() : tensor<1x512x1xf16>
    %3 = linalg.fill ins(%cst : f16) outs(%2 : tensor<1x512x1xf16>) -> tensor<1x512x1xf16>
    %4 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%1 : tensor<1x512x1024xf16>) outs(%3 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.addf %in, %out : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%4 : tensor<1x512x1xf16>) outs(%2 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.divf %in, %cst_6 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1xf16>
    %6 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%5 : tensor<1x512x1xf16>) outs(%2 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.truncf %cst_5 : f64 to f16
      %97 = arith.addf %in, %96 : f16
      linalg.yield %97 : f16
    } -> tensor<1x512x1xf16>
    %7 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<1x512x1xf16>) outs(%2 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = math.rsqrt %in : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1xf16>
    %8 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %7 : tensor<1x512x1024xf16>, tensor<1x512x1xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    %9 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg1, %8 : tensor<1024xf16>, tensor<1x512x1024xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    %10 = tensor.empty() : tensor<1024x1024xf16>
    %transposed = linalg.transpose ins(%arg2 : tensor<1024x1024xf16>) outs(%10 : tensor<1024x1024xf16>) permutation = [1, 0] 
    %collapsed = tensor.collapse_shape %9 [[0, 1], [2]] : tensor<1x512x1024xf16> into tensor<512x1024xf16>
    %11 = tensor.empty() : tensor<512x1024xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %13 = linalg.matmul ins(%collapsed, %transposed : tensor<512x1024xf16>, tensor<1024x1024xf16>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %14 = tensor.empty() : tensor<512x1024xf16>
    %15 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<512x1024xf32>) outs(%14 : tensor<512x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<512x1024xf16>
    %expanded = tensor.expand_shape %15 [[0, 1], [2, 3]] output_shape [1, 512, 16, 64] : tensor<512x1024xf16> into tensor<1x512x16x64xf16>
    %16 = tensor.empty() : tensor<1x16x512x64xf16>
    %transposed_8 = linalg.transpose ins(%expanded : tensor<1x512x16x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) permutation = [0, 2, 1, 3] 
    %transposed_9 = linalg.transpose ins(%arg3 : tensor<1024x1024xf16>) outs(%10 : tensor<1024x1024xf16>) permutation = [1, 0] 
    %17 = linalg.matmul ins(%collapsed, %transposed_9 : tensor<512x1024xf16>, tensor<1024x1024xf16>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %18 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%17 : tensor<512x1024xf32>) outs(%14 : tensor<512x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<512x1024xf16>
    %expanded_10 = tensor.expand_shape %18 [[0, 1], [2, 3]] output_shape [1, 512, 16, 64] : tensor<512x1024xf16> into tensor<1x512x16x64xf16>
    %transposed_11 = linalg.transpose ins(%expanded_10 : tensor<1x512x16x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) permutation = [0, 2, 1, 3] 
    %transposed_12 = linalg.transpose ins(%arg4 : tensor<1024x1024xf16>) outs(%10 : tensor<1024x1024xf16>) permutation = [1, 0] 
    %19 = linalg.matmul ins(%collapsed, %transposed_12 : tensor<512x1024xf16>, tensor<1024x1024xf16>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %20 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%19 : tensor<512x1024xf32>) outs(%14 : tensor<512x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<512x1024xf16>
    %expanded_13 = tensor.expand_shape %20 [[0, 1], [2, 3]] output_shape [1, 512, 16, 64] : tensor<512x1024xf16> into tensor<1x512x16x64xf16>
    %transposed_14 = linalg.transpose ins(%expanded_13 : tensor<1x512x16x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) permutation = [0, 2, 1, 3] 
    %21 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_8, %arg6 : tensor<1x16x512x64xf16>, tensor<512x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x64xf16>
    %extracted_slice = tensor.extract_slice %transposed_8[0, 0, 0, 32] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf16> to tensor<1x16x512x32xf16>
    %22 = tensor.empty() : tensor<1x16x512x32xf16>
    %23 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice : tensor<1x16x512x32xf16>) outs(%22 : tensor<1x16x512x32xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.negf %in : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x32xf16>
    %extracted_slice_15 = tensor.extract_slice %transposed_8[0, 0, 0, 0] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf16> to tensor<1x16x512x32xf16>
    %concat = tensor.concat dim(3) %23, %extracted_slice_15 : (tensor<1x16x512x32xf16>, tensor<1x16x512x32xf16>) -> tensor<1x16x512x64xf16>
    %24 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat, %arg7 : tensor<1x16x512x64xf16>, tensor<512x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x64xf16>
    %25 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %24 : tensor<1x16x512x64xf16>, tensor<1x16x512x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.addf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x64xf16>
    %26 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_11, %arg6 : tensor<1x16x512x64xf16>, tensor<512x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x64xf16>
    %extracted_slice_16 = tensor.extract_slice %transposed_11[0, 0, 0, 32] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf16> to tensor<1x16x512x32xf16>
    %27 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%extracted_slice_16 : tensor<1x16x512x32xf16>) outs(%22 : tensor<1x16x512x32xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.negf %in : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x32xf16>
    %extracted_slice_17 = tensor.extract_slice %transposed_11[0, 0, 0, 0] [1, 16, 512, 32] [1, 1, 1, 1] : tensor<1x16x512x64xf16> to tensor<1x16x512x32xf16>
    %concat_18 = tensor.concat dim(3) %27, %extracted_slice_17 : (tensor<1x16x512x32xf16>, tensor<1x16x512x32xf16>) -> tensor<1x16x512x64xf16>
    %28 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%concat_18, %arg7 : tensor<1x16x512x64xf16>, tensor<512x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x64xf16>
    %29 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %28 : tensor<1x16x512x64xf16>, tensor<1x16x512x64xf16>) outs(%16 : tensor<1x16x512x64xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.addf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x64xf16>
    %30 = tensor.empty() : tensor<1x16x64x512xf16>
    %transposed_19 = linalg.transpose ins(%29 : tensor<1x16x512x64xf16>) outs(%30 : tensor<1x16x64x512xf16>) permutation = [0, 1, 3, 2] 
    %collapsed_20 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<1x16x512x64xf16> into tensor<16x512x64xf16>
    %collapsed_21 = tensor.collapse_shape %transposed_19 [[0, 1], [2], [3]] : tensor<1x16x64x512xf16> into tensor<16x64x512xf16>
    %31 = tensor.empty() : tensor<16x512x512xf32>
    %32 = linalg.fill ins(%cst_0 : f32) outs(%31 : tensor<16x512x512xf32>) -> tensor<16x512x512xf32>
    %33 = linalg.batch_matmul ins(%collapsed_20, %collapsed_21 : tensor<16x512x64xf16>, tensor<16x64x512xf16>) outs(%32 : tensor<16x512x512xf32>) -> tensor<16x512x512xf32>
    %34 = tensor.empty() : tensor<16x512x512xf16>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%33 : tensor<16x512x512xf32>) outs(%34 : tensor<16x512x512xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<16x512x512xf16>
    %expanded_22 = tensor.expand_shape %35 [[0, 1], [2], [3]] output_shape [1, 16, 512, 512] : tensor<16x512x512xf16> into tensor<1x16x512x512xf16>
    %36 = tensor.empty() : tensor<1x16x512x512xf16>
    %37 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded_22 : tensor<1x16x512x512xf16>) outs(%36 : tensor<1x16x512x512xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.mulf %in, %cst_7 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x512xf16>
    %38 = tensor.empty() : tensor<512xi64>
    %39 = linalg.generic {indexing_maps = [#map6], iterator_types = ["parallel"]} outs(%38 : tensor<512xi64>) {
    ^bb0(%out: i64):
      %96 = linalg.index 0 : index
      %97 = arith.index_cast %96 : index to i64
      linalg.yield %97 : i64
    } -> tensor<512xi64>
    %expanded_23 = tensor.expand_shape %39 [[0, 1]] output_shape [1, 512] : tensor<512xi64> into tensor<1x512xi64>
    %expanded_24 = tensor.expand_shape %39 [[0, 1]] output_shape [512, 1] : tensor<512xi64> into tensor<512x1xi64>
    %40 = tensor.empty() : tensor<512x512xi64>
    %41 = linalg.generic {indexing_maps = [#map7, #map8, #map3], iterator_types = ["parallel", "parallel"]} ins(%expanded_23, %expanded_24 : tensor<1x512xi64>, tensor<512x1xi64>) outs(%40 : tensor<512x512xi64>) {
    ^bb0(%in: i64, %in_41: i64, %out: i64):
      %96 = arith.subi %in, %in_41 : i64
      linalg.yield %96 : i64
    } -> tensor<512x512xi64>
    %42 = tensor.empty() : tensor<512x512xi1>
    %43 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%41 : tensor<512x512xi64>) outs(%42 : tensor<512x512xi1>) {
    ^bb0(%in: i64, %out: i1):
      %96 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %96 : i1
    } -> tensor<512x512xi1>
    %44 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%43, %cst_4 : tensor<512x512xi1>, tensor<512x512xi1>) outs(%42 : tensor<512x512xi1>) {
    ^bb0(%in: i1, %in_41: i1, %out: i1):
      %96 = arith.andi %in, %in_41 : i1
      linalg.yield %96 : i1
    } -> tensor<512x512xi1>
    %45 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%44 : tensor<512x512xi1>) outs(%42 : tensor<512x512xi1>) {
    ^bb0(%in: i1, %out: i1):
      %96 = arith.xori %in, %true : i1
      linalg.yield %96 : i1
    } -> tensor<512x512xi1>
    %46 = linalg.generic {indexing_maps = [#map5, #map9, #map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45, %cst_3, %37 : tensor<512x512xi1>, tensor<f16>, tensor<1x16x512x512xf16>) outs(%36 : tensor<1x16x512x512xf16>) {
    ^bb0(%in: i1, %in_41: f16, %in_42: f16, %out: f16):
      %96 = arith.select %in, %in_41, %in_42 : f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x512xf16>
    %47 = tensor.empty() : tensor<1x16x512x512xf32>
    %48 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%46 : tensor<1x16x512x512xf16>) outs(%47 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f16, %out: f32):
      %96 = arith.extf %in : f16 to f32
      linalg.yield %96 : f32
    } -> tensor<1x16x512x512xf32>
    %49 = tensor.empty() : tensor<1x16x512xi64>
    %50 = linalg.fill ins(%c0_i64 : i64) outs(%49 : tensor<1x16x512xi64>) -> tensor<1x16x512xi64>
    %51 = tensor.empty() : tensor<1x16x512xf32>
    %52 = linalg.fill ins(%cst_1 : f32) outs(%51 : tensor<1x16x512xf32>) -> tensor<1x16x512xf32>
    %53:2 = linalg.generic {indexing_maps = [#map4, #map10, #map10], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%48 : tensor<1x16x512x512xf32>) outs(%52, %50 : tensor<1x16x512xf32>, tensor<1x16x512xi64>) {
    ^bb0(%in: f32, %out: f32, %out_41: i64):
      %96 = linalg.index 3 : index
      %97 = arith.index_cast %96 : index to i64
      %98 = arith.maximumf %in, %out : f32
      %99 = arith.cmpf ogt, %in, %out : f32
      %100 = arith.select %99, %97, %out_41 : i64
      linalg.yield %98, %100 : f32, i64
    } -> (tensor<1x16x512xf32>, tensor<1x16x512xi64>)
    %expanded_25 = tensor.expand_shape %53#0 [[0], [1], [2, 3]] output_shape [1, 16, 512, 1] : tensor<1x16x512xf32> into tensor<1x16x512x1xf32>
    %54 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48, %expanded_25 : tensor<1x16x512x512xf32>, tensor<1x16x512x1xf32>) outs(%47 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f32, %in_41: f32, %out: f32):
      %96 = arith.subf %in, %in_41 : f32
      linalg.yield %96 : f32
    } -> tensor<1x16x512x512xf32>
    %55 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54 : tensor<1x16x512x512xf32>) outs(%47 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %96 = math.exp %in : f32
      linalg.yield %96 : f32
    } -> tensor<1x16x512x512xf32>
    %56 = tensor.empty() : tensor<1x16x512x1xf32>
    %57 = linalg.fill ins(%cst_0 : f32) outs(%56 : tensor<1x16x512x1xf32>) -> tensor<1x16x512x1xf32>
    %58 = linalg.generic {indexing_maps = [#map4, #map11], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%55 : tensor<1x16x512x512xf32>) outs(%57 : tensor<1x16x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %96 = arith.addf %in, %out : f32
      linalg.yield %96 : f32
    } -> tensor<1x16x512x1xf32>
    %59 = linalg.generic {indexing_maps = [#map4, #map11, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%55, %58 : tensor<1x16x512x512xf32>, tensor<1x16x512x1xf32>) outs(%47 : tensor<1x16x512x512xf32>) {
    ^bb0(%in: f32, %in_41: f32, %out: f32):
      %96 = arith.divf %in, %in_41 : f32
      linalg.yield %96 : f32
    } -> tensor<1x16x512x512xf32>
    %60 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%59 : tensor<1x16x512x512xf32>) outs(%36 : tensor<1x16x512x512xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<1x16x512x512xf16>
    %collapsed_26 = tensor.collapse_shape %60 [[0, 1], [2], [3]] : tensor<1x16x512x512xf16> into tensor<16x512x512xf16>
    %collapsed_27 = tensor.collapse_shape %transposed_14 [[0, 1], [2], [3]] : tensor<1x16x512x64xf16> into tensor<16x512x64xf16>
    %61 = tensor.empty() : tensor<16x512x64xf32>
    %62 = linalg.fill ins(%cst_0 : f32) outs(%61 : tensor<16x512x64xf32>) -> tensor<16x512x64xf32>
    %63 = linalg.batch_matmul ins(%collapsed_26, %collapsed_27 : tensor<16x512x512xf16>, tensor<16x512x64xf16>) outs(%62 : tensor<16x512x64xf32>) -> tensor<16x512x64xf32>
    %64 = tensor.empty() : tensor<16x512x64xf16>
    %65 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%63 : tensor<16x512x64xf32>) outs(%64 : tensor<16x512x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<16x512x64xf16>
    %expanded_28 = tensor.expand_shape %65 [[0, 1], [2], [3]] output_shape [1, 16, 512, 64] : tensor<16x512x64xf16> into tensor<1x16x512x64xf16>
    %66 = tensor.empty() : tensor<1x512x16x64xf16>
    %transposed_29 = linalg.transpose ins(%expanded_28 : tensor<1x16x512x64xf16>) outs(%66 : tensor<1x512x16x64xf16>) permutation = [0, 2, 1, 3] 
    %transposed_30 = linalg.transpose ins(%arg5 : tensor<1024x1024xf16>) outs(%10 : tensor<1024x1024xf16>) permutation = [1, 0] 
    %collapsed_31 = tensor.collapse_shape %transposed_29 [[0, 1], [2, 3]] : tensor<1x512x16x64xf16> into tensor<512x1024xf16>
    %67 = linalg.matmul ins(%collapsed_31, %transposed_30 : tensor<512x1024xf16>, tensor<1024x1024xf16>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %68 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%67 : tensor<512x1024xf32>) outs(%14 : tensor<512x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<512x1024xf16>
    %expanded_32 = tensor.expand_shape %68 [[0, 1], [2]] output_shape [1, 512, 1024] : tensor<512x1024xf16> into tensor<1x512x1024xf16>
    %69 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %expanded_32 : tensor<1x512x1024xf16>, tensor<1x512x1024xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.addf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    %70 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69 : tensor<1x512x1024xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = math.fpowi %in, %c2_i64 : f16, i64
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    %71 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%70 : tensor<1x512x1024xf16>) outs(%3 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.addf %in, %out : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1xf16>
    %72 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%71 : tensor<1x512x1xf16>) outs(%2 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.divf %in, %cst_6 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1xf16>
    %73 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%72 : tensor<1x512x1xf16>) outs(%2 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = arith.truncf %cst_5 : f64 to f16
      %97 = arith.addf %in, %96 : f16
      linalg.yield %97 : f16
    } -> tensor<1x512x1xf16>
    %74 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%73 : tensor<1x512x1xf16>) outs(%2 : tensor<1x512x1xf16>) {
    ^bb0(%in: f16, %out: f16):
      %96 = math.rsqrt %in : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1xf16>
    %75 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69, %74 : tensor<1x512x1024xf16>, tensor<1x512x1xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    %76 = linalg.generic {indexing_maps = [#map2, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg8, %75 : tensor<1024xf16>, tensor<1x512x1024xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    %77 = tensor.empty() : tensor<1024x2816xf16>
    %transposed_33 = linalg.transpose ins(%arg9 : tensor<2816x1024xf16>) outs(%77 : tensor<1024x2816xf16>) permutation = [1, 0] 
    %collapsed_34 = tensor.collapse_shape %76 [[0, 1], [2]] : tensor<1x512x1024xf16> into tensor<512x1024xf16>
    %78 = tensor.empty() : tensor<512x2816xf32>
    %79 = linalg.fill ins(%cst_0 : f32) outs(%78 : tensor<512x2816xf32>) -> tensor<512x2816xf32>
    %80 = linalg.matmul ins(%collapsed_34, %transposed_33 : tensor<512x1024xf16>, tensor<1024x2816xf16>) outs(%79 : tensor<512x2816xf32>) -> tensor<512x2816xf32>
    %81 = tensor.empty() : tensor<512x2816xf16>
    %82 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%80 : tensor<512x2816xf32>) outs(%81 : tensor<512x2816xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<512x2816xf16>
    %expanded_35 = tensor.expand_shape %82 [[0, 1], [2]] output_shape [1, 512, 2816] : tensor<512x2816xf16> into tensor<1x512x2816xf16>
    %83 = tensor.empty() : tensor<1x512x2816xf32>
    %84 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_35 : tensor<1x512x2816xf16>) outs(%83 : tensor<1x512x2816xf32>) {
    ^bb0(%in: f16, %out: f32):
      %96 = arith.extf %in : f16 to f32
      linalg.yield %96 : f32
    } -> tensor<1x512x2816xf32>
    %85 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84 : tensor<1x512x2816xf32>) outs(%83 : tensor<1x512x2816xf32>) {
    ^bb0(%in: f32, %out: f32):
      %96 = arith.negf %in : f32
      %97 = math.exp %96 : f32
      %98 = arith.addf %97, %cst_2 : f32
      %99 = arith.divf %cst_2, %98 : f32
      linalg.yield %99 : f32
    } -> tensor<1x512x2816xf32>
    %86 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%84, %85 : tensor<1x512x2816xf32>, tensor<1x512x2816xf32>) outs(%83 : tensor<1x512x2816xf32>) {
    ^bb0(%in: f32, %in_41: f32, %out: f32):
      %96 = arith.mulf %in, %in_41 : f32
      linalg.yield %96 : f32
    } -> tensor<1x512x2816xf32>
    %87 = tensor.empty() : tensor<1x512x2816xf16>
    %88 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%86 : tensor<1x512x2816xf32>) outs(%87 : tensor<1x512x2816xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<1x512x2816xf16>
    %transposed_36 = linalg.transpose ins(%arg10 : tensor<2816x1024xf16>) outs(%77 : tensor<1024x2816xf16>) permutation = [1, 0] 
    %89 = linalg.matmul ins(%collapsed_34, %transposed_36 : tensor<512x1024xf16>, tensor<1024x2816xf16>) outs(%79 : tensor<512x2816xf32>) -> tensor<512x2816xf32>
    %90 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%89 : tensor<512x2816xf32>) outs(%81 : tensor<512x2816xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<512x2816xf16>
    %expanded_37 = tensor.expand_shape %90 [[0, 1], [2]] output_shape [1, 512, 2816] : tensor<512x2816xf16> into tensor<1x512x2816xf16>
    %91 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%88, %expanded_37 : tensor<1x512x2816xf16>, tensor<1x512x2816xf16>) outs(%87 : tensor<1x512x2816xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.mulf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x2816xf16>
    %92 = tensor.empty() : tensor<2816x1024xf16>
    %transposed_38 = linalg.transpose ins(%arg11 : tensor<1024x2816xf16>) outs(%92 : tensor<2816x1024xf16>) permutation = [1, 0] 
    %collapsed_39 = tensor.collapse_shape %91 [[0, 1], [2]] : tensor<1x512x2816xf16> into tensor<512x2816xf16>
    %93 = linalg.matmul ins(%collapsed_39, %transposed_38 : tensor<512x2816xf16>, tensor<2816x1024xf16>) outs(%12 : tensor<512x1024xf32>) -> tensor<512x1024xf32>
    %94 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel"]} ins(%93 : tensor<512x1024xf32>) outs(%14 : tensor<512x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %96 = arith.truncf %in : f32 to f16
      linalg.yield %96 : f16
    } -> tensor<512x1024xf16>
    %expanded_40 = tensor.expand_shape %94 [[0, 1], [2]] output_shape [1, 512, 1024] : tensor<512x1024xf16> into tensor<1x512x1024xf16>
    %95 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%69, %expanded_40 : tensor<1x512x1024xf16>, tensor<1x512x1024xf16>) outs(%0 : tensor<1x512x1024xf16>) {
    ^bb0(%in: f16, %in_41: f16, %out: f16):
      %96 = arith.addf %in, %in_41 : f16
      linalg.yield %96 : f16
    } -> tensor<1x512x1024xf16>
    return %95 : tensor<1x512x1024xf16>
  }
}
