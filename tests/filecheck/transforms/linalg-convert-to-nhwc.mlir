// RUN: irkit-opt %s --split-input-file -p linalg-convert-to-nhwc --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p linalg-convert-to-nhwc | filecheck %s --check-prefix=COUNT

// One convolution, stride 2 and dilation 2: the input and the filter are
// arguments, so both are transposed in; the zero-filled init is rebuilt in
// NHWC; the result is transposed back to NCHW for the return.

// CHECK-LABEL: func.func @conv
// CHECK-SAME:      (%[[X:.*]]: tensor<2x3x9x9xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x9x9xf32>) outs(%{{.*}} : tensor<2x9x9x3xf32>) permutation = [0, 2, 3, 1]
// CHECK:         %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<4x3x3x3xf32>) outs(%{{.*}} : tensor<3x3x3x4xf32>) permutation = [2, 3, 1, 0]
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x3x3x4xf32>)
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf {strides = dense<2> : vector<2xi64>, dilations = dense<2> : vector<2xi64>} ins(%[[XT]], %[[WT]] : tensor<2x9x9x3xf32>, tensor<3x3x3x4xf32>) outs(%[[INIT]] : tensor<2x3x3x4xf32>)
// CHECK:         %[[Y:.*]] = linalg.transpose ins(%[[C]] : tensor<2x3x3x4xf32>) outs(%{{.*}} : tensor<2x4x3x3xf32>) permutation = [0, 3, 1, 2]
// CHECK-NEXT:    func.return %[[Y]]
// CHECK-NOT:     linalg.conv_2d_nchw_fchw
func.func @conv(%x: tensor<2x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x3x3xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%init : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
  return %y : tensor<2x4x3x3xf32>
}

// -----

// A ResNet basic block as torch-mlir writes it, then a max pool: padding,
// convolution, batch norm (a per-channel operand through expand_shape,
// read (d1, 0, 0)), ReLU, padding, convolution, the residual add of the
// input, a 2x2 max pool. Only edge transposes are left: the input once
// (shared by the padding and the residual), each filter, and the pool's
// result; everything between runs over NHWC, the scale read (d3, 0, 0).

// COUNT-LABEL: func.func @basic_block
// COUNT-COUNT-4: linalg.transpose
// COUNT-NOT:     linalg.transpose
// COUNT:         func.return

// CHECK-LABEL: func.func @basic_block
// CHECK-SAME:      (%[[X:.*]]: tensor<1x4x6x6xf32>, %[[W1:.*]]: tensor<4x4x3x3xf32>, %[[S:.*]]: tensor<4xf32>, %[[W2:.*]]: tensor<4x4x3x3xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<1x4x6x6xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK:         tensor.pad %[[XT]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         linalg.transpose ins(%[[W1]] : {{.*}} permutation = [2, 3, 1, 0]
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, 0, 0)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]{{.*}} tensor<1x6x6x4xf32>
// CHECK:         tensor.pad %{{.*}} low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         linalg.transpose ins(%[[W2]] : {{.*}} permutation = [2, 3, 1, 0]
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[XT]] : tensor<1x6x6x4xf32>, tensor<1x6x6x4xf32>)
// CHECK:         %[[P:.*]] = linalg.pooling_nhwc_max {{.*}} -> tensor<1x3x3x4xf32>
// CHECK:         %[[Y:.*]] = linalg.transpose ins(%[[P]] : tensor<1x3x3x4xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK-NEXT:    func.return %[[Y]]
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#channel = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
func.func @basic_block(%x: tensor<1x4x6x6xf32>, %w1: tensor<4x4x3x3xf32>, %s: tensor<4xf32>, %w2: tensor<4x4x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %p1 = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %e = tensor.empty() : tensor<1x4x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p1, %w1 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %se = tensor.expand_shape %s [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
  %bn = linalg.generic {indexing_maps = [#id, #channel, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c1, %se : tensor<1x4x6x6xf32>, tensor<4x1x1xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %sc: f32, %out: f32):
    %m = arith.mulf %in, %sc : f32
    linalg.yield %m : f32
  } -> tensor<1x4x6x6xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%bn : tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %gt = arith.cmpf ugt, %in, %zero : f32
    %r = arith.select %gt, %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x6x6xf32>
  %p2 = tensor.pad %relu low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x6x6xf32> to tensor<1x4x8x8xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p2, %w2 : tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) outs(%f : tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c2, %x : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) outs(%e : tensor<1x4x6x6xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %r = arith.addf %in, %res : f32
    linalg.yield %r : f32
  } -> tensor<1x4x6x6xf32>
  %pe = tensor.empty() : tensor<1x4x3x3xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %pool = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%add, %win : tensor<1x4x6x6xf32>, tensor<2x2xf32>) outs(%pf : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %pool : tensor<1x4x3x3xf32>
}

// -----

// A depthwise convolution and a sum pool: the filter CHW -> HWC; the
// pool's window operand has no layout and is not transposed; an init that
// is an argument is transposed in.

// CHECK-LABEL: func.func @depthwise_then_sum_pool
// CHECK:         linalg.transpose ins(%w : tensor<3x3x3xf32>) {{.*}} permutation = [1, 2, 0]
// CHECK:         linalg.depthwise_conv_2d_nhwc_hwc {{.*}} -> tensor<1x4x4x3xf32>
// CHECK:         linalg.transpose ins(%init : tensor<1x3x2x2xf32>) {{.*}} permutation = [0, 2, 3, 1]
// CHECK:         linalg.pooling_nhwc_sum {{.*}} ins(%{{.*}}, %win : tensor<1x4x4x3xf32>, tensor<2x2xf32>)
// CHECK-COUNT-1: permutation = [0, 3, 1, 2]
// CHECK-NEXT:    func.return
func.func @depthwise_then_sum_pool(%x: tensor<1x3x6x6xf32>, %w: tensor<3x3x3xf32>, %init: tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x3x6x6xf32>, tensor<3x3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %win = tensor.empty() : tensor<2x2xf32>
  %p = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%d, %win : tensor<1x3x4x4xf32>, tensor<2x2xf32>) outs(%init : tensor<1x3x2x2xf32>) -> tensor<1x3x2x2xf32>
  return %p : tensor<1x3x2x2xf32>
}

// -----

// A generic that reads linalg.index: the index follows its loop (the
// channel, loop 1 over NCHW, is loop 3 over NHWC; the row 1 -> 2).

// CHECK-LABEL: func.func @index_follows_its_loop
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.generic
// CHECK:           linalg.index 3 : index
// CHECK:           linalg.index 1 : index
// CHECK:         } -> tensor<1x3x3x2xf32>
func.func @index_follows_its_loop(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x3x3xf32>) outs(%e : tensor<1x2x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %ch = linalg.index 1 : index
    %row = linalg.index 2 : index
    %ten = arith.constant 10 : index
    %chs = arith.muli %ch, %ten : index
    %sum = arith.addi %chs, %row : index
    %i = arith.index_cast %sum : index to i64
    %v = arith.sitofp %i : i64 to f32
    %r = arith.addf %in, %v : f32
    linalg.yield %r : f32
  } -> tensor<1x2x3x3xf32>
  return %g : tensor<1x2x3x3xf32>
}

// -----

// A reduction after the convolution (a global sum over the rows and
// columns) and a generic writing through a non-identity map: the transpose
// to NCHW stops before each (an edge of the NHWC region).

// CHECK-LABEL: func.func @stops_at_reductions_and_transposing_generics
// CHECK:         %[[C:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[C]] : {{.*}} permutation = [0, 3, 1, 2]
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%[[T]] :
// CHECK:         linalg.generic {{.*}} ins(%[[T]] :
func.func @stops_at_reductions_and_transposing_generics(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>) -> (tensor<1x2xf32>, tensor<1x3x3x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %se = tensor.empty() : tensor<1x2xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<1x2xf32>) -> tensor<1x2xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%c : tensor<1x2x3x3xf32>) outs(%sf : tensor<1x2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %r = arith.addf %in, %acc : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  %te = tensor.empty() : tensor<1x3x3x2xf32>
  %moved = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c : tensor<1x2x3x3xf32>) outs(%te : tensor<1x3x3x2xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x3x3x2xf32>
  return %sum, %moved : tensor<1x2xf32>, tensor<1x3x3x2xf32>
}

// -----

// A pad whose value depends on the position (its region reads the indices)
// is not moved through: the transposes stay on both sides of it.

// CHECK-LABEL: func.func @position_dependent_pad
// CHECK:         linalg.conv_2d_nhwc_hwcf
// CHECK:         linalg.transpose {{.*}} permutation = [0, 3, 1, 2]
// CHECK:         tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:         linalg.transpose {{.*}} permutation = [0, 2, 3, 1]
// CHECK:         linalg.conv_2d_nhwc_hwcf
func.func @position_dependent_pad(%x: tensor<1x2x3x3xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x5x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x3x3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%f : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %p = tensor.pad %c low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    %n = arith.index_cast %j : index to i64
    %v = arith.sitofp %n : i64 to f32
    tensor.yield %v : f32
  } : tensor<1x2x3x3xf32> to tensor<1x2x5x5xf32>
  %e2 = tensor.empty() : tensor<1x2x5x5xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  %c2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x5x5xf32>, tensor<2x2x1x1xf32>) outs(%f2 : tensor<1x2x5x5xf32>) -> tensor<1x2x5x5xf32>
  return %c2 : tensor<1x2x5x5xf32>
}
