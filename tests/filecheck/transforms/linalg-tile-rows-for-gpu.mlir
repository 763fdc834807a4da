// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-rows-for-gpu{reduction-block=4}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-rows-for-gpu{reduction-block=4 max-shared-bytes=0}' | filecheck %s --check-prefix=NOSHARED

// A row sum and the scaling that uses it: one block per row (8 rows), the
// fill in thread 0, the sum spread cyclically over 4 threads (every 4th of
// 10 elements: 3, 3, 2, 2), a workgroup tree of 2 steps, the row's initial
// value combined last; the sums never leave workgroup memory. Tree steps
// carry irkit.reduction_step (for gpu-shuffle-reductions).

// CHECK-LABEL: func.func @sum_then_scale
// CHECK-NOT:     memref.alloc() : memref<8xf32>
// CHECK:         scf.forall (%[[ROW:.*]]) in (8) {
// CHECK-NEXT:      %[[SUM:.*]] = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      scf.forall (%{{.*}}) in (1) {
// CHECK-NEXT:        linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%[[SUM]] : memref<1xf32, #gpu.address_space<workgroup>>)
// CHECK:           } {mapping = [#gpu.thread<x>]}
// CHECK-NEXT:      %[[XROW:.*]] = memref.subview %{{.*}}[%[[ROW]], 0] [1, 10] [1, 1] : memref<8x10xf32> to memref<1x10xf32, strided<[10, 1], offset: ?>>
// CHECK-NEXT:      %[[PARTIAL:.*]] = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      scf.forall (%[[T:.*]]) in (4) {
// CHECK-NEXT:        %[[ID:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:        memref.store %[[ID]], %[[PARTIAL]][%[[T]]]
// CHECK-NEXT:        %[[SHARE:.*]] = affine.apply affine_map<(d0) -> ((-d0 + 13) floordiv 4)>(%[[T]])
// CHECK-NEXT:        %[[XT:.*]] = memref.subview %[[XROW]][0, %[[T]]] [1, %[[SHARE]]] [1, 4] : memref<1x10xf32, strided<[10, 1], offset: ?>> to memref<1x?xf32, strided<[10, 4], offset: ?>>
// CHECK-NEXT:        %[[OWN:.*]] = memref.subview %[[PARTIAL]][%[[T]]] [1] [1]
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[XT]] : {{.*}}) outs(%[[OWN]] : {{.*}})
// CHECK:           } {mapping = [#gpu.thread<x>]}
// CHECK-NEXT:      scf.forall (%[[T2:.*]]) in (2) {
// CHECK-NEXT:        %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[O:.*]] = arith.addi %[[T2]], %[[C2]] : index
// CHECK-NEXT:        %[[MINE:.*]] = memref.load %[[PARTIAL]][%[[T2]]]
// CHECK-NEXT:        %[[THEIRS:.*]] = memref.load %[[PARTIAL]][%[[O]]]
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[THEIRS]], %[[MINE]] : f32
// CHECK-NEXT:        memref.store %[[S]], %[[PARTIAL]][%[[T2]]]
// CHECK-NEXT:      } {irkit.reduction_step = 2 : i64, mapping = [#gpu.thread<x>]}
// CHECK-NEXT:      scf.forall (%{{.*}}) in (1) {
// CHECK:           } {irkit.reduction_step = 1 : i64, mapping = [#gpu.thread<x>]}
// CHECK-NEXT:      scf.forall (%{{.*}}) in (1) {
// CHECK:             memref.load %[[PARTIAL]]
// CHECK-NEXT:        %[[INIT:.*]] = memref.load %[[SUM]]
// CHECK-NEXT:        %[[TOTAL:.*]] = arith.addf %{{.*}}, %[[INIT]] : f32
// CHECK-NEXT:        memref.store %[[TOTAL]], %[[SUM]]
// CHECK-NEXT:      } {mapping = [#gpu.thread<x>]}
// CHECK-NEXT:      %[[OROW:.*]] = memref.subview %{{.*}}[%[[ROW]], 0] [1, 10] [1, 1]
// CHECK-NEXT:      scf.forall (%[[T3:.*]]) in (4) {
// CHECK:             linalg.generic {{.*}} ins(%{{.*}}, %[[SUM]] : {{.*}}) outs(%{{.*}} : {{.*}})
// CHECK:           } {mapping = [#gpu.thread<x>]}
// CHECK:           memref.dealloc %[[SUM]]
// CHECK:         } {mapping = [#gpu.block<x>]}
// CHECK-NEXT:    return

// With no room in workgroup memory the sums stay in their global buffer.
// NOSHARED-LABEL: func.func @sum_then_scale
// NOSHARED:         %[[SUMS:.*]] = memref.alloc() : memref<8xf32>
// NOSHARED:         scf.forall
// NOSHARED:           memref.subview %[[SUMS]][%{{.*}}] [1] [1]
// NOSHARED:         memref.dealloc %[[SUMS]]
func.func @sum_then_scale(%x: memref<8x10xf32>, %out: memref<8x10xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%sums : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x10xf32>) outs(%sums : memref<8xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sums : memref<8x10xf32>, memref<8xf32>) outs(%out : memref<8x10xf32>) {
  ^bb0(%in: f32, %sum: f32, %o: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %sums : memref<8xf32>
  return
}

// -----

// Left alone: no reduction (elementwise ops keep linalg-tile-for-gpu's
// strategy), and a reduction whose combiner is not a known one.

// CHECK-LABEL: func.func @not_rows
// CHECK-NOT:     scf.forall
func.func @not_rows(%x: memref<4x6xf32>, %out: memref<4x6xf32> {irkit.output}, %r: memref<4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x6xf32>) outs(%out : memref<4x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x6xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.subf %acc, %in : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A reduction over the first dimension (loop 0 reduces) is not a row
// reduction: left alone.

// CHECK-LABEL: func.func @column_sum
// CHECK-NOT:     scf.forall
func.func @column_sum(%x: memref<4x6xf32>, %r: memref<6xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]} ins(%x : memref<4x6xf32>) outs(%r : memref<6xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two row groups side by side, of 1 and 2 rows (two layer_norms shrank to
// this, issue 23): the first group's sums become private to its block, so
// their dealloc, between the groups, goes with them; the second group leaves
// it alone (it moved it again: `Cannot detach a toplevel operation`).

// CHECK-LABEL: func.func @adjacent_groups
// CHECK:         scf.forall (%{{.*}}) in (1) {
// CHECK-NEXT:      %[[SUMS:.*]] = memref.alloc() : memref<1xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.dealloc %[[SUMS]]
// CHECK:         } {mapping = [#gpu.block<x>]}
// CHECK-NEXT:    %[[NINF:.*]] = arith.constant 0xff800000 : f32
// CHECK-NEXT:    scf.forall (%{{.*}}) in (2) {
// CHECK:         } {mapping = [#gpu.block<x>]}
// CHECK-NEXT:    func.return
func.func @adjacent_groups(%x: memref<1x4xf32>, %y: memref<2x4xf32>, %out: memref<1x4xf32> {irkit.output}, %max: memref<2xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %sums = memref.alloc() : memref<1xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%zero : f32) outs(%sums : memref<1xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x4xf32>) outs(%sums : memref<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sums : memref<1x4xf32>, memref<1xf32>) outs(%out : memref<1x4xf32>) {
  ^bb0(%in: f32, %sum: f32, %o: f32):
    %q = arith.divf %in, %sum : f32
    linalg.yield %q : f32
  }
  memref.dealloc %sums : memref<1xf32>
  %ninf = arith.constant 0xFF800000 : f32
  linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%ninf : f32) outs(%max : memref<2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%y : memref<2x4xf32>) outs(%max : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  }
  return
}
