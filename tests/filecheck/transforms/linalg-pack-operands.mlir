// RUN: irkit-opt %s --split-input-file -p 'linalg-pack-operands{cache-tile-sizes=12,32,4 vector-bits=256 vector-registers=16}' | filecheck %s

// A 20x10 by 10x36 matmul on AVX2 (6x16 register tiles), cache tiles of
// 12x32x4: rows peel into [0, 12) (cache tiles), [12, 18) (one register
// tile's rows) and a tail [18, 20); columns into [0, 32) and a tail
// [32, 36); K into [0, 8) (K steps of 4) and [8, 10). Each cache tile packs
// both operands into one aligned stack buffer and runs 6x16 micro-kernels.

// CHECK-LABEL: func.func @peeled
// CHECK:         scf.for %[[K:.*]] = %c0 to %c8 step %c4 {
// CHECK:           %[[PACKED:.*]] = memref.alloca() {alignment = 64 : i64} : memref<176xf32>
// CHECK:           %[[LHS_FLAT:.*]] = memref.subview %[[PACKED]][0] [48] [1]
// CHECK:           %[[LHS:.*]] = memref.expand_shape %[[LHS_FLAT]] {{\[}}[0, 1, 2]] output_shape [2, 4, 6]
// CHECK:           %[[RHS_FLAT:.*]] = memref.subview %[[PACKED]][48] [128] [1]
// CHECK:           %[[RHS:.*]] = memref.expand_shape %[[RHS_FLAT]] {{\[}}[0, 1, 2]] output_shape [2, 4, 16]
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:        outs(%[[LHS]] : memref<2x4x6xf32, strided<[24, 6, 1]>>)
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:        outs(%[[RHS]] : memref<2x4x16xf32, strided<[64, 16, 1], offset: 48>>)
// CHECK:           %[[OUT:.*]] = memref.expand_shape %{{.*}} {{\[}}[0, 1], [2, 3]] output_shape [2, 6, 2, 16]
// CHECK:           scf.parallel (%[[N0:.*]], %[[M0:.*]]) =
// CHECK:             memref.subview %[[LHS]][%[[M0]], 0, 0] [1, 4, 6] [1, 1, 1]
// CHECK:             memref.subview %[[RHS]][%[[N0]], 0, 0] [1, 4, 16] [1, 1, 1]
// CHECK:             memref.subview %[[OUT]][%[[M0]], 0, %[[N0]], 0] [1, 6, 1, 16] [1, 1, 1, 1]
// CHECK:             linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:          attrs = {irkit.register_tile}
// The K remainder of the same rows and columns, after the K steps.
// CHECK:         memref.subview %{{.*}}[0, 8] [12, 2] [1, 1]
// CHECK:         memref.alloca() {alignment = 64 : i64} : memref<96xf32>
// The tail columns [32, 36) stay a plain contraction, over the whole K.
// CHECK:         %[[TAIL_B:.*]] = memref.subview %{{.*}}[0, 32] [10, 4] [1, 1]
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %[[TAIL_B]] : memref<12x10xf32, strided<[10, 1]>>, memref<10x4xf32, strided<[36, 1], offset: 32>>)
// CHECK-NOT:       irkit.register_tile
// CHECK:         linalg.yield
// The tail rows [18, 20).
// CHECK:         memref.subview %{{.*}}[18, 0] [2, 10] [1, 1]
// CHECK-NOT:     linalg.generic {{.*}}d0, d1, d2, d3, d4) -> (d1, d4, d2)
// CHECK:         return
func.func @peeled(%a: memref<20x10xf32>, %b: memref<10x36xf32>, %c: memref<20x36xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<20x10xf32>, memref<10x36xf32>) outs(%c : memref<20x36xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transposed rhs (`a @ b^T`, as torch-mlir's linear layers read weights)
// is packed through the transposed map: its rows are the columns.

// CHECK-LABEL: func.func @transposed_rhs
// CHECK:         memref.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [2, 16, 4]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:         irkit.register_tile
func.func @transposed_rhs(%a: memref<12x4xf32>, %b: memref<32x4xf32>, %c: memref<12x32xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<12x4xf32>, memref<32x4xf32>) outs(%c : memref<12x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: fewer rows than a register tile, a dynamic shape, a batch
// matmul, an elementwise op.

// CHECK-LABEL: func.func @rejected
// CHECK-NOT:     memref.alloca
// CHECK-NOT:     irkit.register_tile
// CHECK:         return
func.func @rejected(%a: memref<4x8xf32>, %b: memref<8x32xf32>, %c: memref<4x32xf32> {irkit.output}, %d: memref<?x8xf32>, %e: memref<?x32xf32> {irkit.output}, %x: memref<2x12x8xf32>, %y: memref<2x8x32xf32>, %z: memref<2x12x32xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<4x8xf32>, memref<8x32xf32>) outs(%c : memref<4x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%d, %b : memref<?x8xf32>, memref<8x32xf32>) outs(%e : memref<?x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %y : memref<2x12x8xf32>, memref<2x8x32xf32>) outs(%z : memref<2x12x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
