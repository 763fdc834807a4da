// RUN: irkit-opt %s -p linalg-generalize-named-ops --check-semantics | filecheck %s

// f16 operands with an f32 accumulator, as torch-mlir emits torch.mm,
// torch.bmm and convolutions in f16: the operands are converted to the
// accumulator's type in the body (MLIR's semantics), so these verify and
// compute in f32.

// CHECK-LABEL: func.func @matmul
// CHECK:         ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %[[C:.*]]: f32):
// CHECK-NEXT:      %[[X:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK-NEXT:      %[[Y:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[M]], %[[C]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
func.func @matmul(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>, %c: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x2xf16>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// CHECK-LABEL: func.func @batch_matmul
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.extf %{{.*}} : f16 to f32
func.func @batch_matmul(%a: tensor<2x4x8xf16>, %b: tensor<2x8x2xf16>, %c: tensor<2x4x2xf32>) -> tensor<2x4x2xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x4x8xf16>, tensor<2x8x2xf16>) outs(%c : tensor<2x4x2xf32>) -> tensor<2x4x2xf32>
  return %r : tensor<2x4x2xf32>
}

// CHECK-LABEL: func.func @conv
// CHECK:         ^bb0(%[[X:.*]]: f16, %[[W:.*]]: f16, %[[O:.*]]: f32):
// CHECK-NEXT:      %[[XX:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      %[[WW:.*]] = arith.extf %[[W]] : f16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[XX]], %[[WW]] : f32
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[M]], %[[O]] : f32
func.func @conv(%x: tensor<1x2x5x5xf16>, %w: tensor<3x2x3x3xf16>, %o: tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x5x5xf16>, tensor<3x2x3x3xf16>) outs(%o : tensor<1x3x3x3xf32>) -> tensor<1x3x3x3xf32>
  return %r : tensor<1x3x3x3xf32>
}

// CHECK-LABEL: func.func @depthwise
// CHECK:         arith.extf %{{.*}} : f16 to f32
func.func @depthwise(%x: tensor<1x2x5x5xf16>, %w: tensor<2x3x3xf16>, %o: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %r = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x5x5xf16>, tensor<2x3x3xf16>) outs(%o : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %r : tensor<1x2x3x3xf32>
}

// CHECK-LABEL: func.func @conv_nhwc_hwcf
// CHECK:         ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK-NEXT:      arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:      arith.extf %{{.*}} : f16 to f32
func.func @conv_nhwc_hwcf(%x: tensor<1x5x5x2xf16>, %w: tensor<3x3x2x4xf16>, %o: tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x5x5x2xf16>, tensor<3x3x2x4xf16>) outs(%o : tensor<1x3x3x4xf32>) -> tensor<1x3x3x4xf32>
  return %r : tensor<1x3x3x4xf32>
}

// CHECK-LABEL: func.func @conv_grouped
// CHECK:         ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK-NEXT:      arith.extf %{{.*}} : f16 to f32
func.func @conv_grouped(%x: tensor<1x2x2x5x5xf16>, %w: tensor<3x2x2x3x3xf16>, %o: tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32> {
  %r = linalg.conv_2d_ngchw_fgchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x2x5x5xf16>, tensor<3x2x2x3x3xf16>) outs(%o : tensor<1x2x3x3x3xf32>) -> tensor<1x2x3x3x3xf32>
  return %r : tensor<1x2x3x3x3xf32>
}
