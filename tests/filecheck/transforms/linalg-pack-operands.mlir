// RUN: irkit-opt %s --split-input-file -p 'linalg-pack-operands{cache-tile-sizes=12,32,4 vector-bits=256 vector-registers=16}' | filecheck %s

// A 20x10 by 10x35 matmul on AVX2 (6x16 register tiles), blocks of
// MC = 12 rows, NC = 32 columns, KC = 4: rows peel into [0, 12) (one row
// block), [12, 18) (one register tile's rows) and a tail [18, 20), which
// runs 2x16 micro-kernels of its own; columns into [0, 32) and a tail
// [32, 35) (not whole vectors of 8 nor of 4 floats: a plain contraction). A's rows are
// packed once, for the whole K, into one aligned heap buffer; B is read in
// place (20 rows are too few to repay packing it); one parallel loop over
// column chunks of 16; K steps of 4, then the K remainder [8, 10).

// CHECK-LABEL: func.func @peeled
// CHECK:         %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
// CHECK:         %[[A:.*]] = memref.subview %[[PACKED]][0] [256] [1]
// CHECK:         %[[LHS_FLAT:.*]] = memref.subview %[[A]][0] [120] [1]
// CHECK:         %[[LHS:.*]] = memref.expand_shape %[[LHS_FLAT]] {{\[}}[0, 1, 2]] output_shape [2, 10, 6]
// CHECK:         scf.parallel
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK:         scf.parallel (%[[CHUNK:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// CHECK:           %[[B:.*]] = memref.subview %{{.*}}[0, %[[CHUNK]]] [10, 16] [1, 1]
// CHECK:           %[[RHS:.*]] = memref.expand_shape %[[B]] {{\[}}[0], [1, 2]] output_shape [10, 1, 16]
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:             memref.subview %{{.*}}[0, %[[K]], 0] [2, 4, 6] [1, 1, 1]
// CHECK:             memref.subview %[[RHS]][%[[K]], 0, 0] [4, 1, 16] [1, 1, 1]
// CHECK:             scf.parallel (%[[M0:.*]]) =
// CHECK:               linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d0, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
// CHECK-SAME:            attrs = {irkit.register_tile}
// The K remainder, after the K steps.
// CHECK:           memref.subview %{{.*}}[0, 8, 0] [2, 2, 6] [1, 1, 1]
// CHECK:           memref.subview %[[RHS]][8, 0, 0] [2, 1, 16] [1, 1, 1]
// CHECK:           irkit.register_tile
// The rows [12, 18): 6x16 micro-kernels.
// CHECK:         memref.subview %{{.*}}[12, 0] [6, 10] [1, 1]
// CHECK:         output_shape [1, 10, 6]
// CHECK:         irkit.register_tile
// The tail rows [18, 20): 2x16 micro-kernels, A packed in panels of 2 rows.
// CHECK:         memref.subview %{{.*}}[18, 0] [2, 10] [1, 1]
// CHECK:         output_shape [1, 10, 2]
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<1x4x2xf32, {{.*}}>, memref<4x1x16xf32, {{.*}}>) outs(%{{.*}} : memref<1x2x1x16xf32, {{.*}}>) attrs = {irkit.register_tile}
// The tail columns [32, 35) of each row region stay plain contractions,
// over the whole K, after the packed columns.
// CHECK:         %[[TAIL_B:.*]] = memref.subview %{{.*}}[0, 32] [10, 3] [1, 1]
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%{{.*}}, %[[TAIL_B]] : memref<12x10xf32, strided<[10, 1]>>, memref<10x3xf32, strided<[35, 1], offset: 32>>)
// CHECK-NOT:       irkit.register_tile
// CHECK:         linalg.yield
// CHECK:         memref.dealloc %[[PACKED]]
// CHECK:         return
func.func @peeled(%a: memref<20x10xf32>, %b: memref<10x35xf32>, %c: memref<20x35xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<20x10xf32>, memref<10x35xf32>) outs(%c : memref<20x35xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}


// -----

// A transposed rhs (`a @ b^T`, as torch-mlir's linear layers read weights)
// is packed through the transposed map: its rows are the columns. B is
// packed once, after A in the same buffer (A's 80 elements rounded up to
// 128), and read by all three row regions ([0, 12), [12, 18), [18, 20)).

// CHECK-LABEL: func.func @transposed_rhs
// CHECK:         %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<256xf32>
// CHECK:         %[[B_FLAT:.*]] = memref.subview %[[PACKED]][128] [128] [1]
// CHECK:         memref.expand_shape %{{.*}} {{\[}}[0, 1], [2]] output_shape [2, 16, 4]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-NOT:     output_shape [2, 16, 4]
// CHECK:         linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3)>]
// CHECK-SAME:      irkit.register_tile
// CHECK-NOT:     output_shape [2, 16, 4]
// CHECK:         memref.dealloc %[[PACKED]]
func.func @transposed_rhs(%a: memref<20x4xf32>, %b: memref<32x4xf32>, %c: memref<20x32xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<20x4xf32>, memref<32x4xf32>) outs(%c : memref<20x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A batch matmul of 8 matrices (attention's products): one matrix per
// parallel iteration, each on rank-reducing views of the operands and its
// own part of the buffer; its packing copies are not tiled into parallel
// loops (the micro-kernels' loop is nested in the batch loop, which alone
// OpenMP runs in parallel).

// CHECK-LABEL: func.func @batch
// CHECK:         %[[PACKED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5120xf32>
// CHECK:         scf.parallel (%[[B:.*]]) =
// CHECK:           %[[BASE:.*]] = arith.muli %[[B]], %{{.*}} : index
// CHECK:           memref.subview %[[PACKED]][%[[BASE]]] [640] [1]
// CHECK:           memref.subview %arg0[%[[B]], 0, 0] [1, 30, 20] [1, 1, 1] : memref<8x30x20xf32> to memref<30x20xf32, strided<[20, 1], offset: ?>>
// CHECK:           memref.subview %arg1[%[[B]], 0, 0] [1, 20, 40] [1, 1, 1] : memref<8x20x40xf32> to memref<20x40xf32, strided<[40, 1], offset: ?>>
// CHECK:           linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:        outs(%{{.*}} : memref<4x20x6xf32, strided<[120, 6, 1], offset: ?>>)
// CHECK:           irkit.register_tile
// CHECK:         memref.dealloc %[[PACKED]]
func.func @batch(%arg0: memref<8x30x20xf32>, %arg1: memref<8x20x40xf32>, %arg2: memref<8x30x40xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<8x30x20xf32>, memref<8x20x40xf32>) outs(%arg2 : memref<8x30x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two images of a convolution as im2col makes it: the weights (12 x 9) are
// shared by the batch (their map has no batch loop). Two matrices are too
// few to run one per thread: a sequential loop over them, each product's
// loops in parallel.

// CHECK-LABEL: func.func @shared_weights
// CHECK:         scf.for %[[B:.*]] =
// CHECK:           memref.subview %arg0[0, 0] [12, 9] [1, 1] : memref<12x9xf32> to memref<12x9xf32, strided<[9, 1], offset: ?>>
// CHECK:           memref.subview %arg1[%[[B]], 0, 0] [1, 9, 32] [1, 1, 1]
// CHECK:           scf.parallel
// CHECK:           irkit.register_tile
func.func @shared_weights(%arg0: memref<12x9xf32>, %arg1: memref<2x9x32xf32>, %arg2: memref<2x12x32xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : memref<12x9xf32>, memref<2x9x32xf32>) outs(%arg2 : memref<2x12x32xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: fewer rows than a register tile, a dynamic shape, a batch
// loop the output reads last (the output's last two loops are its rows and
// columns), an elementwise op.

// CHECK-LABEL: func.func @rejected
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     irkit.register_tile
// CHECK:         return
func.func @rejected(%a: memref<4x8xf32>, %b: memref<8x32xf32>, %c: memref<4x32xf32> {irkit.output}, %d: memref<?x8xf32>, %e: memref<?x32xf32> {irkit.output}, %x: memref<2x12x8xf32>, %y: memref<2x8x32xf32>, %z: memref<12x32x2xf32> {irkit.output}) {
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
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d2, d0)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %y : memref<2x12x8xf32>, memref<2x8x32xf32>) outs(%z : memref<12x32x2xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A column tail of whole 128-bit vectors (4 floats of AVX2's 8 lanes) runs
// micro-kernels of its columns: 6 rows x (16 + 4) columns.

// CHECK-LABEL: func.func @narrow_column_tail
// CHECK:         memref.subview %{{.*}}[0, 16] [3, 4] [1, 1]
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : memref<1x6x1x4xf32, {{.*}}>) attrs = {irkit.register_tile}
func.func @narrow_column_tail(%a: memref<6x3xf32>, %b: memref<3x20xf32>, %c: memref<6x20xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<6x3xf32>, memref<3x20xf32>) outs(%c : memref<6x20xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A column tail that no vector divides (7 columns on AVX2) is split: its
// first 4 columns (a 128-bit vector) run micro-kernels of their own, the
// last 3 stay a plain contraction: 6 rows x (16 + 4 + 3) columns.

// CHECK-LABEL: func.func @split_column_tail
// CHECK:         memref.subview %{{.*}}[0, 16] [3, 4] [1, 1]
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : memref<1x6x1x4xf32, {{.*}}>) attrs = {irkit.register_tile}
// CHECK:         %[[REST:.*]] = memref.subview %c[0, 20] [6, 3] [1, 1]
// CHECK:         linalg.generic {{.*}} outs(%[[REST]] : memref<6x3xf32, {{.*}}>) {
func.func @split_column_tail(%a: memref<6x3xf32>, %b: memref<3x23xf32>, %c: memref<6x23xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<6x3xf32>, memref<3x23xf32>) outs(%c : memref<6x23xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
