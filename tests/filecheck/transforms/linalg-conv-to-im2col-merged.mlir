// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{merge-images-below=32 gather-multiples=4,8,4}' --check-semantics | filecheck %s
// RUN: not irkit-opt %s -p 'linalg-conv-to-im2col{merge-images-below=-1}' 2>&1 | filecheck %s --check-prefix=OPTIONS

// Two images of 5x5 output pixels (fewer than 32 each): one matmul over both
// images' columns side by side, `col[k, n * 25 + p]` (50 columns, padded to
// 56, a multiple of 8; K = 27 to 28), from the convolution's fill, then the
// product's `F x N x P` corner reordered into the `N x F x OH x OW` result.

// CHECK-LABEL: func.func @two_small_images
// CHECK:         %[[COL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%{{.*}} : tensor<28x56xf32>)
// CHECK:           %[[K:.*]] = linalg.index 0 : index
// CHECK:           %[[Q:.*]] = linalg.index 1 : index
// CHECK:           %[[LASTQ:.*]] = arith.constant 49 : index
// CHECK:           %[[REALQ:.*]] = arith.cmpi ule, %[[Q]], %[[LASTQ]] : index
// CHECK:           %[[CLAMPED:.*]] = arith.minui %[[Q]], %[[LASTQ]] : index
// CHECK:           %[[P:.*]] = arith.constant 25 : index
// CHECK:           %[[N:.*]] = arith.divui %[[CLAMPED]], %[[P]] : index
// CHECK:           arith.remui %[[CLAMPED]], %{{.*}} : index
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<4x56xf32>)
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%{{.*}}, %[[COL]] : tensor<4x28xf32>, tensor<28x56xf32>) outs(%[[FILL]] : tensor<4x56xf32>)
// CHECK:         %[[CORNER:.*]] = tensor.extract_slice %[[MM]][0, 0] [4, 50] [1, 1]
// CHECK:         %[[BY_IMAGE:.*]] = tensor.expand_shape %[[CORNER]] {{\[}}[0], [1, 2]] output_shape [4, 2, 25]
// CHECK:         %[[REORDERED:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%[[BY_IMAGE]] : tensor<4x2x25xf32>) outs(%{{.*}} : tensor<2x4x25xf32>)
// CHECK:         tensor.expand_shape %[[REORDERED]] {{\[}}[0], [1], [2, 3]] output_shape [2, 4, 5, 5]
func.func @two_small_images(%x: tensor<2x3x7x7xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4x5x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  return %y : tensor<2x4x5x5xf32>
}

// -----

// Left batched: one image; images of 32 pixels or more; an init that is no
// fill (the product would start from the reordered init: not exact); a 1x1
// stride-1 convolution (its columns are its input: no gather to merge).

// CHECK-LABEL: func.func @one_image
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x28x32xf32>)
// CHECK-NOT:     affine_map<(d0, d1, d2) -> (d1, d0, d2)>
func.func @one_image(%x: tensor<1x3x7x7xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x4x5x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  return %y : tensor<1x4x5x5xf32>
}

// -----

// CHECK-LABEL: func.func @large_images
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x28x40xf32>)
// CHECK-NOT:     affine_map<(d0, d1, d2) -> (d1, d0, d2)>
func.func @large_images(%x: tensor<2x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4x6x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<2x4x6x6xf32>) -> tensor<2x4x6x6xf32>
  return %y : tensor<2x4x6x6xf32>
}

// -----

// CHECK-LABEL: func.func @accumulated
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x28x32xf32>)
// CHECK-NOT:     affine_map<(d0, d1, d2) -> (d1, d0, d2)>
func.func @accumulated(%x: tensor<2x3x7x7xf32>, %w: tensor<4x3x3x3xf32>, %init: tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  return %y : tensor<2x4x5x5xf32>
}

// -----

// CHECK-LABEL: func.func @pointwise
// CHECK:         tensor.collapse_shape %x {{\[}}[0], [1], [2, 3]] : tensor<2x8x4x4xf32> into tensor<2x8x16xf32>
// CHECK-NOT:     affine_map<(d0, d1, d2) -> (d1, d0, d2)>
func.func @pointwise(%x: tensor<2x8x4x4xf32>, %w: tensor<4x8x1x1xf32>) -> tensor<2x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x8x4x4xf32>, tensor<4x8x1x1xf32>) outs(%init : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %y : tensor<2x4x4x4xf32>
}

// OPTIONS: error: linalg-conv-to-im2col: pixel-multiple, reduction-multiple, filter-multiple, half-reduction-multiple, max-growth-percent, column-tile-bytes and merge-images-below must be >= 0, min-row-tiles >= 1
