// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu' | filecheck %s
// RUN: irkit-opt %s --split-input-file --check-semantics=3 -p 'linalg-tile-for-gpu' > /dev/null

// Ops a whole block runs (inside a block forall, in no thread forall, as
// linalg-fuse-attention leaves them) are spread over the block's threads
// only, as the block forall asks (irkit.block_threads = [2, 16], y and x):
// the innermost loop over 16 threads x, the next over 2 along y,
// cyclically (thread (t0, t1) takes rows t0, t0 + 2, ...). The matmul's
// thread tile (4x1) accumulates in a memref.alloca, copied in and out; the
// row max, with one loop, spreads its rows over threads x.

// CHECK-LABEL: func.func @block_level
// CHECK:         scf.forall (%{{.*}}) in (2) {
// CHECK-NEXT:      scf.forall (%[[T0:.*]], %[[T1:.*]]) in (2, 16) {
// CHECK-NEXT:        %[[A:.*]] = memref.subview %a[%[[T0]], 0] [4, 4] [2, 1]
// CHECK-NEXT:        %[[B:.*]] = memref.subview %b[0, %[[T1]]] [4, 1] [1, 16]
// CHECK-NEXT:        %[[C:.*]] = memref.subview %c[%[[T0]], %[[T1]]] [4, 1] [2, 16]
// CHECK-NEXT:        %[[ACC:.*]] = memref.alloca() : memref<4x1xf32>
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[C]] : {{.*}}) outs(%[[ACC]] : memref<4x1xf32>)
// CHECK:             linalg.generic {{.*}} ins(%[[A]], %[[B]] : {{.*}}) outs(%[[ACC]] : memref<4x1xf32>)
// CHECK:             linalg.generic {{.*}} ins(%[[ACC]] : memref<4x1xf32>) outs(%[[C]] : {{.*}})
// CHECK:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:      scf.forall (%[[R:.*]]) in (8) {
// CHECK-NEXT:        memref.subview %c[%[[R]], 0] [1, 16] [8, 1]
// CHECK-NEXT:        memref.subview %r[%[[R]]] [1] [8]
// CHECK-NEXT:        linalg.generic
// CHECK:           } {mapping = [#gpu.thread<x>]}
// CHECK-NEXT:    } {irkit.block_threads = [2 : index, 16 : index], mapping = [#gpu.block<x>]}
func.func @block_level(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>, %r: memref<8xf32>) {
  scf.forall (%t) in (2) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%c : memref<8x16xf32>) outs(%r : memref<8xf32>) {
    ^bb0(%x: f32, %acc: f32):
      %m = arith.maximumf %x, %acc : f32
      linalg.yield %m : f32
    }
  } {irkit.block_threads = [2 : index, 16 : index], mapping = [#gpu.block<x>]}
  return
}

// -----

// The matmul's fill, block-level too, runs in the matmul's thread forall:
// each thread fills its accumulator (no copy in), and no thread forall of
// its own is left for the fill.

// CHECK-LABEL: func.func @filled
// CHECK:         scf.forall (%{{.*}}) in (2) {
// CHECK-NEXT:      scf.forall (%{{.*}}, %{{.*}}) in (2, 16) {
// CHECK:             %[[ACC:.*]] = memref.alloca() : memref<4x1xf32>
// CHECK-NEXT:        linalg.generic {{.*}} ins(%zero : f32) outs(%[[ACC]] : memref<4x1xf32>)
// CHECK:             linalg.generic {{.*}} outs(%[[ACC]] : memref<4x1xf32>)
// CHECK:             linalg.generic {{.*}} ins(%[[ACC]] : memref<4x1xf32>)
// CHECK:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:    } {irkit.block_threads
func.func @filled(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32>) {
  %zero = arith.constant 0.0 : f32
  scf.forall (%t) in (2) {
    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%zero : f32) outs(%c : memref<8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    }
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
  } {irkit.block_threads = [2 : index, 16 : index], mapping = [#gpu.block<x>]}
  return
}
