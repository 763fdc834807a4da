// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// Every nn op in its custom form; both runs must print the same custom form.

// CHECK-LABEL: func.func @constant
// CHECK-NEXT:    %c = nn.constant dense<[1.000000e+00, 2.500000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %z = nn.constant dense<7> : tensor<2x3xi32>
// CHECK-NEXT:    %b = nn.constant dense<[true, false]> : tensor<2xi1>
// CHECK-NEXT:    %h = nn.constant {tag = "half"} dense<5.000000e-01> : tensor<2xf16>
// CHECK-NEXT:    func.return %c, %z, %b, %h : tensor<2xf32>, tensor<2x3xi32>, tensor<2xi1>, tensor<2xf16>
func.func @constant() -> (tensor<2xf32>, tensor<2x3xi32>, tensor<2xi1>, tensor<2xf16>) {
  %c = nn.constant dense<[1.0, 2.5]> : tensor<2xf32>
  %z = nn.constant dense<7> : tensor<2x3xi32>
  %b = nn.constant dense<[true, false]> : tensor<2xi1>
  %h = nn.constant {tag = "half"} dense<0.5> : tensor<2xf16>
  return %c, %z, %b, %h : tensor<2xf32>, tensor<2x3xi32>, tensor<2xi1>, tensor<2xf16>
}

// CHECK-LABEL: func.func @binary
// CHECK-NEXT:    %add = nn.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %sub = nn.sub %i, %i : tensor<4xi32>
// CHECK-NEXT:    %mul = nn.mul %b, %a : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %div = nn.div %i, %i : tensor<4xi32>
// CHECK-NEXT:    %max = nn.max %a, %a : tensor<4x8xf32>
// CHECK-NEXT:    %min = nn.min %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
// CHECK-NEXT:    %pow = nn.pow %a, %a : tensor<4x8xf32>
// CHECK-NEXT:    %and = nn.and %m, %m : tensor<4xi1>
// CHECK-NEXT:    %or = nn.or %i, %i : tensor<4xi32>
// CHECK-NEXT:    %xor = nn.xor %m, %m : tensor<4xi1>
// CHECK-NEXT:    func.return
func.func @binary(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %i: tensor<4xi32>, %m: tensor<4xi1>) {
  %add = nn.add %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %sub = nn.sub %i, %i : tensor<4xi32>
  %mul = nn.mul %b, %a : tensor<8xf32>, tensor<4x8xf32> -> tensor<4x8xf32>
  %div = nn.div %i, %i : tensor<4xi32>
  %max = nn.max %a, %a : tensor<4x8xf32>
  %min = nn.min %a, %b : tensor<4x8xf32>, tensor<8xf32> -> tensor<4x8xf32>
  %pow = nn.pow %a, %a : tensor<4x8xf32>
  %and = nn.and %m, %m : tensor<4xi1>
  %or = nn.or %i, %i : tensor<4xi32>
  %xor = nn.xor %m, %m : tensor<4xi1>
  return
}

// CHECK-LABEL: func.func @unary
// CHECK-NEXT:    %neg = nn.neg %i : tensor<4xi64>
// CHECK-NEXT:    %abs = nn.abs %a : tensor<4x8xf32>
// CHECK-NEXT:    %relu = nn.relu %a : tensor<4x8xf32>
// CHECK-NEXT:    %not = nn.not %i : tensor<4xi64>
// CHECK-NEXT:    %exp = nn.exp %h : tensor<3xf16>
// CHECK-NEXT:    %log = nn.log %d : tensor<2x2xf64>
// CHECK-NEXT:    %sqrt = nn.sqrt %a : tensor<4x8xf32>
// CHECK-NEXT:    %rsqrt = nn.rsqrt %a : tensor<4x8xf32>
// CHECK-NEXT:    %tanh = nn.tanh %a : tensor<4x8xf32>
// CHECK-NEXT:    %sigmoid = nn.sigmoid %a : tensor<4x8xf32>
// CHECK-NEXT:    %erf = nn.erf %a : tensor<4x8xf32>
// CHECK-NEXT:    %gelu = nn.gelu %a : tensor<4x8xf32>
// CHECK-NEXT:    %gelu_tanh = nn.gelu %a approximate tanh : tensor<4x8xf32>
// CHECK-NEXT:    func.return
func.func @unary(%a: tensor<4x8xf32>, %i: tensor<4xi64>, %h: tensor<3xf16>, %d: tensor<2x2xf64>) {
  %neg = nn.neg %i : tensor<4xi64>
  %abs = nn.abs %a : tensor<4x8xf32>
  %relu = nn.relu %a : tensor<4x8xf32>
  %not = nn.not %i : tensor<4xi64>
  %exp = nn.exp %h : tensor<3xf16>
  %log = nn.log %d : tensor<2x2xf64>
  %sqrt = nn.sqrt %a : tensor<4x8xf32>
  %rsqrt = nn.rsqrt %a : tensor<4x8xf32>
  %tanh = nn.tanh %a : tensor<4x8xf32>
  %sigmoid = nn.sigmoid %a : tensor<4x8xf32>
  %erf = nn.erf %a : tensor<4x8xf32>
  %gelu = nn.gelu %a : tensor<4x8xf32>
  %gelu_tanh = nn.gelu %a approximate tanh : tensor<4x8xf32>
  return
}

// CHECK-LABEL: func.func @cast_cmp_select
// CHECK-NEXT:    %k = nn.cast %a : tensor<4xf32> -> tensor<4xi32>
// CHECK-NEXT:    %f = nn.cast %i : tensor<4xi32> -> tensor<4xf16>
// CHECK-NEXT:    %m = nn.cmp lt, %a, %b : tensor<4xf32>, tensor<1xf32> -> tensor<4xi1>
// CHECK-NEXT:    %e = nn.cmp eq, %i, %i : tensor<4xi32> -> tensor<4xi1>
// CHECK-NEXT:    %n = nn.cmp ne, %a, %a : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:    %l = nn.cmp le, %a, %a : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:    %g = nn.cmp gt, %a, %a : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:    %q = nn.cmp ge, %a, %a : tensor<4xf32> -> tensor<4xi1>
// CHECK-NEXT:    %s = nn.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<1xf32> -> tensor<4xf32>
// CHECK-NEXT:    func.return %s : tensor<4xf32>
func.func @cast_cmp_select(%a: tensor<4xf32>, %b: tensor<1xf32>, %i: tensor<4xi32>) -> tensor<4xf32> {
  %k = nn.cast %a : tensor<4xf32> -> tensor<4xi32>
  %f = nn.cast %i : tensor<4xi32> -> tensor<4xf16>
  %m = nn.cmp lt, %a, %b : tensor<4xf32>, tensor<1xf32> -> tensor<4xi1>
  %e = nn.cmp eq, %i, %i : tensor<4xi32> -> tensor<4xi1>
  %n = nn.cmp ne, %a, %a : tensor<4xf32> -> tensor<4xi1>
  %l = nn.cmp le, %a, %a : tensor<4xf32> -> tensor<4xi1>
  %g = nn.cmp gt, %a, %a : tensor<4xf32> -> tensor<4xi1>
  %q = nn.cmp ge, %a, %a : tensor<4xf32> -> tensor<4xi1>
  %s = nn.select %m, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<1xf32> -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    %mm = nn.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
// CHECK-NEXT:    %bmm = nn.matmul %x, %y : tensor<2x1x4x8xi32>, tensor<3x8x5xi32> -> tensor<2x3x4x5xi32>
// CHECK-NEXT:    func.return
func.func @matmul(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>, %x: tensor<2x1x4x8xi32>, %y: tensor<3x8x5xi32>) {
  %mm = nn.matmul %a, %b : tensor<4x8xf32>, tensor<8x16xf32> -> tensor<4x16xf32>
  %bmm = nn.matmul %x, %y : tensor<2x1x4x8xi32>, tensor<3x8x5xi32> -> tensor<2x3x4x5xi32>
  return
}

// CHECK-LABEL: func.func @layout
// CHECK-NEXT:    %t = nn.transpose %a perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT:    %bc = nn.broadcast_to %b : tensor<8xf32> -> tensor<3x4x8xf32>
// CHECK-NEXT:    %bm = nn.broadcast_to %m : tensor<4x1xi1> -> tensor<4x8xi1>
// CHECK-NEXT:    %r = nn.reshape %a : tensor<4x8xf32> -> tensor<2x16xf32>
// CHECK-NEXT:    %r0 = nn.reshape %b : tensor<8xf32> -> tensor<8x1x1xf32>
// CHECK-NEXT:    %cat = nn.concat %a, %c, %a axis 0 : tensor<4x8xf32>, tensor<2x8xf32>, tensor<4x8xf32> -> tensor<10x8xf32>
// CHECK-NEXT:    %cat1 = nn.concat %a, %a axis -1 : tensor<4x8xf32> -> tensor<4x16xf32>
// CHECK-NEXT:    %s = nn.slice %a start [0, 1] limit [4, 8] stride [2, 3] : tensor<4x8xf32> -> tensor<2x3xf32>
// CHECK-NEXT:    %e = nn.slice %a start [1, 0] limit [1, 8] stride [1, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
// CHECK-NEXT:    func.return
func.func @layout(%a: tensor<4x8xf32>, %b: tensor<8xf32>, %c: tensor<2x8xf32>, %m: tensor<4x1xi1>) {
  %t = nn.transpose %a perm [1, 0] : tensor<4x8xf32> -> tensor<8x4xf32>
  %bc = nn.broadcast_to %b : tensor<8xf32> -> tensor<3x4x8xf32>
  %bm = nn.broadcast_to %m : tensor<4x1xi1> -> tensor<4x8xi1>
  %r = nn.reshape %a : tensor<4x8xf32> -> tensor<2x16xf32>
  %r0 = nn.reshape %b : tensor<8xf32> -> tensor<8x1x1xf32>
  %cat = nn.concat %a, %c, %a axis 0 : tensor<4x8xf32>, tensor<2x8xf32>, tensor<4x8xf32> -> tensor<10x8xf32>
  %cat1 = nn.concat %a, %a axis -1 : tensor<4x8xf32> -> tensor<4x16xf32>
  %s = nn.slice %a start [0, 1] limit [4, 8] stride [2, 3] : tensor<4x8xf32> -> tensor<2x3xf32>
  %e = nn.slice %a start [1, 0] limit [1, 8] stride [1, 1] : tensor<4x8xf32> -> tensor<0x8xf32>
  return
}

// CHECK-LABEL: func.func @reductions
// CHECK-NEXT:    %sum = nn.reduce_sum %a axes [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
// CHECK-NEXT:    %max = nn.reduce_max %i axes [0, 2] : tensor<2x3x4xi64> -> tensor<3xi64>
// CHECK-NEXT:    %min = nn.reduce_min %a axes [-1] : tensor<4x8xf32> -> tensor<4xf32>
// CHECK-NEXT:    %all = nn.reduce_sum %i axes [0, 1, 2] : tensor<2x3x4xi64> -> tensor<i64>
// CHECK-NEXT:    %mean = nn.reduce_mean %a axes [0, 1] keepdims : tensor<4x8xf32> -> tensor<1x1xf32>
// CHECK-NEXT:    func.return
func.func @reductions(%a: tensor<4x8xf32>, %i: tensor<2x3x4xi64>) {
  %sum = nn.reduce_sum %a axes [1] keepdims : tensor<4x8xf32> -> tensor<4x1xf32>
  %max = nn.reduce_max %i axes [0, 2] : tensor<2x3x4xi64> -> tensor<3xi64>
  %min = nn.reduce_min %a axes [-1] : tensor<4x8xf32> -> tensor<4xf32>
  %all = nn.reduce_sum %i axes [0, 1, 2] : tensor<2x3x4xi64> -> tensor<i64>
  %mean = nn.reduce_mean %a axes [0, 1] keepdims : tensor<4x8xf32> -> tensor<1x1xf32>
  return
}

// CHECK-LABEL: func.func @normalisations
// CHECK-NEXT:    %s = nn.softmax %a axis 2 : tensor<2x4x8xf32>
// CHECK-NEXT:    %l = nn.log_softmax %a axis -1 : tensor<2x4x8xf32>
// CHECK-NEXT:    %n0 = nn.layer_norm %a axes [-1] : tensor<2x4x8xf32>
// CHECK-NEXT:    %n1 = nn.layer_norm %a scale %g bias %g axes [2] eps 1.000000e-03 : tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT:    %n2 = nn.layer_norm %a scale %h axes [1, 2] : tensor<2x4x8xf32>, tensor<4x8xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT:    %n3 = nn.layer_norm %a bias %g axes [2] : tensor<2x4x8xf32>, tensor<8xf32> -> tensor<2x4x8xf32>
// CHECK-NEXT:    func.return
func.func @normalisations(%a: tensor<2x4x8xf32>, %g: tensor<8xf32>, %h: tensor<4x8xf32>) {
  %s = nn.softmax %a axis 2 : tensor<2x4x8xf32>
  %l = nn.log_softmax %a axis -1 : tensor<2x4x8xf32>
  %n0 = nn.layer_norm %a axes [-1] : tensor<2x4x8xf32>
  %n1 = nn.layer_norm %a scale %g bias %g axes [2] eps 1.0e-03 : tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32> -> tensor<2x4x8xf32>
  %n2 = nn.layer_norm %a scale %h axes [1, 2] : tensor<2x4x8xf32>, tensor<4x8xf32> -> tensor<2x4x8xf32>
  %n3 = nn.layer_norm %a bias %g axes [2] : tensor<2x4x8xf32>, tensor<8xf32> -> tensor<2x4x8xf32>
  return
}

// CHECK-LABEL: func.func @conv_pool
// CHECK-NEXT:    %y = nn.conv2d %x, %w, %b padding [1, 1] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x8x8xf32>
// CHECK-NEXT:    %y2 = nn.conv2d %x, %w stride [2, 1] dilation [2, 2] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x2x4xf32>
// CHECK-NEXT:    %p = nn.max_pool2d %y kernel [2, 2] stride [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
// CHECK-NEXT:    %pi = nn.max_pool2d %i kernel [3, 3] stride [2, 2] padding [1, 1] : tensor<2x2x5x5xi32> -> tensor<2x2x3x3xi32>
// CHECK-NEXT:    %q = nn.avg_pool2d %y kernel [3, 3] stride [1, 1] padding [1, 1] : tensor<1x4x8x8xf32>
// CHECK-NEXT:    func.return
func.func @conv_pool(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %i: tensor<2x2x5x5xi32>) {
  %y = nn.conv2d %x, %w, %b stride [1, 1] padding [1, 1] dilation [1, 1] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32> -> tensor<1x4x8x8xf32>
  %y2 = nn.conv2d %x, %w stride [2, 1] dilation [2, 2] : tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32> -> tensor<1x4x2x4xf32>
  %p = nn.max_pool2d %y kernel [2, 2] stride [2, 2] : tensor<1x4x8x8xf32> -> tensor<1x4x4x4xf32>
  %pi = nn.max_pool2d %i kernel [3, 3] stride [2, 2] padding [1, 1] : tensor<2x2x5x5xi32> -> tensor<2x2x3x3xi32>
  %q = nn.avg_pool2d %y kernel [3, 3] stride [1, 1] padding [1, 1] : tensor<1x4x8x8xf32>
  return
}

// bf16 is a float type of nn: constants, arithmetic, matmul, casts.
// CHECK-LABEL: func.func @bfloat16
// CHECK-NEXT:    %k = nn.constant dense<[1.500000e+00, -2.000000e+00]> : tensor<2xbf16>
// CHECK-NEXT:    %e = nn.exp %a : tensor<4x2xbf16>
// CHECK-NEXT:    %m = nn.matmul %e, %b : tensor<4x2xbf16>, tensor<2x3xbf16> -> tensor<4x3xbf16>
// CHECK-NEXT:    %s = nn.add %e, %k : tensor<4x2xbf16>, tensor<2xbf16> -> tensor<4x2xbf16>
// CHECK-NEXT:    %h = nn.cast %m : tensor<4x3xbf16> -> tensor<4x3xf16>
// CHECK-NEXT:    func.return %s, %h : tensor<4x2xbf16>, tensor<4x3xf16>
func.func @bfloat16(%a: tensor<4x2xbf16>, %b: tensor<2x3xbf16>) -> (tensor<4x2xbf16>, tensor<4x3xf16>) {
  %k = nn.constant dense<[1.5, -2.0]> : tensor<2xbf16>
  %e = nn.exp %a : tensor<4x2xbf16>
  %m = nn.matmul %e, %b : tensor<4x2xbf16>, tensor<2x3xbf16> -> tensor<4x3xbf16>
  %s = nn.add %e, %k : tensor<4x2xbf16>, tensor<2xbf16> -> tensor<4x2xbf16>
  %h = nn.cast %m : tensor<4x3xbf16> -> tensor<4x3xf16>
  return %s, %h : tensor<4x2xbf16>, tensor<4x3xf16>
}
