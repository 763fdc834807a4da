// RUN: irkit-opt %s --split-input-file -p linalg-generalize-named-ops --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p linalg-generalize-named-ops | filecheck %s --check-prefix=NONE

// No named op is left anywhere.
// NONE-NOT: linalg.{{(elementwise|contract|add|div|select|reciprocal|square|tanh|erf|fill|copy|transpose|broadcast|reduce|map|matmul|batch_matmul|matvec|vecmat|dot|quantized_matmul|conv_|pooling_|depthwise_)}}

// Elementwise named ops: identity maps, parallel loops, the op's scalar body
// (integer or float flavour by element type).

// CHECK-LABEL: func.func @elementwise
// CHECK:         %[[ADD:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[X]], %[[Y]] : f32
// CHECK-NEXT:      linalg.yield %[[SUM]] : f32
// CHECK-NEXT:    } -> tensor<4x8xf32>
// CHECK:         arith.divsi
// CHECK:         arith.divui
// CHECK:         ^bb0(%[[C:.*]]: i1, %[[T:.*]]: f32, %[[F:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.select %[[C]], %[[T]], %[[F]] : f32
// CHECK:         ^bb0(%[[R:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      arith.divf %[[ONE]], %[[R]] : f32
// CHECK:         ^bb0(%[[S:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT:      arith.muli %[[S]], %[[S]] : i32
// CHECK:         math.tanh
// CHECK:         math.erf
func.func @elementwise(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %i: tensor<4x8xi32>, %c: tensor<4x8xi1>) -> (tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %add = linalg.add ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %div = linalg.div ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  %udiv = linalg.div_unsigned ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  %sel = linalg.select ins(%c, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %rec = linalg.reciprocal ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = linalg.square ins(%i : tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  %th = linalg.tanh ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %er = linalg.erf ins(%a : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %add, %div, %udiv, %sel, %rec, %sq, %th, %er : tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// fill reads a scalar through an empty map; fill and copy convert to the
// output's element type with an explicit cast.

// CHECK-LABEL: func.func @fill_copy
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : f64) outs(%t : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f64, %{{.*}}: f32):
// CHECK-NEXT:      %[[V:.*]] = arith.truncf %[[IN]] : f64 to f32
// CHECK-NEXT:      linalg.yield %[[V]] : f32
// CHECK:         arith.sitofp %{{.*}} : i32 to f32
// CHECK:         arith.uitofp %{{.*}} : i1 to f32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%h : tensor<4xf16>)
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:         ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%[[SAME:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[SAME]] : f32
func.func @fill_copy(%x: f64, %n: i32, %flag: i1, %h: tensor<4xf16>, %t: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %f = linalg.fill ins(%x : f64) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %g = linalg.fill ins(%n : i32) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %u = linalg.fill ins(%flag : i1) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %c = linalg.copy ins(%h : tensor<4xf16>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  %d = linalg.copy ins(%t : tensor<4xf32>) outs(%t : tensor<4xf32>) -> tensor<4xf32>
  return %f, %g, %u, %c, %d : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @shape_ops
// CHECK:         %[[T:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<3x4x2xf32>)
// CHECK:         %[[B:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<3xf32>) outs(%b : tensor<2x3x4xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>], iterator_types = ["reduction", "parallel", "reduction"]} ins(%x : tensor<2x3x4xf32>) outs(%r : tensor<3xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[MAX:.*]] = arith.maximumf %[[IN]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[MAX]] : f32
// CHECK:         %[[M:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %[[B]] : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%b : tensor<2x3x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[P:.*]]: f32, %[[Q:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[PROD:.*]] = arith.mulf %[[P]], %[[Q]] : f32
// CHECK-NEXT:      linalg.yield %[[PROD]] : f32
func.func @shape_ops(%x: tensor<2x3x4xf32>, %v: tensor<3xf32>, %e: tensor<3x4x2xf32>, %b: tensor<2x3x4xf32>, %r: tensor<3xf32>) -> (tensor<3x4x2xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<2x3x4xf32>) {
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<3x4x2xf32>) permutation = [1, 2, 0]
  %bc = linalg.broadcast ins(%v : tensor<3xf32>) outs(%b : tensor<2x3x4xf32>) dimensions = [0, 2]
  %red = linalg.reduce { arith.maximumf } ins(%x : tensor<2x3x4xf32>) outs(%r : tensor<3xf32>) dimensions = [0, 2]
  %m = linalg.map { arith.mulf } ins(%x, %bc : tensor<2x3x4xf32>, tensor<2x3x4xf32>) outs(%b : tensor<2x3x4xf32>)
  return %t, %bc, %red, %m : tensor<3x4x2xf32>, tensor<2x3x4xf32>, tensor<3xf32>, tensor<2x3x4xf32>
}

// -----

// Contractions: the op's maps (non-default ones too) and its multiply-add,
// with the sign extensions of a mixed-precision body.

// CHECK-LABEL: func.func @contractions
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[C:.*]]: f32):
// CHECK-NEXT:      %[[MUL:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[ACC:.*]] = arith.addf %[[MUL]], %[[C]] : f32
// CHECK-NEXT:      linalg.yield %[[ACC]] : f32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %bt
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %y : tensor<2x8x16xi8>, tensor<2x16x8xi8>) outs(%z : tensor<2x8x8xi32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: i8, %[[Y:.*]]: i8, %[[Z:.*]]: i32):
// CHECK-NEXT:      %[[XE:.*]] = arith.extsi %[[X]] : i8 to i32
// CHECK-NEXT:      %[[YE:.*]] = arith.extsi %[[Y]] : i8 to i32
// CHECK-NEXT:      %[[P:.*]] = arith.muli %[[XE]], %[[YE]] : i32
// CHECK-NEXT:      %[[S:.*]] = arith.addi %[[Z]], %[[P]] : i32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a, %v
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%w, %a
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]} ins(%v, %v
func.func @contractions(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %bt: tensor<8x16xf32>, %c: tensor<4x8xf32>, %x: tensor<2x8x16xi8>, %y: tensor<2x16x8xi8>, %z: tensor<2x8x8xi32>, %v: tensor<16xf32>, %w: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x8x8xi32>, tensor<4xf32>, tensor<16xf32>, tensor<f32>) {
  %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mt = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %bt : tensor<4x16xf32>, tensor<8x16xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %bm = linalg.batch_matmul ins(%x, %y : tensor<2x8x16xi8>, tensor<2x16x8xi8>) outs(%z : tensor<2x8x8xi32>) -> tensor<2x8x8xi32>
  %mv = linalg.matvec ins(%a, %v : tensor<4x16xf32>, tensor<16xf32>) outs(%w : tensor<4xf32>) -> tensor<4xf32>
  %vm = linalg.vecmat ins(%w, %a : tensor<4xf32>, tensor<4x16xf32>) outs(%v : tensor<16xf32>) -> tensor<16xf32>
  %d = linalg.dot ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %mm, %mt, %bm, %mv, %vm, %d : tensor<4x8xf32>, tensor<4x8xf32>, tensor<2x8x8xi32>, tensor<4xf32>, tensor<16xf32>, tensor<f32>
}

// -----

// CHECK-LABEL: func.func @quantized
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT:    ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %[[ZA:.*]]: i32, %[[ZB:.*]]: i32, %[[C:.*]]: i32):
// CHECK-NEXT:      %[[AE:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK-NEXT:      %{{.*}} = arith.subi %[[AE]], %[[ZA]] : i32
func.func @quantized(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %za: i32, %zb: i32, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %q = linalg.quantized_matmul ins(%a, %b, %za, %zb : tensor<4x8xi8>, tensor<8x4xi8>, i32, i32) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %q : tensor<4x4xi32>
}

// -----

// Windows: strides and dilations become the input map's coefficients; the
// pooling window operand only gives the kernel loops their range.

// CHECK-LABEL: func.func @windows
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d4, d2 * 2 + d5, d3 * 2 + d6 * 2)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d1, d4, d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      arith.maximumf %[[ACC]], %[[IN]] : f32
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4 * 2, d3 * 2 + d5 * 2)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 + d4, d2 + d5, d6)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d4, d5, d6, d3)>, affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>]
func.func @windows(%x: tensor<1x2x9x9xf32>, %w: tensor<3x2x2x2xf32>, %o: tensor<1x3x4x4xf32>, %n: tensor<1x9x9x2xf32>, %k: tensor<2x2xf32>, %p: tensor<1x4x4x2xf32>, %dw: tensor<2x3x3xf32>, %do: tensor<1x2x3x3xf32>, %hw: tensor<2x2x2x3xf32>, %ho: tensor<1x8x8x3xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x4x4x2xf32>, tensor<1x2x3x3xf32>, tensor<1x8x8x3xf32>) {
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<[1, 2]> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x9x9xf32>, tensor<3x2x2x2xf32>) outs(%o : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %max = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%n, %k : tensor<1x9x9x2xf32>, tensor<2x2xf32>) outs(%p : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  %dwc = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<2> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %dw : tensor<1x2x9x9xf32>, tensor<2x3x3xf32>) outs(%do : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %hwcf = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%n, %hw : tensor<1x9x9x2xf32>, tensor<2x2x2x3xf32>) outs(%ho : tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  return %conv, %max, %dwc, %hwcf : tensor<1x3x4x4xf32>, tensor<1x4x4x2xf32>, tensor<1x2x3x3xf32>, tensor<1x8x8x3xf32>
}

// -----

// On memrefs the generic has no results.

// CHECK-LABEL: func.func @on_memrefs
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>) {
// CHECK:         }
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : f32) outs(%m : memref<2x4xf32>) {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @on_memrefs(%a: memref<4xf32>, %b: memref<4xf32>, %x: f32, %m: memref<2x4xf32>) {
  linalg.add ins(%a, %b : memref<4xf32>, memref<4xf32>) outs(%a : memref<4xf32>)
  linalg.fill ins(%x : f32) outs(%m : memref<2x4xf32>)
  return
}

// -----

// A linalg.generic is already general: left as it is.

// CHECK-LABEL: func.func @generic_untouched
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
// CHECK-NEXT:    ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:      %{{.*}} = math.exp %in : f32
func.func @generic_untouched(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// linalg.elementwise keeps its maps (a bias row, a scalar) and its body.

// CHECK-LABEL: func.func @elementwise
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8xf32>) outs(%{{.*}} : tensor<4x8xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, f32)
// CHECK:           arith.divf
// CHECK:         linalg.generic
// CHECK-NEXT:      ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:      arith.divf %[[ONE]], %[[IN]] : f32
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%x: tensor<4x8xf32>, %row: tensor<8xf32>, %s: f32) -> tensor<4x8xf32> {
  %init = tensor.empty() : tensor<4x8xf32>
  %a = linalg.elementwise <add> indexing_maps = [#id, affine_map<(d0, d1) -> (d1)>, #id] ins(%x, %row : tensor<4x8xf32>, tensor<8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = linalg.elementwise <div> indexing_maps = [#id, affine_map<(d0, d1) -> ()>, #id] ins(%a, %s : tensor<4x8xf32>, f32) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = linalg.elementwise <reciprocal> ins(%b : tensor<4x8xf32>) outs(%init : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// linalg.contract: loops in the output's map are parallel, the others
// reductions; cast_unsigned widens with extui.

// CHECK-LABEL: func.func @contract
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:      arith.addf %[[OUT]], %[[P]] : f32
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[QA:.*]]: i8, %[[QB:.*]]: i8, %{{.*}}: i32):
// CHECK-NEXT:      arith.extui %[[QA]] : i8 to i32
// CHECK-NEXT:      arith.extui %[[QB]] : i8 to i32
func.func @contract(%a: tensor<4x16xf32>, %bt: tensor<8x16xf32>, %c: tensor<4x8xf32>, %qa: tensor<4x16xi8>, %qb: tensor<16x8xi8>, %qc: tensor<4x8xi32>) -> (tensor<4x8xf32>, tensor<4x8xi32>) {
  %r = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %bt : tensor<4x16xf32>, tensor<8x16xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %q = linalg.contract indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%qa, %qb : tensor<4x16xi8>, tensor<16x8xi8>) outs(%qc : tensor<4x8xi32>) -> tensor<4x8xi32>
  return %r, %q : tensor<4x8xf32>, tensor<4x8xi32>
}
