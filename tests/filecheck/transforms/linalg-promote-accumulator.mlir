// RUN: irkit-opt %s --split-input-file -p linalg-promote-accumulator | filecheck %s
// RUN: irkit-opt %s --split-input-file -p linalg-promote-accumulator,convert-linalg-to-loops | filecheck %s --check-prefix=LOOPS

// A register tile of a matmul accumulates on the stack; lowered, the
// reduction loop runs outermost so the whole tile stays live across it.

// CHECK-LABEL: func.func @tile
// CHECK:         %[[ACC:.*]] = memref.alloca() : memref<4x16xf32>
// CHECK-NEXT:    memref.copy %[[C:.*]], %[[ACC]] : memref<4x16xf32, strided<[64, 1], offset: ?>> to memref<4x16xf32>
// CHECK-NEXT:    linalg.generic
// CHECK-SAME:      outs(%[[ACC]] : memref<4x16xf32>)
// CHECK:         memref.copy %[[ACC]], %[[C]] : memref<4x16xf32> to memref<4x16xf32, strided<[64, 1], offset: ?>>

// LOOPS-LABEL: func.func @tile
// LOOPS:         %[[ACC:.*]] = memref.alloca() : memref<4x16xf32>
// LOOPS-NOT:     scf.parallel
// LOOPS:         scf.for %[[K:.*]] = %c0 to %c32 step %c1 {
// LOOPS-NEXT:      scf.for %[[I:.*]] = %c0 to %c4 step %c1 {
// LOOPS-NEXT:        scf.for %[[J:.*]] = %c0 to %c16 step %c1 {
// LOOPS:               memref.store %{{.*}}, %[[ACC]][%[[I]], %[[J]]] : memref<4x16xf32>
func.func @tile(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32> {irkit.output}, %i: index, %j: index) {
  %ta = memref.subview %a[%i, 0] [4, 32] [1, 1] : memref<64x32xf32> to memref<4x32xf32, strided<[32, 1], offset: ?>>
  %tb = memref.subview %b[0, %j] [32, 16] [1, 1] : memref<32x64xf32> to memref<32x16xf32, strided<[64, 1], offset: ?>>
  %tc = memref.subview %c[%i, %j] [4, 16] [1, 1] : memref<64x64xf32> to memref<4x16xf32, strided<[64, 1], offset: ?>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ta, %tb : memref<4x32xf32, strided<[32, 1], offset: ?>>, memref<32x16xf32, strided<[64, 1], offset: ?>>) outs(%tc : memref<4x16xf32, strided<[64, 1], offset: ?>>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left in place: an output larger than max-elements, one that an input may
// alias (two plain arguments), and a dynamic (partial) tile.

// CHECK-LABEL: func.func @kept
// CHECK-NOT:     memref.alloca
func.func @kept(%a: memref<16x4xf32>, %b: memref<4x16xf32>, %c: memref<16x16xf32> {irkit.output}, %d: memref<4x4xf32>, %e: memref<4x4xf32>, %n: index) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<16x4xf32>, memref<4x16xf32>) outs(%c : memref<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%d, %d : memref<4x4xf32>, memref<4x4xf32>) outs(%e : memref<4x4xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %tc = memref.subview %c[0, 0] [%n, 4] [1, 1] : memref<16x16xf32> to memref<?x4xf32, strided<[16, 1]>>
  %ta = memref.subview %a[0, 0] [%n, 4] [1, 1] : memref<16x4xf32> to memref<?x4xf32, strided<[4, 1]>>
  %tb = memref.subview %b[0, 0] [4, 4] [1, 1] : memref<4x16xf32> to memref<4x4xf32, strided<[16, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ta, %tb : memref<?x4xf32, strided<[4, 1]>>, memref<4x4xf32, strided<[16, 1]>>) outs(%tc : memref<?x4xf32, strided<[16, 1]>>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
