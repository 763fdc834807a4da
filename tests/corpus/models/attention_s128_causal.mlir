#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0) -> (d0)>
#map2 = affine_map<(d0, d1) -> (0, d1)>
#map3 = affine_map<(d0, d1) -> (d0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1, d2, d3) -> (d2, d3)>
#map6 = affine_map<(d0, d1, d2, d3) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention_s128_causal(%arg0: tensor<2x3x8x16xf32>, %arg1: tensor<2x3x8x16xf32>, %arg2: tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant dense<true> : tensor<8x8xi1>
    %cst_3 = arith.constant 2.500000e-01 : f32
    %0 = tensor.empty() : tensor<2x3x16x8xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<2x3x8x16xf32>) outs(%0 : tensor<2x3x16x8xf32>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<2x3x8x16xf32> into tensor<6x8x16xf32>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<2x3x16x8xf32> into tensor<6x16x8xf32>
    %1 = tensor.empty() : tensor<6x8x8xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<6x8x16xf32>, tensor<6x16x8xf32>) outs(%2 : tensor<6x8x8xf32>) -> tensor<6x8x8xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2], [3]] output_shape [2, 3, 8, 8] : tensor<6x8x8xf32> into tensor<2x3x8x8xf32>
    %4 = tensor.empty() : tensor<2x3x8x8xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x3x8x8xf32>) outs(%4 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.mulf %in, %cst_3 : f32
      linalg.yield %29 : f32
    } -> tensor<2x3x8x8xf32>
    %6 = tensor.empty() : tensor<8xi64>
    %7 = linalg.generic {indexing_maps = [#map1], iterator_types = ["parallel"]} outs(%6 : tensor<8xi64>) {
    ^bb0(%out: i64):
      %29 = linalg.index 0 : index
      %30 = arith.index_cast %29 : index to i64
      linalg.yield %30 : i64
    } -> tensor<8xi64>
    %expanded_5 = tensor.expand_shape %7 [[0, 1]] output_shape [1, 8] : tensor<8xi64> into tensor<1x8xi64>
    %expanded_6 = tensor.expand_shape %7 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %8 = tensor.empty() : tensor<8x8xi64>
    %9 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel"]} ins(%expanded_5, %expanded_6 : tensor<1x8xi64>, tensor<8x1xi64>) outs(%8 : tensor<8x8xi64>) {
    ^bb0(%in: i64, %in_11: i64, %out: i64):
      %29 = arith.subi %in, %in_11 : i64
      linalg.yield %29 : i64
    } -> tensor<8x8xi64>
    %10 = tensor.empty() : tensor<8x8xi1>
    %11 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%9 : tensor<8x8xi64>) outs(%10 : tensor<8x8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %29 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %29 : i1
    } -> tensor<8x8xi1>
    %12 = linalg.generic {indexing_maps = [#map4, #map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%11, %cst_2 : tensor<8x8xi1>, tensor<8x8xi1>) outs(%10 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %in_11: i1, %out: i1):
      %29 = arith.andi %in, %in_11 : i1
      linalg.yield %29 : i1
    } -> tensor<8x8xi1>
    %13 = linalg.generic {indexing_maps = [#map4, #map4], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<8x8xi1>) outs(%10 : tensor<8x8xi1>) {
    ^bb0(%in: i1, %out: i1):
      %29 = arith.xori %in, %true : i1
      linalg.yield %29 : i1
    } -> tensor<8x8xi1>
    %14 = linalg.generic {indexing_maps = [#map5, #map6, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13, %cst_1, %5 : tensor<8x8xi1>, tensor<f32>, tensor<2x3x8x8xf32>) outs(%4 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: i1, %in_11: f32, %in_12: f32, %out: f32):
      %29 = arith.select %in, %in_11, %in_12 : f32
      linalg.yield %29 : f32
    } -> tensor<2x3x8x8xf32>
    %15 = tensor.empty() : tensor<2x3x8xi64>
    %16 = linalg.fill ins(%c0_i64 : i64) outs(%15 : tensor<2x3x8xi64>) -> tensor<2x3x8xi64>
    %17 = tensor.empty() : tensor<2x3x8xf32>
    %18 = linalg.fill ins(%cst_0 : f32) outs(%17 : tensor<2x3x8xf32>) -> tensor<2x3x8xf32>
    %19:2 = linalg.generic {indexing_maps = [#map, #map7, #map7], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%14 : tensor<2x3x8x8xf32>) outs(%18, %16 : tensor<2x3x8xf32>, tensor<2x3x8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_11: i64):
      %29 = linalg.index 3 : index
      %30 = arith.index_cast %29 : index to i64
      %31 = arith.maximumf %in, %out : f32
      %32 = arith.cmpf ogt, %in, %out : f32
      %33 = arith.select %32, %30, %out_11 : i64
      linalg.yield %31, %33 : f32, i64
    } -> (tensor<2x3x8xf32>, tensor<2x3x8xi64>)
    %expanded_7 = tensor.expand_shape %19#0 [[0], [1], [2, 3]] output_shape [2, 3, 8, 1] : tensor<2x3x8xf32> into tensor<2x3x8x1xf32>
    %20 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%14, %expanded_7 : tensor<2x3x8x8xf32>, tensor<2x3x8x1xf32>) outs(%4 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %29 = arith.subf %in, %in_11 : f32
      linalg.yield %29 : f32
    } -> tensor<2x3x8x8xf32>
    %21 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<2x3x8x8xf32>) outs(%4 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = math.exp %in : f32
      linalg.yield %29 : f32
    } -> tensor<2x3x8x8xf32>
    %22 = tensor.empty() : tensor<2x3x8x1xf32>
    %23 = linalg.fill ins(%cst : f32) outs(%22 : tensor<2x3x8x1xf32>) -> tensor<2x3x8x1xf32>
    %24 = linalg.generic {indexing_maps = [#map, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%21 : tensor<2x3x8x8xf32>) outs(%23 : tensor<2x3x8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %29 = arith.addf %in, %out : f32
      linalg.yield %29 : f32
    } -> tensor<2x3x8x1xf32>
    %25 = linalg.generic {indexing_maps = [#map, #map8, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %24 : tensor<2x3x8x8xf32>, tensor<2x3x8x1xf32>) outs(%4 : tensor<2x3x8x8xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %29 = arith.divf %in, %in_11 : f32
      linalg.yield %29 : f32
    } -> tensor<2x3x8x8xf32>
    %collapsed_8 = tensor.collapse_shape %25 [[0, 1], [2], [3]] : tensor<2x3x8x8xf32> into tensor<6x8x8xf32>
    %collapsed_9 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<2x3x8x16xf32> into tensor<6x8x16xf32>
    %26 = tensor.empty() : tensor<6x8x16xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<6x8x16xf32>) -> tensor<6x8x16xf32>
    %28 = linalg.batch_matmul ins(%collapsed_8, %collapsed_9 : tensor<6x8x8xf32>, tensor<6x8x16xf32>) outs(%27 : tensor<6x8x16xf32>) -> tensor<6x8x16xf32>
    %expanded_10 = tensor.expand_shape %28 [[0, 1], [2], [3]] output_shape [2, 3, 8, 16] : tensor<6x8x16xf32> into tensor<2x3x8x16xf32>
    return %expanded_10 : tensor<2x3x8x16xf32>
  }
}
