#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0, d1) -> (0, d1)>
#map4 = affine_map<(d0, d1) -> (d0, 0)>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#map6 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map7 = affine_map<(d0, d1, d2, d3) -> ()>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention_s128_causal_bf16(%arg0: tensor<2x3x8x16xbf16>, %arg1: tensor<2x3x8x16xbf16>, %arg2: tensor<2x3x8x16xbf16>) -> tensor<2x3x8x16xbf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF80> : tensor<bf16>
    %cst_2 = arith.constant dense<true> : tensor<8x8xi1>
    %cst_3 = arith.constant 2.500000e-01 : bf16
    %0 = tensor.empty() : tensor<2x3x16x8xbf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x3x8x16xbf16>) outs(%0 : tensor<2x3x16x8xbf16>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x3x8x16xbf16> into tensor<6x8x16xbf16>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x3x16x8xbf16> into tensor<6x16x8xbf16>
    %1 = tensor.empty() : tensor<6x8x8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<6x8x16xbf16>, tensor<6x16x8xbf16>) outs(%2 : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
    %4 = tensor.empty() : tensor<6x8x8xbf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<6x8x8xf32>) outs(%4 : tensor<6x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %36 = arith.truncf %in : f32 to bf16
      linalg.yield %36 : bf16
    } -> tensor<6x8x8xbf16>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [2, 3, 8, 8] : tensor<6x8x8xbf16> into tensor<2x3x8x8xbf16>
    %6 = tensor.empty() : tensor<2x3x8x8xbf16>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x3x8x8xbf16>) outs(%6 : tensor<2x3x8x8xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %36 = arith.mulf %in, %cst_3 : bf16
      linalg.yield %36 : bf16
    } -> tensor<2x3x8x8xbf16>
    %8 = tensor.empty() : tensor<8xi64>
    %9 = linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel"]} outs(%8 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %36 = linalg.index 0 : index
      %37 = arith.index_cast %36 : index to i64
      linalg.yield %37 : i64
    } -> tensor<8xi64>
    %expanded_5 = tensor.expand_shape %9 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_6 = tensor.expand_shape %9 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %10 = tensor.empty() : tensor<8x8xi64>
    %11 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%expanded_5, %expanded_6 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%10 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_11: i64, %out: i64):
      %36 = arith.subi %in, %in_11 : i64
      linalg.yield %36 : i64
    } -> tensor<8x8xi64>
    %12 = tensor.empty() : tensor<8x8xi1>
    %13 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<8x8xi64>) outs(%12 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %36 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %36 : i1
    } -> tensor<8x8xi1>
    %14 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%13, %cst_2 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%12 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_11: i1, %out: i1):
      %36 = arith.andi %in, %in_11 : i1
      linalg.yield %36 : i1
    } -> tensor<8x8xi1>
    %15 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%14 : tensor<8x8xi1>) outs(%12 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %out: i1):
      %36 = arith.xori %in, %true : i1
      linalg.yield %36 : i1
    } -> tensor<8x8xi1>
    %16 = linalg.generic {indexing_maps = [#map6, #map7, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %cst_1, %7 : tensor<8x8xi1>, tensor<bf16>, tensor<2x3x8x8xbf16>) outs(%6 : tensor<2x3x8x8xbf16>) {
    ^bb0(%in: i1, %in_11: bf16, %in_12: bf16, %out: bf16):
      %36 = arith.select %in, %in_11, %in_12 : bf16
      linalg.yield %36 : bf16
    } -> tensor<2x3x8x8xbf16>
    %17 = tensor.empty() : tensor<2x3x8x8xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<2x3x8x8xbf16>) outs(%17 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %36 = arith.extf %in : bf16 to f32
      linalg.yield %36 : f32
    } -> tensor<2x3x8x8xf32>
    %19 = tensor.empty() : tensor<2x3x8xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<2x3x8xi64>) -> tensor<2x3x8xi64>
    %21 = tensor.empty() : tensor<2x3x8xf32>
    %22 = linalg.fill ins(%cst_0 : f32) outs(%21 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
    %23:2 = linalg.generic {indexing_maps = [#map1, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<2x3x8x8xf32>) outs(%22, %20 : tensor<2x3x8xf32>, tensor<2x3x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_11: i64):
      %36 = linalg.index 3 : index
      %37 = arith.index_cast %36 : index to i64
      %38 = arith.maximumf %in, %out : f32
      %39 = arith.cmpf ogt, %in, %out : f32
      %40 = arith.select %39, %37, %out_11 : i64
      linalg.yield %38, %40 : f32, i64
    } -> (tensor<2x3x8xf32>, tensor<2x3x8xi64>)
    %expanded_7 = tensor.expand_shape %23#0 [[0], [1], [2, 3]] output_shape [2, 3, 8, 1] : tensor<2x3x8xf32> into tensor<2x3x8x1xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_7 : tensor<2x3x8x8xf32>, tensor<2x3x8x1xf32>) outs(%17 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %36 = arith.subf %in, %in_11 : f32
      linalg.yield %36 : f32
    } -> tensor<2x3x8x8xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<2x3x8x8xf32>) outs(%17 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %36 = math.exp %in : f32
      linalg.yield %36 : f32
    } -> tensor<2x3x8x8xf32>
    %26 = tensor.empty() : tensor<2x3x8x1xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<2x3x8x1xf32>) -> tensor<2x3x8x1xf32>
    %28 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%25 : tensor<2x3x8x8xf32>) outs(%27 : tensor<2x3x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %36 = arith.addf %in, %out : f32
      linalg.yield %36 : f32
    } -> tensor<2x3x8x1xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<2x3x8x8xf32>, tensor<2x3x8x1xf32>) outs(%17 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %36 = arith.divf %in, %in_11 : f32
      linalg.yield %36 : f32
    } -> tensor<2x3x8x8xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<2x3x8x8xf32>) outs(%6 : tensor<2x3x8x8xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %36 = arith.truncf %in : f32 to bf16
      linalg.yield %36 : bf16
    } -> tensor<2x3x8x8xbf16>
    %collapsed_8 = tensor.collapse_shape %30 [[0, 1], [2], [3]] : tensor<2x3x8x8xbf16> into tensor<6x8x8xbf16>
    %collapsed_9 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x3x8x16xbf16> into tensor<6x8x16xbf16>
    %31 = tensor.empty() : tensor<6x8x16xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<6x8x16xf32>) -> tensor<6x8x16xf32>
    %33 = linalg.batch_matmul ins(%collapsed_8, %collapsed_9 : tensor<6x8x8xbf16>, tensor<6x8x16xbf16>) outs(%32 : tensor<6x8x16xf32>) -> tensor<6x8x16xf32>
    %34 = tensor.empty() : tensor<6x8x16xbf16>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%33 : tensor<6x8x16xf32>) outs(%34 : tensor<6x8x16xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %36 = arith.truncf %in : f32 to bf16
      linalg.yield %36 : bf16
    } -> tensor<6x8x16xbf16>
    %expanded_10 = tensor.expand_shape %35 [[0, 1], [2], [3]] output_shape [2, 3, 8, 16] : tensor<6x8x16xbf16> into tensor<2x3x8x16xbf16>
    return %expanded_10 : tensor<2x3x8x16xbf16>
  }
}
