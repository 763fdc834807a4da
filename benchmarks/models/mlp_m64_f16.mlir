#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @mlp_m64_f16(%arg0: tensor<64x1024xf16>, %arg1: tensor<4096x1024xf16>, %arg2: tensor<4096xf16>, %arg3: tensor<1024x4096xf16>, %arg4: tensor<1024xf16>) -> tensor<64x1024xf16> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f16
    %cst_1 = arith.constant 2.000000e+00 : f16
    %cst_2 = arith.constant 5.000000e-01 : f16
    %0 = tensor.empty() : tensor<1024x4096xf16>
    %transposed = linalg.transpose ins(%arg1 : tensor<4096x1024xf16>) outs(%0 : tensor<1024x4096xf16>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<4096xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg2 : tensor<4096xf16>) outs(%1 : tensor<4096xf32>) {
    ^bb0(%in: f16, %out: f32):
      %25 = arith.extf %in : f16 to f32
      linalg.yield %25 : f32
    } -> tensor<4096xf32>
    %3 = tensor.empty() : tensor<64x1024xf32>
    %4 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<64x1024xf16>) outs(%3 : tensor<64x1024xf32>) {
    ^bb0(%in: f16, %out: f32):
      %25 = arith.extf %in : f16 to f32
      linalg.yield %25 : f32
    } -> tensor<64x1024xf32>
    %5 = tensor.empty() : tensor<1024x4096xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed : tensor<1024x4096xf16>) outs(%5 : tensor<1024x4096xf32>) {
    ^bb0(%in: f16, %out: f32):
      %25 = arith.extf %in : f16 to f32
      linalg.yield %25 : f32
    } -> tensor<1024x4096xf32>
    %7 = tensor.empty() : tensor<64x4096xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %9 = linalg.matmul ins(%4, %6 : tensor<64x1024xf32>, tensor<1024x4096xf32>) outs(%8 : tensor<64x4096xf32>) -> tensor<64x4096xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%9, %2 : tensor<64x4096xf32>, tensor<4096xf32>) outs(%7 : tensor<64x4096xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %25 = arith.addf %in, %in_4 : f32
      linalg.yield %25 : f32
    } -> tensor<64x4096xf32>
    %11 = tensor.empty() : tensor<64x4096xf16>
    %12 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%10 : tensor<64x4096xf32>) outs(%11 : tensor<64x4096xf16>) {
    ^bb0(%in: f32, %out: f16):
      %25 = arith.truncf %in : f32 to f16
      linalg.yield %25 : f16
    } -> tensor<64x4096xf16>
    %13 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%12 : tensor<64x4096xf16>) outs(%11 : tensor<64x4096xf16>) {
    ^bb0(%in: f16, %out: f16):
      %25 = math.sqrt %cst_1 : f16
      %26 = arith.divf %in, %25 : f16
      %27 = math.erf %26 : f16
      %28 = arith.addf %27, %cst_0 : f16
      %29 = arith.mulf %28, %cst_2 : f16
      %30 = arith.mulf %in, %29 : f16
      linalg.yield %30 : f16
    } -> tensor<64x4096xf16>
    %14 = tensor.empty() : tensor<4096x1024xf16>
    %transposed_3 = linalg.transpose ins(%arg3 : tensor<1024x4096xf16>) outs(%14 : tensor<4096x1024xf16>) permutation = [1, 0] 
    %15 = tensor.empty() : tensor<1024xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%arg4 : tensor<1024xf16>) outs(%15 : tensor<1024xf32>) {
    ^bb0(%in: f16, %out: f32):
      %25 = arith.extf %in : f16 to f32
      linalg.yield %25 : f32
    } -> tensor<1024xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%13 : tensor<64x4096xf16>) outs(%7 : tensor<64x4096xf32>) {
    ^bb0(%in: f16, %out: f32):
      %25 = arith.extf %in : f16 to f32
      linalg.yield %25 : f32
    } -> tensor<64x4096xf32>
    %18 = tensor.empty() : tensor<4096x1024xf32>
    %19 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%transposed_3 : tensor<4096x1024xf16>) outs(%18 : tensor<4096x1024xf32>) {
    ^bb0(%in: f16, %out: f32):
      %25 = arith.extf %in : f16 to f32
      linalg.yield %25 : f32
    } -> tensor<4096x1024xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%3 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %21 = linalg.matmul ins(%17, %19 : tensor<64x4096xf32>, tensor<4096x1024xf32>) outs(%20 : tensor<64x1024xf32>) -> tensor<64x1024xf32>
    %22 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel"]} ins(%21, %16 : tensor<64x1024xf32>, tensor<1024xf32>) outs(%3 : tensor<64x1024xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %25 = arith.addf %in, %in_4 : f32
      linalg.yield %25 : f32
    } -> tensor<64x1024xf32>
    %23 = tensor.empty() : tensor<64x1024xf16>
    %24 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%22 : tensor<64x1024xf32>) outs(%23 : tensor<64x1024xf16>) {
    ^bb0(%in: f32, %out: f16):
      %25 = arith.truncf %in : f32 to f16
      linalg.yield %25 : f16
    } -> tensor<64x1024xf16>
    return %24 : tensor<64x1024xf16>
  }
}
