// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{pixel-multiple=8 reduction-multiple=16 filter-multiple=8}' --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{pixel-multiple=8 reduction-multiple=16 max-growth-percent=10}' | filecheck %s --check-prefix=TIGHT
// RUN: not irkit-opt %s -p 'linalg-conv-to-im2col{pixel-multiple=-1}' 2>&1 | filecheck %s --check-prefix=OPTIONS
// RUN: not irkit-opt %s -p 'linalg-conv-to-im2col{half-reduction-multiple=-1}' 2>&1 | filecheck %s --check-prefix=OPTIONS
// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{pixel-multiple=8 reduction-multiple=16 filter-multiple=8 gather-multiples=4,5,16}' --check-semantics | filecheck %s --check-prefix=GATHER
// RUN: not irkit-opt %s -p 'linalg-conv-to-im2col{gather-multiples=4,4}' 2>&1 | filecheck %s --check-prefix=GATHER-OPTIONS

// The matmul's columns padded to the multiples of its tiles, as
// `lower-to-cuda` asks (its block's columns, its K step): 5x5 = 25 pixels
// become 32 columns, K = 3 * 3 * 3 = 27 becomes 32 rows. The gather reads
// min(k, K - 1) and min(p, P - 1) and selects zero past them; the weights
// are padded by one elementwise op; the fill of the init is a fill of the
// padded product, right before it; the result is the product's corner.
// With a growth budget of 10% (TIGHT) nothing is padded.

// CHECK-LABEL: func.func @padded_columns
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x32x32xf32>
// CHECK:         %[[COL:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x32x32xf32>)
// CHECK:           %[[K:.*]] = linalg.index 1 : index
// CHECK:           %[[P:.*]] = linalg.index 2 : index
// CHECK:           %[[LASTK:.*]] = arith.constant 26 : index
// CHECK:           %[[REALK:.*]] = arith.cmpi ule, %[[K]], %[[LASTK]] : index
// CHECK:           arith.minui %[[K]], %[[LASTK]] : index
// CHECK:           %[[LASTP:.*]] = arith.constant 24 : index
// CHECK:           %[[REALP:.*]] = arith.cmpi ule, %[[P]], %[[LASTP]] : index
// CHECK:           arith.minui %[[P]], %[[LASTP]] : index
// CHECK:           %[[READ:.*]] = tensor.extract %x[
// CHECK:           %[[REAL:.*]] = arith.andi %[[REALK]], %[[REALP]] : i1
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           arith.select %[[REAL]], %[[READ]], %[[ZERO]] : f32
// CHECK:         %[[W2:.*]] = tensor.collapse_shape %w {{\[}}[0], [1, 2, 3]] : tensor<4x3x3x3xf32> into tensor<4x27xf32>
// CHECK:         %[[W:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<4x32xf32>)
// CHECK:           tensor.extract %[[W2]][
// CHECK:           arith.select
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<2x4x32xf32>)
// CHECK-NEXT:    %[[MM:.*]] = linalg.generic {{.*}} ins(%[[W]], %[[COL]] : tensor<4x32xf32>, tensor<2x32x32xf32>) outs(%[[INIT]] : tensor<2x4x32xf32>)
// CHECK:         %[[CORNER:.*]] = tensor.extract_slice %[[MM]][0, 0, 0] [2, 4, 25] [1, 1, 1] : tensor<2x4x32xf32> to tensor<2x4x25xf32>
// CHECK:         tensor.expand_shape %[[CORNER]] {{\[}}[0], [1], [2, 3]] output_shape [2, 4, 5, 5]
// CHECK-NOT:     linalg.fill ins(%zero : f32) outs(%{{.*}} : tensor<2x4x5x5xf32>)

// With `gather-multiples=4,5,16` (filters, pixels, K: an implicit GEMM's
// own tiles, `lower-to-cuda{conv-block}`) a convolution that needs a gather
// pads to those instead: its 25 pixels stay 25 columns, K still pads to 32,
// the 4 filters stay 4, and the result is the product itself.
// GATHER-LABEL: func.func @padded_columns
// GATHER:         tensor.empty() : tensor<2x32x25xf32>
// GATHER-NOT:     tensor.extract_slice
// GATHER-LABEL: func.func @pointwise_padded
// GATHER:         tensor.empty() : tensor<1x16x16xf32>
// GATHER:         tensor.extract_slice %{{.*}}[0, 0, 0] [1, 2, 9]
// GATHER-OPTIONS: error: linalg-conv-to-im2col: gather-multiples takes 3 positive sizes (filters, pixels, reduction)

// TIGHT-LABEL: func.func @padded_columns
// TIGHT:         tensor.empty() : tensor<2x27x25xf32>
// TIGHT-NOT:     tensor.extract_slice
func.func @padded_columns(%x: tensor<2x3x7x7xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<2x4x5x5xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x7x7xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<2x4x5x5xf32>) -> tensor<2x4x5x5xf32>
  return %y : tensor<2x4x5x5xf32>
}

// -----

// A pointwise convolution whose pixels (3x3 = 9) are padded is gathered:
// its columns are a padded copy of the input, not the input reshaped. It
// pads to the plain multiples even with `gather-multiples` (GATHER above):
// only its padding makes it a gather. Its
// init is an argument, not a fill: the product starts from it, padded with
// zeros. K = 16 is a multiple already: no weight padding.

// CHECK-LABEL: func.func @pointwise_padded
// CHECK:         %[[COL:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<1x16x16xf32>)
// CHECK-NOT:       arith.cmpi ule, %{{.*}}, %c15
// CHECK:         %[[W:.*]] = tensor.collapse_shape %w
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %init {{\[}}[0], [1], [2, 3]] : tensor<1x2x3x3xf32> into tensor<1x2x9xf32>
// CHECK:         %[[PADDED:.*]] = tensor.pad %[[FLAT]] low[0, 0, 0] high[0, 0, 7]
// CHECK:         linalg.generic {{.*}} ins(%[[W]], %[[COL]] : tensor<2x16xf32>, tensor<1x16x16xf32>) outs(%[[PADDED]] : tensor<1x2x16xf32>)
// CHECK:         tensor.extract_slice
func.func @pointwise_padded(%x: tensor<1x16x3x3xf32>, %w: tensor<2x16x1x1xf32>, %init: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x3x3xf32>, tensor<2x16x1x1xf32>) outs(%init : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// -----

// The filters padded (12 -> 16, MobileNet's 192 -> 256 at the real tile):
// a pointwise convolution whose pixels and K need nothing keeps its input
// as the columns; the weights get zero rows past F, the product is
// 16 filters high and the result its 12-filter corner.

// CHECK-LABEL: func.func @padded_filters
// CHECK:         %[[COLS:.*]] = tensor.collapse_shape %x {{\[}}[0], [1], [2, 3]] : tensor<1x16x4x4xf32> into tensor<1x16x16xf32>
// CHECK:         %[[W:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<16x16xf32>)
// CHECK:           %[[LASTF:.*]] = arith.constant 11 : index
// CHECK:           arith.cmpi ule, %{{.*}}, %[[LASTF]] : index
// CHECK:         linalg.generic {{.*}} ins(%[[W]], %[[COLS]] : tensor<16x16xf32>, tensor<1x16x16xf32>) outs(%{{.*}} : tensor<1x16x16xf32>)
// CHECK:         tensor.extract_slice %{{.*}}[0, 0, 0] [1, 12, 16] [1, 1, 1] : tensor<1x16x16xf32> to tensor<1x12x16xf32>
func.func @padded_filters(%x: tensor<1x16x4x4xf32>, %w: tensor<12x16x1x1xf32>) -> tensor<1x12x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x12x4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x12x4x4xf32>) -> tensor<1x12x4x4xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x16x4x4xf32>, tensor<12x16x1x1xf32>) outs(%init : tensor<1x12x4x4xf32>) -> tensor<1x12x4x4xf32>
  return %y : tensor<1x12x4x4xf32>
}

// -----

// Extents no larger than their multiple are one full tile: not padded
// (2x2 = 4 pixels, K = 1 * 3 * 3 = 9 under 16). Bad options fail the pass.

// OPTIONS: error: linalg-conv-to-im2col: pixel-multiple, reduction-multiple, filter-multiple, half-reduction-multiple, max-growth-percent and column-tile-bytes must be >= 0, min-row-tiles >= 1

// CHECK-LABEL: func.func @one_tile
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     arith.minui
func.func @one_tile(%x: tensor<1x1x4x4xf32>, %w: tensor<2x1x3x3xf32>, %init: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x4x4xf32>, tensor<2x1x3x3xf32>) outs(%init : tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %y : tensor<1x2x2x2xf32>
}
