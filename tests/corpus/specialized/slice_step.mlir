#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
module {
  func.func @slice_step(%arg0: tensor<3x7xf32>) -> (tensor<3x2xf32>, tensor<2x2xf32>) {
    %cst = arith.constant 0.000000e+00 : f32
    %extracted_slice = tensor.extract_slice %arg0[0, 1] [3, 2] [1, 2] : tensor<3x7xf32> to tensor<3x2xf32>
    %extracted_slice_0 = tensor.extract_slice %arg0[1, 0] [2, 7] [1, 1] : tensor<3x7xf32> to tensor<2x7xf32>
    %extracted_slice_1 = tensor.extract_slice %extracted_slice_0[0, 5] [2, 2] [1, 1] : tensor<2x7xf32> to tensor<2x2xf32>
    %0 = tensor.empty() : tensor<2x2xf32>
    %1 = linalg.elementwise <add> indexing_maps = [#map, #map1, #map] ins(%extracted_slice_1, %cst : tensor<2x2xf32>, f32) outs(%0 : tensor<2x2xf32>) -> tensor<2x2xf32>
    return %extracted_slice, %1 : tensor<3x2xf32>, tensor<2x2xf32>
  }
}

