#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @mlp_m4096(%arg0: tensor<4096x1024xf32>, %arg1: tensor<4096x1024xf32>, %arg2: tensor<4096xf32>, %arg3: tensor<1024x4096xf32>, %arg4: tensor<1024xf32>) -> tensor<4096x1024xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant 5.000000e-01 : f32
    %cst_2 = arith.constant 1.41421354 : f32
    %0 = tensor.empty() : tensor<1024x4096xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<4096x1024xf32>) outs(%0 : tensor<1024x4096xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<4096x4096xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<4096x1024xf32>, tensor<1024x4096xf32>) outs(%2 : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%3, %arg2 : tensor<4096x4096xf32>, tensor<4096xf32>) outs(%1 : tensor<4096x4096xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.addf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<4096x4096xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4096x4096xf32>) outs(%1 : tensor<4096x4096xf32>) {
    ^bb0(%in: f32, %out: f32):
      %10 = arith.divf %in, %cst_2 : f32
      %11 = math.erf %10 : f32
      %12 = arith.addf %11, %cst_0 : f32
      %13 = arith.mulf %12, %cst_1 : f32
      %14 = arith.mulf %in, %13 : f32
      linalg.yield %14 : f32
    } -> tensor<4096x4096xf32>
    %6 = tensor.empty() : tensor<4096x1024xf32>
    %transposed_3 = linalg.transpose ins(%arg3 : tensor<1024x4096xf32>) outs(%6 : tensor<4096x1024xf32>) permutation = [1, 0] 
    %7 = linalg.fill ins(%cst : f32) outs(%6 : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
    %8 = linalg.matmul ins(%5, %transposed_3 : tensor<4096x4096xf32>, tensor<4096x1024xf32>) outs(%7 : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%8, %arg4 : tensor<4096x1024xf32>, tensor<1024xf32>) outs(%6 : tensor<4096x1024xf32>) {
    ^bb0(%in: f32, %in_4: f32, %out: f32):
      %10 = arith.addf %in, %in_4 : f32
      linalg.yield %10 : f32
    } -> tensor<4096x1024xf32>
    return %9 : tensor<4096x1024xf32>
  }
}
