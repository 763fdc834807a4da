// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// Every linalg op irkit adds or fixes, in MLIR's custom syntax; both runs
// must print the same custom form.

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// CHECK-LABEL: func.func @generic_two_results
// CHECK-NEXT:    %r, %r_1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x10xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
// CHECK-NEXT:    ^bb0(%in: f32, %out: f32, %out_1: i64):
// CHECK-NEXT:      %j = linalg.index 1 : index
// CHECK-NEXT:      %ji = arith.index_cast %j : index to i64
// CHECK-NEXT:      %max = arith.maximumf %in, %out : f32
// CHECK-NEXT:      %gt = arith.cmpf ogt, %in, %out : f32
// CHECK-NEXT:      %sel = arith.select %gt, %ji, %out_1 : i64
// CHECK-NEXT:      linalg.yield %max, %sel : f32, i64
// CHECK-NEXT:    } -> (tensor<4xf32>, tensor<4xi64>)
// CHECK-NEXT:    func.return %r, %r_1 : tensor<4xf32>, tensor<4xi64>
func.func @generic_two_results(%x: tensor<4x10xf32>, %m: tensor<4xf32>, %i: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>) {
  %r:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x10xf32>) outs(%m, %i : tensor<4xf32>, tensor<4xi64>) {
  ^bb0(%in: f32, %out: f32, %out_1: i64):
    %j = linalg.index 1 : index
    %ji = arith.index_cast %j : index to i64
    %max = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %sel = arith.select %gt, %ji, %out_1 : i64
    linalg.yield %max, %sel : f32, i64
  } -> (tensor<4xf32>, tensor<4xi64>)
  return %r#0, %r#1 : tensor<4xf32>, tensor<4xi64>
}

// CHECK-LABEL: func.func @generic_attrs
// CHECK-NEXT:    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"], doc = "negate", library_call = "neg"} ins(%x : tensor<4x10xf32>) outs(%x : tensor<4x10xf32>) attrs =  {tag = 1 : i64} {
// CHECK-NEXT:    ^bb0(%in: f32, %out: f32):
// CHECK-NEXT:      %n = arith.negf %in : f32
// CHECK-NEXT:      linalg.yield %n : f32
// CHECK-NEXT:    } -> tensor<4x10xf32>
// CHECK-NEXT:    func.return %r : tensor<4x10xf32>
func.func @generic_attrs(%x: tensor<4x10xf32>) -> tensor<4x10xf32> {
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"], doc = "negate", library_call = "neg"} ins(%x : tensor<4x10xf32>) outs(%x : tensor<4x10xf32>) attrs = {tag = 1 : i64} {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<4x10xf32>
  return %r : tensor<4x10xf32>
}

// CHECK-LABEL: func.func @elementwise
// CHECK-NEXT:    %add = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %sub = linalg.sub {tag} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %div = linalg.div ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %divi = linalg.div ins(%i, %i : tensor<4xi32>, tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %divu = linalg.div_unsigned ins(%i, %i : tensor<4xi32>, tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %pow = linalg.powf ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %abs = linalg.abs ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %ceil = linalg.ceil ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %floor = linalg.floor ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %neg = linalg.negf ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %rec = linalg.reciprocal ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %round = linalg.round ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %rsqrt = linalg.rsqrt ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %sq = linalg.square ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %tanh = linalg.tanh ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %erf = linalg.erf ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    func.return %erf : tensor<4xf32>
func.func @elementwise(%a: tensor<4xf32>, %b: tensor<4xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  %add = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %sub = linalg.sub {tag} ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %div = linalg.div ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %divi = linalg.div ins(%i, %i : tensor<4xi32>, tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
  %divu = linalg.div_unsigned ins(%i, %i : tensor<4xi32>, tensor<4xi32>) outs(%i : tensor<4xi32>) -> tensor<4xi32>
  %pow = linalg.powf ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %abs = linalg.abs ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %ceil = linalg.ceil ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %floor = linalg.floor ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %neg = linalg.negf ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %rec = linalg.reciprocal ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %round = linalg.round ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %rsqrt = linalg.rsqrt ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %sq = linalg.square ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %tanh = linalg.tanh ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  %erf = linalg.erf ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %erf : tensor<4xf32>
}

// CHECK-LABEL: func.func @fill_copy
// CHECK-NEXT:    %f = linalg.fill ins(%c : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %k = linalg.copy ins(%f : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %k : tensor<4x8xf32>
func.func @fill_copy(%a: tensor<4x8xf32>, %c: f32) -> tensor<4x8xf32> {
  %f = linalg.fill ins(%c : f32) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  %k = linalg.copy ins(%f : tensor<4x8xf32>) outs(%a : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %k : tensor<4x8xf32>
}

// CHECK-LABEL: func.func @contractions
// CHECK-NEXT:    %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %mt = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %bt : tensor<4x16xf32>, tensor<8x16xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %bm = linalg.batch_matmul ins(%x, %y : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
// CHECK-NEXT:    %mv = linalg.matvec ins(%a, %v : tensor<4x16xf32>, tensor<16xf32>) outs(%w : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT:    %vm = linalg.vecmat ins(%w, %a : tensor<4xf32>, tensor<4x16xf32>) outs(%v : tensor<16xf32>) -> tensor<16xf32>
// CHECK-NEXT:    %d = linalg.dot ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%s : tensor<f32>) -> tensor<f32>
// CHECK-NEXT:    func.return %d : tensor<f32>
func.func @contractions(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %c: tensor<4x8xf32>, %bt: tensor<8x16xf32>, %x: tensor<2x8x16xf32>, %y: tensor<2x16x8xf32>, %z: tensor<2x8x8xf32>, %v: tensor<16xf32>, %w: tensor<4xf32>, %s: tensor<f32>) -> tensor<f32> {
  %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mt = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %bt : tensor<4x16xf32>, tensor<8x16xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %bm = linalg.batch_matmul ins(%x, %y : tensor<2x8x16xf32>, tensor<2x16x8xf32>) outs(%z : tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
  %mv = linalg.matvec ins(%a, %v : tensor<4x16xf32>, tensor<16xf32>) outs(%w : tensor<4xf32>) -> tensor<4xf32>
  %vm = linalg.vecmat ins(%w, %a : tensor<4xf32>, tensor<4x16xf32>) outs(%v : tensor<16xf32>) -> tensor<16xf32>
  %d = linalg.dot ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %d : tensor<f32>
}

// CHECK-LABEL: func.func @windows
// CHECK-NEXT:    %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
// CHECK-NEXT:    %max = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<2x3x10x10xf32>, tensor<2x2xf32>) outs(%p : tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
// CHECK-NEXT:    %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<2x3x10x10xf32>, tensor<2x2xf32>) outs(%p : tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
// CHECK-NEXT:    %nsum = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%n, %k : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%no : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT:    %nmax = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%n, %k : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%no : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT:    %nmin = linalg.pooling_nhwc_min {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%n, %k : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%no : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
// CHECK-NEXT:    %dwc = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %dw : tensor<2x3x10x10xf32>, tensor<3x3x3xf32>) outs(%do : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
// CHECK-NEXT:    %dwn = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%n, %nw : tensor<1x6x6x2xf32>, tensor<3x3x2xf32>) outs(%ndo : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
// CHECK-NEXT:    func.return %dwn : tensor<1x4x4x2xf32>
func.func @windows(%x: tensor<2x3x10x10xf32>, %w: tensor<4x3x3x3xf32>, %o: tensor<2x4x8x8xf32>, %p: tensor<2x3x5x5xf32>, %k: tensor<2x2xf32>, %dw: tensor<3x3x3xf32>, %do: tensor<2x3x8x8xf32>, %n: tensor<1x6x6x2xf32>, %no: tensor<1x3x3x2xf32>, %nw: tensor<3x3x2xf32>, %ndo: tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32> {
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<2x3x10x10xf32>, tensor<4x3x3x3xf32>) outs(%o : tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %max = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<2x3x10x10xf32>, tensor<2x2xf32>) outs(%p : tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
  %sum = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %k : tensor<2x3x10x10xf32>, tensor<2x2xf32>) outs(%p : tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
  %nsum = linalg.pooling_nhwc_sum {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%n, %k : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%no : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %nmax = linalg.pooling_nhwc_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%n, %k : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%no : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %nmin = linalg.pooling_nhwc_min {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%n, %k : tensor<1x6x6x2xf32>, tensor<2x2xf32>) outs(%no : tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %dwc = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %dw : tensor<2x3x10x10xf32>, tensor<3x3x3xf32>) outs(%do : tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %dwn = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%n, %nw : tensor<1x6x6x2xf32>, tensor<3x3x2xf32>) outs(%ndo : tensor<1x4x4x2xf32>) -> tensor<1x4x4x2xf32>
  return %dwn : tensor<1x4x4x2xf32>
}

// CHECK-LABEL: func.func @shape_ops
// CHECK-NEXT:    %tr = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) permutation = [1, 0]
// CHECK-NEXT:    %br = linalg.broadcast ins(%b : tensor<4xf32>) outs(%bo : tensor<2x4xf32>) dimensions = [0] {tag}
// CHECK-NEXT:    %sum = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT:      (%in: f32, %init: f32) {
// CHECK-NEXT:        %0 = arith.addf %init, %in : f32
// CHECK-NEXT:        linalg.yield %0 : f32
// CHECK-NEXT:      }
// CHECK-NEXT:    %max = linalg.reduce { arith.maximumf } ins(%x : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
// CHECK-NEXT:    func.return %max : tensor<2xf32>
func.func @shape_ops(%x: tensor<2x3xf32>, %t: tensor<3x2xf32>, %b: tensor<4xf32>, %bo: tensor<2x4xf32>, %r: tensor<2xf32>) -> tensor<2xf32> {
  %tr = linalg.transpose ins(%x : tensor<2x3xf32>) outs(%t : tensor<3x2xf32>) permutation = [1, 0]
  %br = linalg.broadcast ins(%b : tensor<4xf32>) outs(%bo : tensor<2x4xf32>) dimensions = [0] {tag}
  %sum = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %0 = arith.addf %init, %in : f32
      linalg.yield %0 : f32
    }
  %max = linalg.reduce { arith.maximumf } ins(%x : tensor<2x3xf32>) outs(%r : tensor<2xf32>) dimensions = [1]
  return %max : tensor<2xf32>
}

// CHECK-LABEL: func.func @map
// CHECK-NEXT:    %add = linalg.map { arith.addf } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>)
// CHECK-NEXT:    %exp = linalg.map { math.exp } ins(%add : tensor<8xf32>) outs(%a : tensor<8xf32>)
// CHECK-NEXT:    func.return %exp : tensor<8xf32>
func.func @map(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %add = linalg.map { arith.addf } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%a : tensor<8xf32>)
  %exp = linalg.map ins(%add : tensor<8xf32>) outs(%a : tensor<8xf32>)
    (%in: f32) {
      %0 = math.exp %in : f32
      linalg.yield %0 : f32
    }
  return %exp : tensor<8xf32>
}

// linalg.elementwise: MLIR's current elementwise op (LLVM 21+; the named
// linalg.add and friends are gone from LLVM 24). The kind prints as `<add>`;
// `indexing_maps` only when they are not all the identity. LLVM 20-23's
// `kind=#linalg.elementwise_kind<...>` is read too.

// CHECK-LABEL: func.func @elementwise_kinds
// CHECK-NEXT:    %exp = linalg.elementwise <exp> ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %old = linalg.elementwise <log> ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %rec = linalg.elementwise <reciprocal> {tag} ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %l1p = linalg.elementwise <log1p> ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %add = linalg.elementwise <add> ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %pow = linalg.elementwise <powf> ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %umax = linalg.elementwise <max_unsigned> ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK-NEXT:    %or = linalg.elementwise <add> ins(%p, %p : tensor<4x8xi1>, tensor<4x8xi1>) outs(%p : tensor<4x8xi1>) -> tensor<4x8xi1>
// CHECK-NEXT:    %sel = linalg.elementwise <select> ins(%p, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    func.return %sel : tensor<4x8xf32>
func.func @elementwise_kinds(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>, %i: tensor<4x8xi32>, %p: tensor<4x8xi1>) -> tensor<4x8xf32> {
  %exp = linalg.elementwise <exp> ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %old = linalg.elementwise kind=#linalg.elementwise_kind<log> ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %rec = linalg.elementwise <reciprocal> {tag} ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %l1p = linalg.elementwise <log1p> ins(%a : tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %add = linalg.elementwise <add> ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %pow = linalg.elementwise <powf> ins(%a, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %umax = linalg.elementwise <max_unsigned> ins(%i, %i : tensor<4x8xi32>, tensor<4x8xi32>) outs(%i : tensor<4x8xi32>) -> tensor<4x8xi32>
  %or = linalg.elementwise <add> ins(%p, %p : tensor<4x8xi1>, tensor<4x8xi1>) outs(%p : tensor<4x8xi1>) -> tensor<4x8xi1>
  %sel = linalg.elementwise <select> ins(%p, %a, %b : tensor<4x8xi1>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %sel : tensor<4x8xf32>
}

// What `iree-opt --linalg-specialize-generic-ops` writes for torch-mlir's
// broadcasts: a bias row, a scalar (`()`), a kept unit dimension (`0`),
// and an output map that transposes; the identity prints no maps.

#ew_id = affine_map<(d0, d1) -> (d0, d1)>
#ew_row = affine_map<(d0, d1) -> (d1)>
#ew_scalar = affine_map<(d0, d1) -> ()>
#ew_unit = affine_map<(d0, d1) -> (d0, 0)>
#ew_t = affine_map<(d0, d1) -> (d1, d0)>

// CHECK-LABEL: func.func @elementwise_maps
// CHECK-NEXT:    %bias = linalg.elementwise <add> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%x, %row : tensor<4x8xf32>, tensor<8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %scaled = linalg.elementwise <div> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>] ins(%bias, %s : tensor<4x8xf32>, f32) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %centred = linalg.elementwise <sub> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%scaled, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %t = linalg.elementwise <exp> indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%centred : tensor<4x8xf32>) outs(%ct : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    %same = linalg.elementwise <exp> ins(%t : tensor<8x4xf32>) outs(%ct : tensor<8x4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT:    func.return %same : tensor<8x4xf32>
func.func @elementwise_maps(%x: tensor<4x8xf32>, %row: tensor<8xf32>, %s: f32, %m: tensor<4x1xf32>, %c: tensor<4x8xf32>, %ct: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %bias = linalg.elementwise <add> indexing_maps = [#ew_id, #ew_row, #ew_id] ins(%x, %row : tensor<4x8xf32>, tensor<8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %scaled = linalg.elementwise <div> indexing_maps = [#ew_id, #ew_scalar, #ew_id] ins(%bias, %s : tensor<4x8xf32>, f32) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %centred = linalg.elementwise <sub> indexing_maps = [#ew_id, #ew_unit, #ew_id] ins(%scaled, %m : tensor<4x8xf32>, tensor<4x1xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = linalg.elementwise <exp> indexing_maps = [#ew_t, #ew_id] ins(%centred : tensor<4x8xf32>) outs(%ct : tensor<8x4xf32>) -> tensor<8x4xf32>
  %same = linalg.elementwise <exp> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%t : tensor<8x4xf32>) outs(%ct : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %same : tensor<8x4xf32>
}

// CHECK-LABEL: func.func @elementwise_on_memrefs
// CHECK-NEXT:    linalg.elementwise <mul> indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>] ins(%a, %b : memref<4x8xf32>, memref<8xf32>) outs(%c : memref<4x8xf32>)
// CHECK-NEXT:    linalg.elementwise <tanh> ins(%a : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
func.func @elementwise_on_memrefs(%a: memref<4x8xf32>, %b: memref<8xf32>, %c: memref<4x8xf32>) {
  linalg.elementwise <mul> indexing_maps = [#ew_id, #ew_row, #ew_id] ins(%a, %b : memref<4x8xf32>, memref<8xf32>) outs(%c : memref<4x8xf32>)
  linalg.elementwise <tanh> ins(%a : memref<4x8xf32>) outs(%c : memref<4x8xf32>)
  return
}

// linalg.contract: any contraction given by its maps; `cast` converts the
// inputs to the accumulator's type (cast_signed when absent).

#mk = affine_map<(m, n, k) -> (m, k)>
#kn = affine_map<(m, n, k) -> (k, n)>
#nk = affine_map<(m, n, k) -> (n, k)>
#mn = affine_map<(m, n, k) -> (m, n)>

// CHECK-LABEL: func.func @contract
// CHECK-NEXT:    %mm = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %mt = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %bt : tensor<4x16xf32>, tensor<8x16xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %u8 = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] {cast = #linalg.type_fn<cast_unsigned>} ins(%qa, %qb : tensor<4x16xi8>, tensor<16x8xi8>) outs(%qc : tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK-NEXT:    %h = linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%ha, %hb : tensor<4x16xf16>, tensor<16x8xf16>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT:    %dot = linalg.contract indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>] ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%s : tensor<f32>) -> tensor<f32>
func.func @contract(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %bt: tensor<8x16xf32>, %c: tensor<4x8xf32>, %qa: tensor<4x16xi8>, %qb: tensor<16x8xi8>, %qc: tensor<4x8xi32>, %ha: tensor<4x16xf16>, %hb: tensor<16x8xf16>, %v: tensor<16xf32>, %s: tensor<f32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<f32>) {
  %mm = linalg.contract indexing_maps = [#mk, #kn, #mn] ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mt = linalg.contract indexing_maps = [#mk, #nk, #mn] ins(%a, %bt : tensor<4x16xf32>, tensor<8x16xf32>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %u8 = linalg.contract indexing_maps = [#mk, #kn, #mn] {cast = #linalg.type_fn<cast_unsigned>} ins(%qa, %qb : tensor<4x16xi8>, tensor<16x8xi8>) outs(%qc : tensor<4x8xi32>) -> tensor<4x8xi32>
  %h = linalg.contract indexing_maps = [#mk, #kn, #mn] ins(%ha, %hb : tensor<4x16xf16>, tensor<16x8xf16>) outs(%c : tensor<4x8xf32>) -> tensor<4x8xf32>
  %dot = linalg.contract indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>] ins(%v, %v : tensor<16xf32>, tensor<16xf32>) outs(%s : tensor<f32>) -> tensor<f32>
  return %mm, %mt, %u8, %h, %dot : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xi32>, tensor<4x8xf32>, tensor<f32>
}

// CHECK-LABEL: func.func @contract_on_memrefs
// CHECK-NEXT:    linalg.contract indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
func.func @contract_on_memrefs(%a: memref<4x16xf32>, %b: memref<16x8xf32>, %c: memref<4x8xf32>) {
  linalg.contract indexing_maps = [#mk, #kn, #mn] ins(%a, %b : memref<4x16xf32>, memref<16x8xf32>) outs(%c : memref<4x8xf32>)
  return
}
