// RUN: irkit-opt %s --split-input-file -p linalg-conv-to-im2col --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-conv-to-im2col{reduction-multiple=4 half-reduction-multiple=8 max-growth-percent=300}' --check-semantics | filecheck %s --check-prefix=HALFK

// A strided, dilated convolution: the im2col gather reads the input at
// (oh * 2 + kh, ow * 2 + kw * 2) for k = (c, kh, kw) and p = (oh, ow); the
// weights and the init are collapsed to (F, K) and (N, F, P), and a batch
// of matmuls `A (F x K) @ B (K x P)`, the weights first, with the
// convolution's body (its arguments swapped) computes the result.

// CHECK-LABEL: func.func @strided
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<2x18x20xf32>
// CHECK:         %[[COL:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%[[EMPTY]] : tensor<2x18x20xf32>)
// CHECK:           arith.divui
// CHECK:           arith.muli
// CHECK:           tensor.extract %x[
// CHECK:         %[[W:.*]] = tensor.collapse_shape %w {{\[}}[0], [1, 2, 3]] : tensor<4x3x3x2xf32> into tensor<4x18xf32>
// CHECK:         %[[INIT:.*]] = tensor.collapse_shape %init {{\[}}[0], [1], [2, 3]] : tensor<2x4x4x5xf32> into tensor<2x4x20xf32>
// CHECK:         %[[MM:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[W]], %[[COL]] : tensor<4x18xf32>, tensor<2x18x20xf32>) outs(%[[INIT]] : tensor<2x4x20xf32>)
// CHECK:         tensor.expand_shape %[[MM]] {{\[}}[0], [1], [2, 3]] output_shape [2, 4, 4, 5]
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @strided(%x: tensor<2x3x9x11xf32>, %w: tensor<4x3x3x2xf32>, %init: tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x3x9x11xf32>, tensor<4x3x3x2xf32>) outs(%init : tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32>
  return %y : tensor<2x4x4x5xf32>
}

// -----

// Half-precision operands into an f32 accumulator: the gather moves f16
// elements, and the matmul keeps the convolution's body, which widens them.

// CHECK-LABEL: func.func @half
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x9x16xf16>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x9xf16>, tensor<1x9x16xf16>) outs(%{{.*}} : tensor<1x2x16xf32>)
// CHECK:           arith.extf
// CHECK:           arith.extf
// CHECK:           arith.mulf
// With `half-reduction-multiple=8`, the f16 convolution's K (9) is padded to
// 16, where an f32 one's (18) goes to `reduction-multiple`'s 20.
// HALFK-LABEL: func.func @strided
// HALFK:         tensor<2x20x20xf32>
// HALFK-LABEL: func.func @half
// HALFK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<1x16x16xf16>)
func.func @half(%x: tensor<1x1x6x6xf16>, %w: tensor<2x1x3x3xf16>, %init: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x1x6x6xf16>, tensor<2x1x3x3xf16>) outs(%init : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// A zero-padded input (torch-mlir's padding=1): the gather reads the
// unpadded source where the position lies in it (one unsigned comparison),
// at 0 where not, and selects the pad value outside it;
// the pad is erased. A pad whose value depends on the position, or that
// pads the channels, stays (the gather reads the padded tensor).

// CHECK-LABEL: func.func @padded
// CHECK-NOT:     tensor.pad
// CHECK:         %[[ROW:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK:         %[[INSIDE:.*]] = arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK:         arith.select %[[INSIDE]], %[[ROW]], %{{.*}} : index
// CHECK:         %[[READ:.*]] = tensor.extract %source[
// CHECK:         arith.select %{{.*}}, %[[READ]], %zero : f32
func.func @padded(%source: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>, %init: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %x = tensor.pad %source low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// CHECK-LABEL: func.func @padded_channels
// CHECK:         tensor.pad
// CHECK:         tensor.extract %x[
// CHECK-NOT:     arith.select
func.func @padded_channels(%source: tensor<1x1x6x6xf32>, %w: tensor<3x2x3x3xf32>, %init: tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %x = tensor.pad %source low[0, 1, 0, 0] high[0, 0, 0, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x6x6xf32> to tensor<1x2x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

// A 1x1 convolution of stride 1 needs no gather: its columns are the input
// reshaped. At stride 2 (a ResNet downsample) it is gathered.

// CHECK-LABEL: func.func @pointwise
// CHECK-NOT:     tensor.extract
// CHECK:         %[[COLS:.*]] = tensor.collapse_shape %x {{\[}}[0], [1], [2, 3]] : tensor<2x3x4x5xf32> into tensor<2x3x20xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[COLS]] : tensor<4x3xf32>, tensor<2x3x20xf32>)
func.func @pointwise(%x: tensor<2x3x4x5xf32>, %w: tensor<4x3x1x1xf32>, %init: tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x4x5xf32>, tensor<4x3x1x1xf32>) outs(%init : tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32>
  return %y : tensor<2x4x4x5xf32>
}

// CHECK-LABEL: func.func @pointwise_strided
// CHECK:         tensor.extract %x[
func.func @pointwise_strided(%x: tensor<1x3x5x5xf32>, %w: tensor<4x3x1x1xf32>, %init: tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x3x5x5xf32>, tensor<4x3x1x1xf32>) outs(%init : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %y : tensor<1x4x3x3xf32>
}

// -----

// Left alone: a convolution on buffers, and one in another layout (NHWC
// with an FHWC filter; `linalg-conv-to-im2col-nhwc.mlir` has NHWC/HWCF).

// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.conv_2d_nchw_fchw
// CHECK:         linalg.conv_2d_nhwc_fhwc
// CHECK-NOT:     tensor.extract
func.func @left_alone(%x: memref<1x1x4x4xf32>, %w: memref<1x1x3x3xf32>, %out: memref<1x1x2x2xf32>, %y: tensor<1x4x4x1xf32>, %v: tensor<1x3x3x1xf32>, %init: tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32> {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : memref<1x1x4x4xf32>, memref<1x1x3x3xf32>) outs(%out : memref<1x1x2x2xf32>)
  %r = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%y, %v : tensor<1x4x4x1xf32>, tensor<1x3x3x1xf32>) outs(%init : tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %r : tensor<1x2x2x1xf32>
}
