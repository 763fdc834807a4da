// RUN: irkit-opt %s --split-input-file -p linalg-conv-to-im2col --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{pixel-multiple=16 reduction-multiple=8 filter-multiple=4 max-growth-percent=300}' --check-semantics | filecheck %s --check-prefix=PADDED
// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{column-tile-bytes=2048 min-row-tiles=2 vector-bits=64 vector-registers=8}' --check-semantics | filecheck %s --check-prefix=WINDOW

// `linalg.conv_2d_nhwc_hwcf` (what `linalg-convert-to-nhwc` makes): the
// gather `col[m, k]` over every image's pixels m = (n, oh, ow) and k = (kh,
// kw, c), the channels innermost; the weights HWCF collapsed to K x F; one
// matmul `(N * P) x K @ K x F`, the columns first, into the init collapsed to
// `N * P x F`, which is the NHWC output reshaped (no transpose).

// CHECK-LABEL: func.func @strided
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<40x18xf32>
// CHECK:         %[[COL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%[[EMPTY]] : tensor<40x18xf32>)
// CHECK:           %[[M:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[K:.*]] = linalg.index 1 : index
// k = (kh, kw, c) of C = 3 channels and KW = 2 taps: c = k % 3, kw = k / 3 % 2, kh = k / 6
// CHECK-NEXT:      %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[CH:.*]] = arith.remui %[[K]], %[[C3]] : index
// CHECK-NEXT:      %[[C3B:.*]] = arith.constant 3 : index
// CHECK-NEXT:      %[[KC:.*]] = arith.divui %[[K]], %[[C3B]] : index
// CHECK-NEXT:      %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[KW:.*]] = arith.remui %[[KC]], %[[C2]] : index
// CHECK-NEXT:      %[[C6:.*]] = arith.constant 6 : index
// CHECK-NEXT:      %[[KH:.*]] = arith.divui %[[K]], %[[C6]] : index
// m = (n, oh, ow) of 4 x 5 pixels an image: n = m / 20, oh = m / 5 % 4, ow = m % 5
// CHECK-NEXT:      %[[C20:.*]] = arith.constant 20 : index
// CHECK-NEXT:      %[[N:.*]] = arith.divui %[[M]], %[[C20]] : index
// CHECK-NEXT:      %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[MW:.*]] = arith.divui %[[M]], %[[C5]] : index
// CHECK-NEXT:      %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[OH:.*]] = arith.remui %[[MW]], %[[C4]] : index
// CHECK-NEXT:      %[[C5B:.*]] = arith.constant 5 : index
// CHECK-NEXT:      %[[OW:.*]] = arith.remui %[[M]], %[[C5B]] : index
// row = oh * 2 + kh, column = ow * 2 + kw * 2 (strides 2, dilations 1, 2)
// CHECK-NEXT:      %[[SH:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[OH2:.*]] = arith.muli %[[OH]], %[[SH]] : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %[[OH2]], %[[KH]] : index
// CHECK-NEXT:      %[[SW:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[OW2:.*]] = arith.muli %[[OW]], %[[SW]] : index
// CHECK-NEXT:      %[[DW:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[KW2:.*]] = arith.muli %[[KW]], %[[DW]] : index
// CHECK-NEXT:      %[[COLUMN:.*]] = arith.addi %[[OW2]], %[[KW2]] : index
// CHECK-NEXT:      %[[READ:.*]] = tensor.extract %x[%[[N]], %[[ROW]], %[[COLUMN]], %[[CH]]] : tensor<2x9x11x3xf32>
// CHECK-NEXT:      linalg.yield %[[READ]] : f32
// CHECK:         %[[W:.*]] = tensor.collapse_shape %w {{\[}}[0, 1, 2], [3]] : tensor<3x2x3x4xf32> into tensor<18x4xf32>
// CHECK:         %[[INIT:.*]] = tensor.collapse_shape %init {{\[}}[0, 1, 2], [3]] : tensor<2x4x5x4xf32> into tensor<40x4xf32>
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[COL]], %[[W]] : tensor<40x18xf32>, tensor<18x4xf32>) outs(%[[INIT]] : tensor<40x4xf32>)
// CHECK-NEXT:    ^bb0(%[[XA:.*]]: f32, %[[WA:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[PRODUCT:.*]] = arith.mulf %[[XA]], %[[WA]] : f32
// CHECK-NEXT:      arith.addf %[[PRODUCT]], %[[ACC]] : f32
// CHECK:         %[[Y:.*]] = tensor.expand_shape %[[MM]] {{\[}}[0, 1, 2], [3]] output_shape [2, 4, 5, 4] : tensor<40x4xf32> into tensor<2x4x5x4xf32>
// CHECK-NEXT:    func.return %[[Y]]
// CHECK-NOT:     linalg.conv_2d_nhwc_hwcf

// Padded: the product's 40 rows (N * P) to 48, K (18) to 24, F (4) stays (one
// tile): the gather selects zeros past both, the weights are padded by one
// elementwise op, the argument init by a pad, the result is the corner.
// PADDED-LABEL: func.func @strided
// PADDED:         linalg.generic {{.*}} outs(%{{.*}} : tensor<48x24xf32>)
// PADDED:           %[[LASTM:.*]] = arith.constant 39 : index
// PADDED-NEXT:      %[[REALM:.*]] = arith.cmpi ule, %{{.*}}, %[[LASTM]] : index
// PADDED:           %[[LASTK:.*]] = arith.constant 17 : index
// PADDED-NEXT:      %[[REALK:.*]] = arith.cmpi ule, %{{.*}}, %[[LASTK]] : index
// PADDED:           %[[READ:.*]] = tensor.extract %x[
// PADDED-NEXT:      %[[REAL:.*]] = arith.andi %[[REALM]], %[[REALK]] : i1
// PADDED-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// PADDED-NEXT:      arith.select %[[REAL]], %[[READ]], %[[ZERO]] : f32
// PADDED:         linalg.generic {{.*}} outs(%{{.*}} : tensor<24x4xf32>)
// PADDED:           tensor.extract %{{.*}} : tensor<18x4xf32>
// PADDED:         tensor.pad %{{.*}} low[0, 0] high[8, 0]
// PADDED:         %[[MM:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<48x24xf32>, tensor<24x4xf32>) outs(%{{.*}} : tensor<48x4xf32>)
// PADDED:         %[[CORNER:.*]] = tensor.extract_slice %[[MM]][0, 0] [40, 4] [1, 1] : tensor<48x4xf32> to tensor<40x4xf32>
// PADDED:         tensor.expand_shape %[[CORNER]] {{\[}}[0, 1, 2], [3]]

// The CPU's form (`column-tile-bytes`): the gather over the window's loops
// (n, oh, ow, kh, kw, c), no division, collapsed to the columns.
// WINDOW-LABEL: func.func @strided
// WINDOW:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x4x5x3x2x3xf32>
// WINDOW:         %[[GATHER:.*]] = linalg.generic {{.*}} outs(%[[EMPTY]] : tensor<2x4x5x3x2x3xf32>)
// WINDOW-NOT:       arith.divui
// WINDOW-NOT:       arith.remui
// WINDOW:           tensor.extract %x[
// WINDOW:         %[[COL:.*]] = tensor.collapse_shape %[[GATHER]] {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<2x4x5x3x2x3xf32> into tensor<40x18xf32>
// WINDOW:         linalg.generic {{.*}} ins(%[[COL]], %{{.*}} : tensor<40x18xf32>, tensor<18x4xf32>)
func.func @strided(%x: tensor<2x9x11x3xf32>, %w: tensor<3x2x3x4xf32>, %init: tensor<2x4x5x4xf32>) -> tensor<2x4x5x4xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x9x11x3xf32>, tensor<3x2x3x4xf32>) outs(%init : tensor<2x4x5x4xf32>) -> tensor<2x4x5x4xf32>
  return %y : tensor<2x4x5x4xf32>
}

// -----

// A zero padding of the rows and columns (dimensions 1 and 2 in NHWC) is read
// through its source with a predicate, and erased; the fill is rebuilt in
// the product's shape.

// CHECK-LABEL: func.func @padded
// CHECK-NOT:     tensor.pad
// CHECK:         %[[ROW:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:         %[[INSIDE:.*]] = arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK:         %[[READ:.*]] = tensor.extract %source[
// CHECK:         arith.select %{{.*}}, %[[READ]], %zero : f32
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<16x3xf32>
// CHECK:         %[[FILL:.*]] = linalg.fill ins(%zero : f32) outs(%[[E]] : tensor<16x3xf32>)
// CHECK:         linalg.generic {{.*}} outs(%[[FILL]] : tensor<16x3xf32>)
// CHECK-NOT:     tensor.pad
// WINDOW-LABEL: func.func @padded
// WINDOW-NOT:     tensor.pad
// WINDOW:         tensor.extract %source[
// WINDOW:         tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3, 4, 5]] : tensor<1x4x4x3x3x2xf32> into tensor<16x18xf32>
func.func @padded(%source: tensor<1x4x4x2xf32>, %w: tensor<3x3x2x3xf32>) -> tensor<1x4x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %x = tensor.pad %source low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x4x2xf32> to tensor<1x6x6x2xf32>
  %e = tensor.empty() : tensor<1x4x4x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x3xf32>) outs(%init : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// A pad of the channels (dimension 3) is not folded: the gather reads the
// padded tensor.
// CHECK-LABEL: func.func @padded_channels
// CHECK:         %[[X:.*]] = tensor.pad
// CHECK:         tensor.extract %[[X]][
// CHECK-NOT:     arith.select
func.func @padded_channels(%source: tensor<1x6x6x1xf32>, %w: tensor<3x3x2x3xf32>, %init: tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32> {
  %zero = arith.constant 0.0 : f32
  %x = tensor.pad %source low[0, 0, 0, 1] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x6x6x1xf32> to tensor<1x6x6x2xf32>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x3xf32>) outs(%init : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// -----

// A 1x1 convolution of stride 1 needs no gather: its columns are the input
// reshaped, `N * H * W x C`. At stride 2 it is gathered. Padded (rows to 48;
// K = 3 is one step and stays), it is gathered too (its margins are zeros).

// CHECK-LABEL: func.func @pointwise
// CHECK-NOT:     tensor.extract
// CHECK:         %[[COLS:.*]] = tensor.collapse_shape %x {{\[}}[0, 1, 2], [3]] : tensor<2x4x5x3xf32> into tensor<40x3xf32>
// CHECK:         %[[W:.*]] = tensor.collapse_shape %w {{\[}}[0, 1, 2], [3]] : tensor<1x1x3x4xf32> into tensor<3x4xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[COLS]], %[[W]] : tensor<40x3xf32>, tensor<3x4xf32>)
// PADDED-LABEL: func.func @pointwise
// PADDED:         linalg.generic {{.*}} outs(%{{.*}} : tensor<48x3xf32>)
// PADDED:           tensor.extract %x[
// WINDOW-LABEL: func.func @pointwise
// WINDOW-NOT:     tensor.extract
// WINDOW:         tensor.collapse_shape %x {{\[}}[0, 1, 2], [3]] : tensor<2x4x5x3xf32> into tensor<40x3xf32>
func.func @pointwise(%x: tensor<2x4x5x3xf32>, %w: tensor<1x1x3x4xf32>, %init: tensor<2x4x5x4xf32>) -> tensor<2x4x5x4xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x4x5x3xf32>, tensor<1x1x3x4xf32>) outs(%init : tensor<2x4x5x4xf32>) -> tensor<2x4x5x4xf32>
  return %y : tensor<2x4x5x4xf32>
}

// CHECK-LABEL: func.func @pointwise_strided
// CHECK:         tensor.extract %x[
// CHECK:         tensor<9x3xf32>
func.func @pointwise_strided(%x: tensor<1x5x5x3xf32>, %w: tensor<1x1x3x4xf32>, %init: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x5x5x3xf32>, tensor<1x1x3x4xf32>) outs(%init : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %y : tensor<1x3x3x4xf32>
}

// -----

// Half-precision operands into f32: the gather moves f16, the product keeps
// the convolution's body, which widens them.

// CHECK-LABEL: func.func @half
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<16x9xf16>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<16x9xf16>, tensor<9x2xf16>) outs(%{{.*}} : tensor<16x2xf32>)
// CHECK:           arith.extf
// CHECK:           arith.extf
// CHECK:           arith.mulf
func.func @half(%x: tensor<1x6x6x1xf16>, %w: tensor<3x3x1x2xf16>, %init: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x6x6x1xf16>, tensor<3x3x1x2xf16>) outs(%init : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %y : tensor<1x4x4x2xf32>
}
