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
  func.func @attention_s128_causal_f16(%arg0: tensor<8x12x128x64xf16>, %arg1: tensor<8x12x128x64xf16>, %arg2: tensor<8x12x128x64xf16>) -> tensor<8x12x128x64xf16> {
    %c0_i64 = arith.constant 0 : i64
    %cst = arith.constant 0.000000e+00 : f32
    %true = arith.constant true
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFC00> : tensor<f16>
    %cst_2 = arith.constant dense<true> : tensor<128x128xi1>
    %cst_3 = arith.constant 1.250000e-01 : f16
    %0 = tensor.empty() : tensor<8x12x64x128xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<8x12x128x64xf16>) outs(%0 : tensor<8x12x64x128xf16>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<8x12x128x64xf16> into tensor<96x128x64xf16>
    %collapsed_4 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<8x12x64x128xf16> into tensor<96x64x128xf16>
    %1 = tensor.empty() : tensor<96x128x128xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<96x128x128xf32>) -> tensor<96x128x128xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_4 : tensor<96x128x64xf16>, tensor<96x64x128xf16>) outs(%2 : tensor<96x128x128xf32>) -> tensor<96x128x128xf32>
    %4 = tensor.empty() : tensor<96x128x128xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<96x128x128xf32>) outs(%4 : tensor<96x128x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %36 = arith.truncf %in : f32 to f16
      linalg.yield %36 : f16
    } -> tensor<96x128x128xf16>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [8, 12, 128, 128] : tensor<96x128x128xf16> into tensor<8x12x128x128xf16>
    %6 = tensor.empty() : tensor<8x12x128x128xf16>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<8x12x128x128xf16>) outs(%6 : tensor<8x12x128x128xf16>) {
    ^bb0(%in: f16, %out: f16):
      %36 = arith.mulf %in, %cst_3 : f16
      linalg.yield %36 : f16
    } -> tensor<8x12x128x128xf16>
    %8 = tensor.empty() : tensor<128xi64>
    %9 = linalg.generic {indexing_maps = [#map2], iterator_types = ["parallel"]} outs(%8 : tensor<128xi64>) {
    ^bb0(%out: i64):
      %36 = linalg.index 0 : index
      %37 = arith.index_cast %36 : index to i64
      linalg.yield %37 : i64
    } -> tensor<128xi64>
    %expanded_5 = tensor.expand_shape %9 [[0, 1]] output_shape [1, 128] : tensor<128xi64> into tensor<1x128xi64>
    %expanded_6 = tensor.expand_shape %9 [[0, 1]] output_shape [128, 1] : tensor<128xi64> into tensor<128x1xi64>
    %10 = tensor.empty() : tensor<128x128xi64>
    %11 = linalg.generic {indexing_maps = [#map3, #map4, #map5], iterator_types = ["parallel", "parallel"]} ins(%expanded_5, %expanded_6 : tensor<1x128xi64>, tensor<128x1xi64>) outs(%10 : tensor<128x128xi64>) {
    ^bb0(%in: i64, %in_11: i64, %out: i64):
      %36 = arith.subi %in, %in_11 : i64
      linalg.yield %36 : i64
    } -> tensor<128x128xi64>
    %12 = tensor.empty() : tensor<128x128xi1>
    %13 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%11 : tensor<128x128xi64>) outs(%12 : tensor<128x128xi1>) {
    ^bb0(%in: i64, %out: i1):
      %36 = arith.cmpi sle, %in, %c0_i64 : i64
      linalg.yield %36 : i1
    } -> tensor<128x128xi1>
    %14 = linalg.generic {indexing_maps = [#map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%13, %cst_2 : tensor<128x128xi1>, tensor<128x128xi1>) outs(%12 : tensor<128x128xi1>) {
    ^bb0(%in: i1, %in_11: i1, %out: i1):
      %36 = arith.andi %in, %in_11 : i1
      linalg.yield %36 : i1
    } -> tensor<128x128xi1>
    %15 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%14 : tensor<128x128xi1>) outs(%12 : tensor<128x128xi1>) {
    ^bb0(%in: i1, %out: i1):
      %36 = arith.xori %in, %true : i1
      linalg.yield %36 : i1
    } -> tensor<128x128xi1>
    %16 = linalg.generic {indexing_maps = [#map6, #map7, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %cst_1, %7 : tensor<128x128xi1>, tensor<f16>, tensor<8x12x128x128xf16>) outs(%6 : tensor<8x12x128x128xf16>) {
    ^bb0(%in: i1, %in_11: f16, %in_12: f16, %out: f16):
      %36 = arith.select %in, %in_11, %in_12 : f16
      linalg.yield %36 : f16
    } -> tensor<8x12x128x128xf16>
    %17 = tensor.empty() : tensor<8x12x128x128xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16 : tensor<8x12x128x128xf16>) outs(%17 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f16, %out: f32):
      %36 = arith.extf %in : f16 to f32
      linalg.yield %36 : f32
    } -> tensor<8x12x128x128xf32>
    %19 = tensor.empty() : tensor<8x12x128xi64>
    %20 = linalg.fill ins(%c0_i64 : i64) outs(%19 : tensor<8x12x128xi64>) -> tensor<8x12x128xi64>
    %21 = tensor.empty() : tensor<8x12x128xf32>
    %22 = linalg.fill ins(%cst_0 : f32) outs(%21 : tensor<8x12x128xf32>) -> tensor<8x12x128xf32>
    %23:2 = linalg.generic {indexing_maps = [#map1, #map8, #map8], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%18 : tensor<8x12x128x128xf32>) outs(%22, %20 : tensor<8x12x128xf32>, tensor<8x12x128xi64>) {
    ^bb0(%in: f32, %out: f32, %out_11: i64):
      %36 = linalg.index 3 : index
      %37 = arith.index_cast %36 : index to i64
      %38 = arith.maximumf %in, %out : f32
      %39 = arith.cmpf ogt, %in, %out : f32
      %40 = arith.select %39, %37, %out_11 : i64
      linalg.yield %38, %40 : f32, i64
    } -> (tensor<8x12x128xf32>, tensor<8x12x128xi64>)
    %expanded_7 = tensor.expand_shape %23#0 [[0], [1], [2, 3]] output_shape [8, 12, 128, 1] : tensor<8x12x128xf32> into tensor<8x12x128x1xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%18, %expanded_7 : tensor<8x12x128x128xf32>, tensor<8x12x128x1xf32>) outs(%17 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %36 = arith.subf %in, %in_11 : f32
      linalg.yield %36 : f32
    } -> tensor<8x12x128x128xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24 : tensor<8x12x128x128xf32>) outs(%17 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %36 = math.exp %in : f32
      linalg.yield %36 : f32
    } -> tensor<8x12x128x128xf32>
    %26 = tensor.empty() : tensor<8x12x128x1xf32>
    %27 = linalg.fill ins(%cst : f32) outs(%26 : tensor<8x12x128x1xf32>) -> tensor<8x12x128x1xf32>
    %28 = linalg.generic {indexing_maps = [#map1, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%25 : tensor<8x12x128x128xf32>) outs(%27 : tensor<8x12x128x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %36 = arith.addf %in, %out : f32
      linalg.yield %36 : f32
    } -> tensor<8x12x128x1xf32>
    %29 = linalg.generic {indexing_maps = [#map1, #map9, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %28 : tensor<8x12x128x128xf32>, tensor<8x12x128x1xf32>) outs(%17 : tensor<8x12x128x128xf32>) {
    ^bb0(%in: f32, %in_11: f32, %out: f32):
      %36 = arith.divf %in, %in_11 : f32
      linalg.yield %36 : f32
    } -> tensor<8x12x128x128xf32>
    %30 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%29 : tensor<8x12x128x128xf32>) outs(%6 : tensor<8x12x128x128xf16>) {
    ^bb0(%in: f32, %out: f16):
      %36 = arith.truncf %in : f32 to f16
      linalg.yield %36 : f16
    } -> tensor<8x12x128x128xf16>
    %collapsed_8 = tensor.collapse_shape %30 [[0, 1], [2], [3]] : tensor<8x12x128x128xf16> into tensor<96x128x128xf16>
    %collapsed_9 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<8x12x128x64xf16> into tensor<96x128x64xf16>
    %31 = tensor.empty() : tensor<96x128x64xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<96x128x64xf32>) -> tensor<96x128x64xf32>
    %33 = linalg.batch_matmul ins(%collapsed_8, %collapsed_9 : tensor<96x128x128xf16>, tensor<96x128x64xf16>) outs(%32 : tensor<96x128x64xf32>) -> tensor<96x128x64xf32>
    %34 = tensor.empty() : tensor<96x128x64xf16>
    %35 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%33 : tensor<96x128x64xf32>) outs(%34 : tensor<96x128x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %36 = arith.truncf %in : f32 to f16
      linalg.yield %36 : f16
    } -> tensor<96x128x64xf16>
    %expanded_10 = tensor.expand_shape %35 [[0, 1], [2], [3]] output_shape [8, 12, 128, 64] : tensor<96x128x64xf16> into tensor<8x12x128x64xf16>
    return %expanded_10 : tensor<8x12x128x64xf16>
  }
}
