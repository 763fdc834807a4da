// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{column-tile-bytes=2048 min-row-tiles=2 vector-bits=64 vector-registers=8}' --check-semantics | filecheck %s

// The row-tiled form (what `lower-to-c` runs, `column-tile-bytes` = half
// its L2): a register tile of 2 filters x 4 pixels here. A 3x3 convolution
// of a zero-padded 2 x 6 x 6 input, 3 filters: K = 18, 6 output rows of 6;
// the most rows whose columns (18 x 6 * rows floats) fit 2048 bytes are
// 4, which do not divide 6, so 3 rows: 2 tiles. The gather runs over
// (n, t, c, kh, kw, i, ow), reading row (t * 3 + i) + kh - 1 and column
// ow + kw - 1 of the source, with no division; the product is a batch of
// N x T matmuls (F x K) @ (K x 3 * OW) writing the result where it lies,
// N x F x T x Q, a reshape of N x F x OH x OW; the fill becomes the
// product's.

// CHECK-LABEL: func.func @padded
// CHECK-NOT:     tensor.pad
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<1x2x2x3x3x3x6xf32>
// CHECK:         %[[GATHER:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3, d4, d5, d6)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} outs(%[[EMPTY]] : tensor<1x2x2x3x3x3x6xf32>)
// CHECK-NOT:       arith.divui
// CHECK-NOT:       arith.remui
// CHECK:           %[[T:.*]] = linalg.index 1 : index
// CHECK:           %[[I:.*]] = linalg.index 5 : index
// CHECK:           %[[THREE:.*]] = arith.constant 3 : index
// CHECK:           %[[T3:.*]] = arith.muli %[[T]], %[[THREE]] : index
// CHECK:           arith.addi %[[T3]], %[[I]] : index
// CHECK:           tensor.extract %source[
// CHECK:         %[[COL:.*]] = tensor.collapse_shape %[[GATHER]] {{\[}}[0], [1], [2, 3, 4], [5, 6]] : tensor<1x2x2x3x3x3x6xf32> into tensor<1x2x18x18xf32>
// CHECK:         %[[W:.*]] = tensor.collapse_shape %w {{\[}}[0], [1, 2, 3]] : tensor<3x2x3x3xf32> into tensor<3x18xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<1x3x2x18xf32>)
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%[[W]], %[[COL]] : tensor<3x18xf32>, tensor<1x2x18x18xf32>) outs(%[[FILL]] : tensor<1x3x2x18xf32>)
// CHECK:         %[[ROWS:.*]] = tensor.expand_shape %[[MM]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 3, 2, 3, 6]
// CHECK:         tensor.collapse_shape %[[ROWS]] {{\[}}[0], [1], [2, 3], [4]] : tensor<1x3x2x3x6xf32> into tensor<1x3x6x6xf32>
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @padded(%source: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %x = tensor.pad %source low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x6x6xf32> to tensor<1x2x8x8xf32>
  %e = tensor.empty() : tensor<1x3x6x6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x8x8xf32>, tensor<3x2x3x3xf32>) outs(%init : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  return %y : tensor<1x3x6x6xf32>
}

// -----

// A strided, dilated convolution accumulating into an argument: 2 images
// of 4 output rows, so one tile of all 4 rows each (2 tiles, enough); row i
// of tile t reads input row (t * 4 + i) * 2 + kh * 2. The product
// accumulates into the init itself, reshaped to N x F x T x Q.

// CHECK-LABEL: func.func @strided_init
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<2x1x1x2x2x4x3xf32>)
// CHECK-NOT:       arith.divui
// CHECK:         %[[SPLIT:.*]] = tensor.expand_shape %init {{\[}}[0], [1], [2, 3], [4]] output_shape [2, 3, 1, 4, 3]
// CHECK:         %[[INIT:.*]] = tensor.collapse_shape %[[SPLIT]] {{\[}}[0], [1], [2], [3, 4]] : tensor<2x3x1x4x3xf32> into tensor<2x3x1x12xf32>
// CHECK:         linalg.generic {{.*}} outs(%[[INIT]] : tensor<2x3x1x12xf32>)
func.func @strided_init(%x: tensor<2x1x9x9xf32>, %w: tensor<3x1x2x2xf32>, %init: tensor<2x3x4x3xf32>) -> tensor<2x3x4x3xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<[2, 3]> : vector<2xi64>} ins(%x, %w : tensor<2x1x9x9xf32>, tensor<3x1x2x2xf32>) outs(%init : tensor<2x3x4x3xf32>) -> tensor<2x3x4x3xf32>
  return %y : tensor<2x3x4x3xf32>
}

// -----

// Left in the flat form (a gather over (n, k, p) with divisions): a
// convolution of one filter (fewer than the register tile's 2), one whose
// single output row gives one tile (fewer than `min-row-tiles`), and one
// whose output row of 3 pixels holds no register tile's 4. A pointwise
// convolution keeps its reshaped input.

// CHECK-LABEL: func.func @one_filter
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x16xf32>)
// CHECK:           arith.divui
func.func @one_filter(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x2x2xf32>, %init: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x5x5xf32>, tensor<1x1x2x2xf32>) outs(%init : tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// CHECK-LABEL: func.func @one_row
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x8xf32>)
// CHECK:           arith.divui
func.func @one_row(%x: tensor<1x1x2x9xf32>, %w: tensor<2x1x2x2xf32>, %init: tensor<1x2x1x8xf32>) -> tensor<1x2x1x8xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x2x9xf32>, tensor<2x1x2x2xf32>) outs(%init : tensor<1x2x1x8xf32>) -> tensor<1x2x1x8xf32>
  return %y : tensor<1x2x1x8xf32>
}

// CHECK-LABEL: func.func @narrow
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x9xf32>)
// CHECK:           arith.divui
func.func @narrow(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x2x2xf32>, %init: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x1x2x2xf32>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// CHECK-LABEL: func.func @pointwise
// CHECK:         tensor.collapse_shape %x {{\[}}[0], [1], [2, 3]] : tensor<1x2x4x4xf32> into tensor<1x2x16xf32>
// CHECK-NOT:     linalg.index
func.func @pointwise(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>, %init: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// An NHWC convolution takes no row tiles (pixel-major columns would be
// merged with their tiles by `linalg-collapse-dims`; k-major ones read the
// input at a stride of C): its gather runs over the window's loops, without
// divisions, into `(N * P) x K` columns (`linalg-conv-to-im2col-nhwc.mlir`).

// CHECK-LABEL: func.func @nhwc
// CHECK:         %[[GATHER:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x4x4x3x3x2xf32>)
// CHECK-NOT:       arith.divui
// CHECK:         tensor.collapse_shape %[[GATHER]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x4x4x3x3x2xf32> into tensor<16x18xf32>
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf
func.func @nhwc(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x4xf32>, %init: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%init : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %y : tensor<1x4x4x4xf32>
}
