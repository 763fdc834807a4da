// RUN: irkit-opt %s --split-input-file -p convert-nn-to-linalg | filecheck %s
// RUN: irkit-opt %s --split-input-file -p convert-nn-to-linalg | irkit-opt --split-input-file | filecheck %s

// Broadcasting lives in the maps: a dropped leading dim and a size-1 dim read at 0.

// CHECK-LABEL: func.func @add_broadcast
func.func @add_broadcast(%a: tensor<4x8xf32>, %b: tensor<1x8xf32>, %c: tensor<8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  // CHECK:      %[[EMPTY:.*]] = tensor.empty() : tensor<4x8xf32>
  // CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
  // CHECK-SAME:     ins(%a, %b : tensor<4x8xf32>, tensor<1x8xf32>) outs(%[[EMPTY]] : tensor<4x8xf32>)
  // CHECK:        arith.addf
  %r = nn.add %a, %b : tensor<4x8xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
  // CHECK:        arith.subf
  %s = nn.sub %c, %a : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  // CHECK-NOT:  nn.
  return %r, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @integer_ops
func.func @integer_ops(%a: tensor<4xi32>, %b: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>) {
  // CHECK: arith.divsi
  %q = nn.div %a, %b : tensor<4xi32>
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK: arith.subi %[[ZERO]], %{{.*}} : i32
  %n = nn.neg %a : tensor<4xi32>
  // CHECK: %[[TRUE:.*]] = arith.constant true
  // CHECK: arith.xori %{{.*}}, %[[TRUE]] : i1
  %not = nn.not %p : tensor<4xi1>
  // i1 compares as 0 < 1: unsigned.
  // CHECK: arith.cmpi ult
  %lt = nn.cmp lt, %p, %p : tensor<4xi1> -> tensor<4xi1>
  return %q, %n, %not, %lt : tensor<4xi32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @unary_composites
func.func @unary_composites(%a: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  // CHECK:      linalg.generic
  // CHECK:        arith.negf
  // CHECK-NEXT:   math.exp
  // CHECK-NEXT:   arith.addf
  // CHECK-NEXT:   arith.divf
  %s = nn.sigmoid %a : tensor<4xf32>
  // CHECK:      linalg.generic
  // CHECK:        math.erf
  %g = nn.gelu %a : tensor<4xf32>
  // CHECK:      linalg.generic
  // CHECK:        math.tanh
  %t = nn.gelu %a approximate tanh : tensor<4xf32>
  return %s, %g, %t : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @casts
func.func @casts(%a: tensor<4xf32>, %m: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xi1>, tensor<4xf16>) {
  // CHECK: arith.fptosi %{{.*}} : f32 to i32
  %i = nn.cast %a : tensor<4xf32> -> tensor<4xi32>
  // NaN != 0 is true: unordered.
  // CHECK: arith.cmpf une
  %b = nn.cast %a : tensor<4xf32> -> tensor<4xi1>
  // CHECK: arith.uitofp %{{.*}} : i1 to f16
  %h = nn.cast %m : tensor<4xi1> -> tensor<4xf16>
  return %i, %b, %h : tensor<4xi32>, tensor<4xi1>, tensor<4xf16>
}

// -----

// f16 and bf16 have one width: MLIR's extf and truncf change it, so the cast
// goes through f32 (exact from either) and rounds once.
// CHECK-LABEL: func.func @half_casts
func.func @half_casts(%h: tensor<4xf16>, %b: tensor<4xbf16>) -> (tensor<4xbf16>, tensor<4xf16>, tensor<4xf32>, tensor<4xi32>) {
  // CHECK:      %[[W:.*]] = arith.extf %{{.*}} : f16 to f32
  // CHECK-NEXT: arith.truncf %[[W]] : f32 to bf16
  %hb = nn.cast %h : tensor<4xf16> -> tensor<4xbf16>
  // CHECK:      %[[V:.*]] = arith.extf %{{.*}} : bf16 to f32
  // CHECK-NEXT: arith.truncf %[[V]] : f32 to f16
  %bh = nn.cast %b : tensor<4xbf16> -> tensor<4xf16>
  // CHECK:      arith.extf %{{.*}} : bf16 to f32
  %bf = nn.cast %b : tensor<4xbf16> -> tensor<4xf32>
  // CHECK:      arith.fptosi %{{.*}} : bf16 to i32
  %bi = nn.cast %b : tensor<4xbf16> -> tensor<4xi32>
  return %hb, %bh, %bf, %bi : tensor<4xbf16>, tensor<4xf16>, tensor<4xf32>, tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @select
func.func @select(%c: tensor<4x1xi1>, %a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // CHECK: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
  // CHECK:   arith.select
  %r = nn.select %c, %a, %b : tensor<4x1xi1>, tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Reductions: fill with the identity, reduce; keepdims reads index 0.

// CHECK-LABEL: func.func @reductions
func.func @reductions(%a: tensor<4x8xf32>, %i: tensor<2x3x4xi64>) -> (tensor<4x1xf32>, tensor<3xi64>, tensor<f32>) {
  // CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK:      %[[INIT:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%{{.*}} : tensor<4x1xf32>)
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]}
  // CHECK-SAME:     outs(%[[INIT]] : tensor<4x1xf32>)
  // CHECK:        arith.addf
  %s = nn.reduce_sum %a axes [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  // CHECK:      %[[LOWEST:.*]] = arith.constant -9223372036854775808 : i64
  // CHECK:      linalg.fill ins(%[[LOWEST]] : i64)
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]}
  // CHECK:        arith.maxsi
  %m = nn.reduce_max %i axes [0, -1] : tensor<2x3x4xi64> -> tensor<3xi64>
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
  // CHECK:      %[[COUNT:.*]] = arith.constant 3.200000e+01 : f32
  // CHECK:      linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
  // CHECK:        arith.divf %{{.*}}, %[[COUNT]] : f32
  %u = nn.reduce_mean %a axes [0, 1] : tensor<4x8xf32> -> tensor<f32>
  return %s, %m, %u : tensor<4x1xf32>, tensor<3xi64>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @softmax
func.func @softmax(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // max, then exp(x - max), then sum, then divide.
  // CHECK:      %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
  // CHECK:      %[[MAX_INIT:.*]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%{{.*}} : tensor<4xf32>)
  // CHECK:      %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x8xf32>) outs(%[[MAX_INIT]] : tensor<4xf32>)
  // CHECK:        arith.maximumf
  // CHECK:      %[[EXP:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %[[MAX]] : tensor<4x8xf32>, tensor<4xf32>)
  // CHECK:        arith.subf
  // CHECK-NEXT:   math.exp
  // CHECK:      %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<4x8xf32>)
  // CHECK:        arith.addf
  // CHECK:      linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<4x8xf32>, tensor<4xf32>)
  // CHECK:        arith.divf
  %s = nn.softmax %a axis 1 : tensor<4x8xf32>
  return %s : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @log_softmax
func.func @log_softmax(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // CHECK:      %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
  // CHECK:        arith.maximumf
  // CHECK:      %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%a, %[[MAX]] : tensor<4x8xf32>, tensor<8xf32>)
  // CHECK:        math.exp
  // CHECK:        arith.addf
  // CHECK:      linalg.generic {{.*}} ins(%a, %[[MAX]], %[[SUM]] : tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>)
  // CHECK:        math.log
  %l = nn.log_softmax %a axis 0 : tensor<4x8xf32>
  return %l : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm
func.func @layer_norm(%x: tensor<2x4x8xf32>, %g: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  // Two passes: the mean, then the variance around it.
  // CHECK:      %[[EPS:.*]] = arith.constant 1.000000e-05 : f32
  // CHECK:      %[[TOTAL:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%x : tensor<2x4x8xf32>)
  // CHECK:      %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[TOTAL]] : tensor<2xf32>)
  // CHECK:      %[[SQUARES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "reduction"]} ins(%x, %[[MEAN]] : tensor<2x4x8xf32>, tensor<2xf32>)
  // CHECK:      %[[STD:.*]] = linalg.generic {{.*}} ins(%[[SQUARES]] : tensor<2xf32>)
  // CHECK:        arith.addf %{{.*}}, %[[EPS]] : f32
  // CHECK-NEXT:   math.sqrt
  // Scale and bias are read through the trailing loops.
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
  // CHECK-SAME:     ins(%x, %[[MEAN]], %[[STD]], %g, %b :
  %y = nn.layer_norm %x scale %g bias %b axes [-2, -1] : tensor<2x4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32> -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----

// CHECK-LABEL: func.func @matmuls
func.func @matmuls(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %x: tensor<2x3x4x8xf32>, %y: tensor<2x3x8x5xf32>, %p: tensor<2x1x4x8xf32>, %q: tensor<3x8x5xf32>) -> (tensor<4x16xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) {
  // CHECK:      %[[INIT:.*]] = linalg.fill
  // CHECK-NEXT: linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%[[INIT]] : tensor<4x16xf32>)
  %c = nn.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  // Equal batch dims: collapsed into one for batch_matmul, then expanded back.
  // CHECK:      %[[X:.*]] = tensor.collapse_shape %x {{\[}}[0, 1], [2], [3]] : tensor<2x3x4x8xf32> into tensor<6x4x8xf32>
  // CHECK:      %[[Y:.*]] = tensor.collapse_shape %y {{\[}}[0, 1], [2], [3]] : tensor<2x3x8x5xf32> into tensor<6x8x5xf32>
  // CHECK:      %[[B:.*]] = linalg.batch_matmul ins(%[[X]], %[[Y]] : tensor<6x4x8xf32>, tensor<6x8x5xf32>)
  // CHECK:      tensor.expand_shape %[[B]] {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 4, 5] : tensor<6x4x5xf32> into tensor<2x3x4x5xf32>
  %d = nn.matmul %x, %y : tensor<2x3x4x8xf32>, tensor<2x3x8x5xf32> -> tensor<2x3x4x5xf32>
  // Broadcast batch dims: a generic contraction, broadcasting in its maps.
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, 0, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
  // CHECK:        arith.mulf
  // CHECK-NEXT:   arith.addf
  %e = nn.matmul %p, %q : tensor<2x1x4x8xf32>, tensor<3x8x5xf32> -> tensor<2x3x4x5xf32>
  return %c, %d, %e : tensor<4x16xf32>, tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>
}

// -----

// CHECK-LABEL: func.func @conv2d
func.func @conv2d(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x3xf32> {
  // CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
  // CHECK:      %[[PADDED:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  // CHECK:        tensor.yield %[[ZERO]] : f32
  // CHECK:      } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
  // CHECK:      %[[INIT:.*]] = linalg.fill
  // CHECK:      %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {strides = dense<2> : vector<2xi64>, dilations = dense<[1, 2]> : vector<2xi64>} ins(%[[PADDED]], %w : tensor<1x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%[[INIT]] : tensor<1x4x4x3xf32>)
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>]
  // CHECK-SAME:     ins(%[[CONV]], %b : tensor<1x4x4x3xf32>, tensor<4xf32>)
  %y = nn.conv2d %x, %w, %b stride [2, 2] padding [1, 1] dilation [1, 2] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x4x3xf32>
  return %y : tensor<1x4x4x3xf32>
}

// -----

// CHECK-LABEL: func.func @pooling
func.func @pooling(%x: tensor<1x4x8x8xf32>, %i: tensor<1x2x4x4xi32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x2x2x2xi32>) {
  // Max pads and fills with -inf: padding never wins.
  // CHECK:      %[[NEG_INF:.*]] = arith.constant 0xff800000 : f32
  // CHECK:      %[[PADDED:.*]] = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1]
  // CHECK:        tensor.yield %[[NEG_INF]] : f32
  // CHECK:      %[[WINDOW:.*]] = tensor.empty() : tensor<3x3xf32>
  // CHECK:      linalg.pooling_nchw_max {strides = dense<1> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%[[PADDED]], %[[WINDOW]] : tensor<1x4x10x10xf32>, tensor<3x3xf32>)
  %m = nn.max_pool2d %x kernel [3, 3] stride [1, 1] padding [1, 1] : tensor<1x4x8x8xf32>
  // Avg pads with zeros and always divides by kh * kw (count_include_pad).
  // CHECK:      %[[SUM:.*]] = linalg.pooling_nchw_sum
  // CHECK:      %[[NINE:.*]] = arith.constant 9.000000e+00 : f32
  // CHECK:      linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x4x8x8xf32>)
  // CHECK:        arith.divf %{{.*}}, %[[NINE]] : f32
  %a = nn.avg_pool2d %x kernel [3, 3] stride [1, 1] padding [1, 1] : tensor<1x4x8x8xf32>
  // Integers: INT_MIN, and no pad without padding.
  // CHECK:      arith.constant -2147483648 : i32
  // CHECK-NOT:  tensor.pad
  // CHECK:      linalg.pooling_nchw_max {strides = dense<2> : vector<2xi64>, dilations = dense<1> : vector<2xi64>} ins(%i, %{{.*}} : tensor<1x2x4x4xi32>, tensor<2x2xi32>)
  %p = nn.max_pool2d %i kernel [2, 2] stride [2, 2] : tensor<1x2x4x4xi32> -> tensor<1x2x2x2xi32>
  return %m, %a, %p : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>, tensor<1x2x2x2xi32>
}

// -----

// CHECK-LABEL: func.func @layout
func.func @layout(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<2x8xf32>) -> (tensor<8x4xf32>, tensor<4x8xf32>, tensor<6x8xf32>, tensor<2x3xf32>) {
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>)
  // CHECK-NEXT: ^{{.*}}(%[[IN:.*]]: f32, %{{.*}}: f32):
  // CHECK-NEXT:   linalg.yield %[[IN]] : f32
  %t = nn.transpose %a perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  // CHECK:      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<8xf32>)
  %bb = nn.broadcast_to %b : tensor<8xf32> -> tensor<4x8xf32>
  // CHECK:      %[[EMPTY:.*]] = tensor.empty() : tensor<6x8xf32>
  // CHECK-NEXT: %[[FIRST:.*]] = tensor.insert_slice %a into %[[EMPTY]][0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<6x8xf32>
  // CHECK-NEXT: tensor.insert_slice %c into %[[FIRST]][4, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<6x8xf32>
  %cat = nn.concat %a, %c axis 0 : tensor<4x8xf32>, tensor<2x8xf32> -> tensor<6x8xf32>
  // CHECK:      tensor.extract_slice %a[0, 1] [2, 3] [2, 3] : tensor<4x8xf32> to tensor<2x3xf32>
  %s = nn.slice %a start [0, 1] limit [4, 8] stride [2, 3] : tensor<4x8xf32> -> tensor<2x3xf32>
  return %t, %bb, %cat, %s : tensor<8x4xf32>, tensor<4x8xf32>, tensor<6x8xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reshapes
func.func @reshapes(%a: tensor<4x8xf32>, %b: tensor<2x3x4xf32>) -> (tensor<32xf32>, tensor<2x2x8xf32>, tensor<3x8xf32>, tensor<1x4x1x8xf32>) {
  // A pure collapse or expand is one op.
  // CHECK: tensor.collapse_shape %a {{\[}}[0, 1]] : tensor<4x8xf32> into tensor<32xf32>
  %c = nn.reshape %a : tensor<4x8xf32> -> tensor<32xf32>
  // CHECK: tensor.expand_shape %a {{\[}}[0, 1], [2]] output_shape [2, 2, 8] : tensor<4x8xf32> into tensor<2x2x8xf32>
  %e = nn.reshape %a : tensor<4x8xf32> -> tensor<2x2x8xf32>
  // Otherwise through 1-D.
  // CHECK: %[[FLAT:.*]] = tensor.collapse_shape %b {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
  // CHECK: tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [3, 8] : tensor<24xf32> into tensor<3x8xf32>
  %r = nn.reshape %b : tensor<2x3x4xf32> -> tensor<3x8xf32>
  // Size-1 dims join a neighbouring group.
  // CHECK: tensor.expand_shape %a {{\[}}[0, 1], [2, 3]] output_shape [1, 4, 1, 8]
  %u = nn.reshape %a : tensor<4x8xf32> -> tensor<1x4x1x8xf32>
  return %c, %e, %r, %u : tensor<32xf32>, tensor<2x2x8xf32>, tensor<3x8xf32>, tensor<1x4x1x8xf32>
}

// -----

// CHECK-LABEL: func.func @constant
func.func @constant() -> tensor<2xf32> {
  // CHECK: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
  // CHECK: return %[[C]]
  %c = nn.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}
