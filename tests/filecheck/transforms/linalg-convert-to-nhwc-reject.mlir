// RUN: irkit-opt %s --split-input-file -p linalg-convert-to-nhwc | filecheck %s

// What linalg-convert-to-nhwc leaves alone.

// A convolution of dynamic shape: transposes would need dynamic sizes.

// CHECK-LABEL: func.func @dynamic_batch
// CHECK-NEXT:    linalg.conv_2d_nchw_fchw
// CHECK-NOT:     linalg.transpose
func.func @dynamic_batch(%x: tensor<?x3x5x5xf32>, %w: tensor<4x3x3x3xf32>, %init: tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32> {
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<?x3x5x5xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<?x4x3x3xf32>) -> tensor<?x4x3x3xf32>
  return %y : tensor<?x4x3x3xf32>
}

// -----

// A grouped convolution (NGCHW) has no NHWC form here: left as it is.

// CHECK-LABEL: func.func @grouped
// CHECK-NEXT:    linalg.conv_2d_ngchw_fgchw
// CHECK-NOT:     linalg.transpose
func.func @grouped(%x: tensor<1x2x2x5x5xf32>, %w: tensor<2x2x2x3x3xf32>, %init: tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32> {
  %y = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x5x5xf32>, tensor<2x2x2x3x3xf32>) outs(%init : tensor<1x2x2x3x3xf32>) -> tensor<1x2x2x3x3xf32>
  return %y : tensor<1x2x2x3x3xf32>
}

// -----

// No NCHW window op: a transpose to NCHW feeding an elementwise generic is
// not the pass's to move.

// CHECK-LABEL: func.func @no_convolution
// CHECK:         linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// CHECK:         linalg.generic {{.*}} ins(%t : tensor<1x2x3x4xf32>)
func.func @no_convolution(%x: tensor<1x3x4x2xf32>) -> tensor<1x2x3x4xf32> {
  %e = tensor.empty() : tensor<1x2x3x4xf32>
  %t = linalg.transpose ins(%x : tensor<1x3x4x2xf32>) outs(%e : tensor<1x2x3x4xf32>) permutation = [0, 3, 1, 2]
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : tensor<1x2x3x4xf32>) outs(%e : tensor<1x2x3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x4xf32>
  return %g : tensor<1x2x3x4xf32>
}
