// RUN: irkit-opt %s -p linalg-conv-to-im2col | filecheck %s
// RUN: irkit-opt %s -p 'linalg-conv-to-im2col{column-tile-bytes=2048 pixel-multiple=16}' | filecheck %s

// Left alone: NHWC convolutions on buffers, of dynamic shape, with the filter
// FHWC, depthwise and grouped ones.

// CHECK-LABEL: func.func @left_alone
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : memref
// CHECK:         linalg.conv_2d_nhwc_hwcf {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x6x6x2xf32>
// CHECK:         linalg.conv_2d_nhwc_fhwc
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc
// CHECK:         linalg.conv_2d_nhwgc_gfhwc
// CHECK-NOT:     linalg.generic
func.func @left_alone(%xm: memref<1x6x6x2xf32>, %wm: memref<3x3x2x3xf32>, %om: memref<1x4x4x3xf32>, %xd: tensor<?x6x6x2xf32>, %w: tensor<3x3x2x3xf32>, %od: tensor<?x4x4x3xf32>, %x: tensor<1x6x6x2xf32>, %wf: tensor<3x3x3x2xf32>, %o: tensor<1x4x4x3xf32>, %wd: tensor<3x3x2xf32>, %odw: tensor<1x4x4x2xf32>, %xg: tensor<1x6x6x2x2xf32>, %wg: tensor<2x3x3x3x2xf32>, %og: tensor<1x4x4x2x3xf32>) -> (tensor<?x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2x3xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xm, %wm : memref<1x6x6x2xf32>, memref<3x3x2x3xf32>) outs(%om : memref<1x4x4x3xf32>)
  %dynamic = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xd, %w : tensor<?x6x6x2xf32>, tensor<3x3x2x3xf32>) outs(%od : tensor<?x4x4x3xf32>) -> tensor<?x4x4x3xf32>
  %fhwc = linalg.conv_2d_nhwc_fhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wf : tensor<1x6x6x2xf32>, tensor<3x3x3x2xf32>) outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>
  %depthwise = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %wd : tensor<1x6x6x2xf32>, tensor<3x3x2xf32>) outs(%odw : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %grouped = linalg.conv_2d_nhwgc_gfhwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%xg, %wg : tensor<1x6x6x2x2xf32>, tensor<2x3x3x3x2xf32>) outs(%og : tensor<1x4x4x2x3xf32>) -> tensor<1x4x4x2x3xf32>
  return %dynamic, %fhwc, %depthwise, %grouped : tensor<?x4x4x3xf32>, tensor<1x4x4x3xf32>, tensor<1x4x4x2xf32>, tensor<1x4x4x2x3xf32>
}
