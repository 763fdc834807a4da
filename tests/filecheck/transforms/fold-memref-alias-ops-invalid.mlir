// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p fold-memref-alias-ops

// Index 4 is past the 4-element view: folded, the load would silently read
// element 5 of the source instead of failing.

func.func @out_of_bounds(%m: memref<8xf32>) -> f32 {
  %c4 = arith.constant 4 : index
  %s = memref.subview %m[1] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: 1>>
  // expected-error @+1 {{'memref.load' op fold-memref-alias-ops refuses index 4, out of bounds of dimension 0 (size 4) of the view it accesses}}
  %x = memref.load %s[%c4] : memref<4xf32, strided<[1], offset: 1>>
  return %x : f32
}
