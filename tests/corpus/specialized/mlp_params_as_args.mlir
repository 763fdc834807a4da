#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @mlp_params_as_args(%arg0: tensor<4x16xf32>, %arg1: tensor<32x16xf32>, %arg2: tensor<32xf32>, %arg3: tensor<8x32xf32>, %arg4: tensor<8xf32>) -> tensor<4x8xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<16x32xf32>
    %transposed = linalg.transpose ins(%arg1 : tensor<32x16xf32>) outs(%0 : tensor<16x32xf32>) permutation = [1, 0] 
    %1 = tensor.empty() : tensor<4x32xf32>
    %2 = linalg.fill ins(%cst : f32) outs(%1 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<4x16xf32>, tensor<16x32xf32>) outs(%2 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %4 = linalg.elementwise <add> indexing_maps = [#map, #map1, #map] ins(%3, %arg2 : tensor<4x32xf32>, tensor<32xf32>) outs(%1 : tensor<4x32xf32>) -> tensor<4x32xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<4x32xf32>) outs(%1 : tensor<4x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %11 = arith.cmpf ugt, %in, %cst : f32
      %12 = arith.select %11, %in, %cst : f32
      linalg.yield %12 : f32
    } -> tensor<4x32xf32>
    %6 = tensor.empty() : tensor<32x8xf32>
    %transposed_0 = linalg.transpose ins(%arg3 : tensor<8x32xf32>) outs(%6 : tensor<32x8xf32>) permutation = [1, 0] 
    %7 = tensor.empty() : tensor<4x8xf32>
    %8 = linalg.fill ins(%cst : f32) outs(%7 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %9 = linalg.matmul ins(%5, %transposed_0 : tensor<4x32xf32>, tensor<32x8xf32>) outs(%8 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %10 = linalg.elementwise <add> indexing_maps = [#map, #map1, #map] ins(%9, %arg4 : tensor<4x8xf32>, tensor<8xf32>) outs(%7 : tensor<4x8xf32>) -> tensor<4x8xf32>
    return %10 : tensor<4x8xf32>
  }
}

