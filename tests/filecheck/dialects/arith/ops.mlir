// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// arith ops irkit adds, and hexadecimal float literals: in a dense
// attribute, as in a scalar one, `0xFF800000 : f32` is a bit pattern (-inf).

// CHECK-LABEL: func.func @hex_floats
// CHECK-NEXT:    %a = arith.constant dense<0xff800000> : tensor<2xf32>
// CHECK-NEXT:    %b = arith.constant dense<0xfff0000000000000> : tensor<2xf64>
// CHECK-NEXT:    %c = arith.constant dense<0xfc00> : tensor<2xf16>
// CHECK-NEXT:    %d = arith.constant dense<[0x7f800000, 1.500000e+00]> : tensor<2xf32>
// CHECK-NEXT:    %e = arith.constant 0xff800000 : f32
// CHECK-NEXT:    func.return %a, %b, %c, %d, %e : tensor<2xf32>, tensor<2xf64>, tensor<2xf16>, tensor<2xf32>, f32
func.func @hex_floats() -> (tensor<2xf32>, tensor<2xf64>, tensor<2xf16>, tensor<2xf32>, f32) {
  %a = arith.constant dense<0xFF800000> : tensor<2xf32>
  %b = arith.constant dense<0xFFF0000000000000> : tensor<2xf64>
  %c = arith.constant dense<0xFC00> : tensor<2xf16>
  %d = arith.constant dense<[0x7F800000, 1.5]> : tensor<2xf32>
  %e = arith.constant 0xFF800000 : f32
  return %a, %b, %c, %d, %e : tensor<2xf32>, tensor<2xf64>, tensor<2xf16>, tensor<2xf32>, f32
}

// CHECK-LABEL: func.func @added
// CHECK-NEXT:    %r = arith.remf %x, %x : f32
// CHECK-NEXT:    %j = arith.index_castui %i : i32 to index
// CHECK-NEXT:    func.return %r, %j : f32, index
func.func @added(%x: f32, %i: i32) -> (f32, index) {
  %r = arith.remf %x, %x : f32
  %j = arith.index_castui %i : i32 to index
  return %r, %j : f32, index
}
