#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, 0)>
module {
  func.func @attention_s512_f16(%arg0: tensor<8x12x512x64xf16>, %arg1: tensor<8x12x512x64xf16>, %arg2: tensor<8x12x512x64xf16>) -> tensor<8x12x512x64xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %c0_i64 = arith.constant 0 : i64
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant 1.250000e-01 : f16
    %0 = tensor.empty() : tensor<8x12x64x512xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<8x12x512x64xf16>) outs(%0 : tensor<8x12x64x512xf16>) permutation = [0, 1, 3, 2] 
    %collapsed = tensor.collapse_shape %arg0 [[0, 1], [2], [3]] : tensor<8x12x512x64xf16> into tensor<96x512x64xf16>
    %collapsed_2 = tensor.collapse_shape %transposed [[0, 1], [2], [3]] : tensor<8x12x64x512xf16> into tensor<96x64x512xf16>
    %1 = tensor.empty() : tensor<96x512x512xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<96x512x512xf32>) -> tensor<96x512x512xf32>
    %3 = linalg.batch_matmul ins(%collapsed, %collapsed_2 : tensor<96x512x64xf16>, tensor<96x64x512xf16>) outs(%2 : tensor<96x512x512xf32>) -> tensor<96x512x512xf32>
    %4 = tensor.empty() : tensor<96x512x512xf16>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3 : tensor<96x512x512xf32>) outs(%4 : tensor<96x512x512xf16>) {
    ^bb0(%in: f32, %out: f16):
      %27 = arith.truncf %in : f32 to f16
      linalg.yield %27 : f16
    } -> tensor<96x512x512xf16>
    %expanded = tensor.expand_shape %5 [[0, 1], [2], [3]] output_shape [8, 12, 512, 512] : tensor<96x512x512xf16> into tensor<8x12x512x512xf16>
    %6 = tensor.empty() : tensor<8x12x512x512xf16>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%expanded : tensor<8x12x512x512xf16>) outs(%6 : tensor<8x12x512x512xf16>) {
    ^bb0(%in: f16, %out: f16):
      %27 = arith.mulf %in, %cst_1 : f16
      linalg.yield %27 : f16
    } -> tensor<8x12x512x512xf16>
    %8 = tensor.empty() : tensor<8x12x512x512xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7 : tensor<8x12x512x512xf16>) outs(%8 : tensor<8x12x512x512xf32>) {
    ^bb0(%in: f16, %out: f32):
      %27 = arith.extf %in : f16 to f32
      linalg.yield %27 : f32
    } -> tensor<8x12x512x512xf32>
    %10 = tensor.empty() : tensor<8x12x512xi64>
    %11 = linalg.fill ins(%c0_i64 : i64) outs(%10 : tensor<8x12x512xi64>) -> tensor<8x12x512xi64>
    %12 = tensor.empty() : tensor<8x12x512xf32>
    %13 = linalg.fill ins(%cst_0 : f32) outs(%12 : tensor<8x12x512xf32>) -> tensor<8x12x512xf32>
    %14:2 = linalg.generic {indexing_maps = [#map1, #map2, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%9 : tensor<8x12x512x512xf32>) outs(%13, %11 : tensor<8x12x512xf32>, tensor<8x12x512xi64>) {
    ^bb0(%in: f32, %out: f32, %out_7: i64):
      %27 = linalg.index 3 : index
      %28 = arith.index_cast %27 : index to i64
      %29 = arith.maximumf %in, %out : f32
      %30 = arith.cmpf ogt, %in, %out : f32
      %31 = arith.select %30, %28, %out_7 : i64
      linalg.yield %29, %31 : f32, i64
    } -> (tensor<8x12x512xf32>, tensor<8x12x512xi64>)
    %expanded_3 = tensor.expand_shape %14#0 [[0], [1], [2, 3]] output_shape [8, 12, 512, 1] : tensor<8x12x512xf32> into tensor<8x12x512x1xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %expanded_3 : tensor<8x12x512x512xf32>, tensor<8x12x512x1xf32>) outs(%8 : tensor<8x12x512x512xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %27 = arith.subf %in, %in_7 : f32
      linalg.yield %27 : f32
    } -> tensor<8x12x512x512xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15 : tensor<8x12x512x512xf32>) outs(%8 : tensor<8x12x512x512xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = math.exp %in : f32
      linalg.yield %27 : f32
    } -> tensor<8x12x512x512xf32>
    %17 = tensor.empty() : tensor<8x12x512x1xf32>
    %18 = linalg.fill ins(%cst : f32) outs(%17 : tensor<8x12x512x1xf32>) -> tensor<8x12x512x1xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%16 : tensor<8x12x512x512xf32>) outs(%18 : tensor<8x12x512x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %27 = arith.addf %in, %out : f32
      linalg.yield %27 : f32
    } -> tensor<8x12x512x1xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map3, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %19 : tensor<8x12x512x512xf32>, tensor<8x12x512x1xf32>) outs(%8 : tensor<8x12x512x512xf32>) {
    ^bb0(%in: f32, %in_7: f32, %out: f32):
      %27 = arith.divf %in, %in_7 : f32
      linalg.yield %27 : f32
    } -> tensor<8x12x512x512xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20 : tensor<8x12x512x512xf32>) outs(%6 : tensor<8x12x512x512xf16>) {
    ^bb0(%in: f32, %out: f16):
      %27 = arith.truncf %in : f32 to f16
      linalg.yield %27 : f16
    } -> tensor<8x12x512x512xf16>
    %collapsed_4 = tensor.collapse_shape %21 [[0, 1], [2], [3]] : tensor<8x12x512x512xf16> into tensor<96x512x512xf16>
    %collapsed_5 = tensor.collapse_shape %arg2 [[0, 1], [2], [3]] : tensor<8x12x512x64xf16> into tensor<96x512x64xf16>
    %22 = tensor.empty() : tensor<96x512x64xf32>
    %23 = linalg.fill ins(%cst : f32) outs(%22 : tensor<96x512x64xf32>) -> tensor<96x512x64xf32>
    %24 = linalg.batch_matmul ins(%collapsed_4, %collapsed_5 : tensor<96x512x512xf16>, tensor<96x512x64xf16>) outs(%23 : tensor<96x512x64xf32>) -> tensor<96x512x64xf32>
    %25 = tensor.empty() : tensor<96x512x64xf16>
    %26 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%24 : tensor<96x512x64xf32>) outs(%25 : tensor<96x512x64xf16>) {
    ^bb0(%in: f32, %out: f16):
      %27 = arith.truncf %in : f32 to f16
      linalg.yield %27 : f16
    } -> tensor<96x512x64xf16>
    %expanded_6 = tensor.expand_shape %26 [[0, 1], [2], [3]] output_shape [8, 12, 512, 64] : tensor<96x512x64xf16> into tensor<8x12x512x64xf16>
    return %expanded_6 : tensor<8x12x512x64xf16>
  }
}
