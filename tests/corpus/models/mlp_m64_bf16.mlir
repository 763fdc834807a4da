#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @mlp_m64_bf16(%arg0: tensor<4x32xbf16>, %arg1: tensor<128x32xbf16>, %arg2: tensor<128xbf16>, %arg3: tensor<32x128xbf16>, %arg4: tensor<32xbf16>) -> tensor<4x32xbf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : bf16
    %cst_1 = arith.constant 2.000000e+00 : bf16
    %cst_2 = arith.constant 5.000000e-01 : bf16
    %0 = tensor.empty() : tensor<32x128xbf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<128x32xbf16>) outs(%0 : tensor<32x128xbf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<128xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg2 : tensor<128xbf16>) outs(%1 : tensor<128xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %25 = arith.extf %in : bf16 to f32
      linalg.yield %25 : f32
    } -> tensor<128xf32>
    %3 = tensor.empty() : tensor<4x32xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x32xbf16>) outs(%3 : tensor<4x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %25 = arith.extf %in : bf16 to f32
      linalg.yield %25 : f32
    } -> tensor<4x32xf32>
    %5 = tensor.empty() : tensor<32x128xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<32x128xbf16>) outs(%5 : tensor<32x128xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %25 = arith.extf %in : bf16 to f32
      linalg.yield %25 : f32
    } -> tensor<32x128xf32>
    %7 = tensor.empty() : tensor<4x128xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4x128xf32>) -> tensor<4x128xf32>
    %9 = linalg.matmul ins(%4, %6 : tensor<4x32xf32>, tensor<32x128xf32>) outs(%8 : tensor<4x128xf32>) -> tensor<4x128xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%9, %2 : tensor<4x128xf32>, tensor<128xf32>) outs(%7 : tensor<4x128xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %25 = arith.addf %in, %in_4 : f32
      linalg.yield %25 : f32
    } -> tensor<4x128xf32>
    %11 = tensor.empty() : tensor<4x128xbf16>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<4x128xf32>) outs(%11 : tensor<4x128xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %25 = arith.truncf %in : f32 to bf16
      linalg.yield %25 : bf16
    } -> tensor<4x128xbf16>
    %13 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<4x128xbf16>) outs(%11 : tensor<4x128xbf16>) {
    ^bb0(%in: bf16, %out: bf16):
      %25 = math.sqrt %cst_1 : bf16
      %26 = arith.divf %in, %25 : bf16
      %27 = math.erf %26 : bf16
      %28 = arith.addf %27, %cst_0 : bf16
      %29 = arith.mulf %28, %cst_2 : bf16
      %30 = arith.mulf %in, %29 : bf16
      linalg.yield %30 : bf16
    } -> tensor<4x128xbf16>
    %14 = tensor.empty() : tensor<128x32xbf16>
    %transposed_3 = linalg.transpose ins(%arg3 : tensor<32x128xbf16>) outs(%14 : tensor<128x32xbf16>) permutation = [1, 0] 
    %15 = tensor.empty() : tensor<32xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg4 : tensor<32xbf16>) outs(%15 : tensor<32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %25 = arith.extf %in : bf16 to f32
      linalg.yield %25 : f32
    } -> tensor<32xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<4x128xbf16>) outs(%7 : tensor<4x128xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %25 = arith.extf %in : bf16 to f32
      linalg.yield %25 : f32
    } -> tensor<4x128xf32>
    %18 = tensor.empty() : tensor<128x32xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed_3 : tensor<128x32xbf16>) outs(%18 : tensor<128x32xf32>) {
    ^bb0(%in: bf16, %out: f32):
      %25 = arith.extf %in : bf16 to f32
      linalg.yield %25 : f32
    } -> tensor<128x32xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%3 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %21 = linalg.matmul ins(%17, %19 : tensor<4x128xf32>, tensor<128x32xf32>) outs(%20 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%21, %16 : tensor<4x32xf32>, tensor<32xf32>) outs(%3 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %25 = arith.addf %in, %in_4 : f32
      linalg.yield %25 : f32
    } -> tensor<4x32xf32>
    %23 = tensor.empty() : tensor<4x32xbf16>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<4x32xf32>) outs(%23 : tensor<4x32xbf16>) {
    ^bb0(%in: f32, %out: bf16):
      %25 = arith.truncf %in : f32 to bf16
      linalg.yield %25 : bf16
    } -> tensor<4x32xbf16>
    return %24 : tensor<4x32xbf16>
  }
}
