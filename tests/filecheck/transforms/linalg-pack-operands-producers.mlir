// RUN: irkit-opt %s --split-input-file -p 'linalg-pack-operands{cache-tile-sizes=12,32,4 vector-bits=256 vector-registers=16}' --check-semantics | filecheck %s

// A batch matmul of 8 matrices (one per parallel iteration) whose columns
// a gather computes (a generic of no inputs writing a whole allocation, as
// the row-tiled im2col gather): the gather moves into the batch loop, one
// matrix's columns at a time, right before that matrix is packed, into the
// iteration's slot of a buffer of as many matrices as there are parallel
// iterations (here all 8; the gather's own allocation is gone); its
// `linalg.index` of the batch loop counts from the iteration's matrix.
// The weights, which no batch loop reads, are packed once before the loop.
// The deallocation of what it reads moves after the product.

// CHECK-LABEL: func.func @gathered
// CHECK-NOT:     memref.alloc() : memref<8x3x16xf32>
// CHECK:         %[[COL:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x3x16xf32>
// CHECK-NOT:     memref.dealloc %copy
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : memref<1x6x3xf32,
// CHECK:         scf.parallel (%[[B:.*]]) =
// CHECK-NOT:       memref.expand_shape %w
// CHECK:           %[[PART:.*]] = memref.subview %[[COL]][%[[B]], 0, 0] [1, 3, 16] [1, 1, 1]
// CHECK:           linalg.generic {{.*}} outs(%[[PART]] :
// CHECK:             %[[T:.*]] = linalg.index 0 : index
// CHECK:             %[[TB:.*]] = arith.addi %[[T]], %[[B]] : index
// CHECK:             memref.load %copy[%[[TB]],
// CHECK:           linalg.generic {{.*}} attrs = {irkit.register_tile}
// CHECK:         memref.dealloc %copy
func.func @gathered(%x: memref<8x3x20xf32>, %w: memref<6x3xf32>, %out: memref<8x6x16xf32> {irkit.output}) {
  %copy = memref.alloc() : memref<8x3x20xf32>
  memref.copy %x, %copy : memref<8x3x20xf32> to memref<8x3x20xf32>
  %col = memref.alloc() : memref<8x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%col : memref<8x3x16xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %k = linalg.index 1 : index
    %q = linalg.index 2 : index
    %c2 = arith.constant 2 : index
    %q2 = arith.addi %q, %c2 : index
    %v = memref.load %copy[%t, %k, %q2] : memref<8x3x20xf32>
    linalg.yield %v : f32
  }
  memref.dealloc %copy : memref<8x3x20xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<8x6x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %col : memref<6x3xf32>, memref<8x3x16xf32>) outs(%out : memref<8x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x3x16xf32>
  return
}

// -----

// A batch merged from two loops (as `linalg-collapse-dims` merges a
// row-tiled convolution's images and tiles): the gather's two leading
// loops are the batch index split back, row-major.

// CHECK-LABEL: func.func @merged_batch
// CHECK:         scf.parallel (%[[B:.*]]) =
// CHECK-DAG:       %[[TILE:.*]] = arith.remui %[[B]], %{{.*}} : index
// CHECK-DAG:       %[[IMAGE:.*]] = arith.divui %[[B]], %{{.*}} : index
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : memref<1x1x3x16xf32,
// CHECK:             %[[N:.*]] = linalg.index 0 : index
// CHECK:             arith.addi %[[N]], %[[IMAGE]] : index
// CHECK:             %[[T:.*]] = linalg.index 1 : index
// CHECK:             arith.addi %[[T]], %[[TILE]] : index
func.func @merged_batch(%x: memref<2x4x3x16xf32>, %w: memref<6x3xf32>, %out: memref<8x6x16xf32> {irkit.output}) {
  %col = memref.alloc() : memref<2x4x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%col : memref<2x4x3x16xf32>) {
  ^bb0(%o: f32):
    %n = linalg.index 0 : index
    %t = linalg.index 1 : index
    %k = linalg.index 2 : index
    %q = linalg.index 3 : index
    %v = memref.load %x[%n, %t, %k, %q] : memref<2x4x3x16xf32>
    linalg.yield %v : f32
  }
  %flat = memref.collapse_shape %col [[0, 1], [2], [3]] : memref<2x4x3x16xf32> into memref<8x3x16xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<8x6x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %flat : memref<6x3xf32>, memref<8x3x16xf32>) outs(%out : memref<8x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<2x4x3x16xf32>
  return
}

// -----

// More matrices (2 images x 20 tiles) than parallel iterations (16): 16
// workers, each running its run of matrices (`w * 40 / 16` to `(w + 1) *
// 40 / 16`) one after the other in its own slot of the columns, which
// hold 16 matrices, not 40.

// CHECK-LABEL: func.func @more_matrices_than_workers
// CHECK-NOT:     memref<2x20x3x16xf32>
// CHECK:         %[[SLOTS:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x1x3x16xf32>
// CHECK:         scf.parallel (%[[W:.*]]) =
// CHECK:           %[[FIRST:.*]] = arith.divui
// CHECK:           %[[LAST:.*]] = arith.divui
// CHECK:           scf.for %[[B:.*]] = %[[FIRST]] to %[[LAST]] step
// CHECK-DAG:         %[[TILE:.*]] = arith.remui %[[B]], %{{.*}} : index
// CHECK-DAG:         %[[IMAGE:.*]] = arith.divui %[[B]], %{{.*}} : index
// CHECK:             %[[SLOT:.*]] = memref.subview %[[SLOTS]][%[[W]], 0, 0, 0] [1, 1, 3, 16]
// CHECK:             linalg.generic {{.*}} outs(%[[SLOT]] :
// CHECK:             memref.subview %out[%[[IMAGE]], 0, %[[TILE]], 0] [1, 6, 1, 16]
// CHECK:             linalg.generic {{.*}} attrs = {irkit.register_tile}
// CHECK:         memref.dealloc %[[SLOTS]]
func.func @more_matrices_than_workers(%x: memref<2x3x20x20xf32>, %w: memref<6x3xf32>, %out: memref<2x6x20x16xf32> {irkit.output}) {
  %col = memref.alloc() : memref<2x20x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%col : memref<2x20x3x16xf32>) {
  ^bb0(%o: f32):
    %n = linalg.index 0 : index
    %t = linalg.index 1 : index
    %k = linalg.index 2 : index
    %q = linalg.index 3 : index
    %v = memref.load %x[%n, %k, %t, %q] : memref<2x3x20x20xf32>
    linalg.yield %v : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<2x6x20x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(n, t, f, q, k) -> (f, k)>, affine_map<(n, t, f, q, k) -> (n, t, k, q)>, affine_map<(n, t, f, q, k) -> (n, f, t, q)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%w, %col : memref<6x3xf32>, memref<2x20x3x16xf32>) outs(%out : memref<2x6x20x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<2x20x3x16xf32>
  return
}

// -----

// Left where it is: a gather whose source is written between it and the
// product (moving it would read the new values), one whose columns
// something else reads too, and one before a batch of 4 matrices (fewer
// than the 8 that run one per parallel iteration: the matrices run one
// after the other, each over all threads, and the gather stays one
// parallel loop).

// CHECK-LABEL: func.func @source_written_between
// CHECK:         linalg.generic {{.*}} outs(%col : memref<8x3x16xf32>)
// CHECK:         scf.parallel
func.func @source_written_between(%x: memref<8x3x16xf32>, %w: memref<6x3xf32>, %out: memref<8x6x16xf32> {irkit.output}) {
  %copy = memref.alloc() : memref<8x3x16xf32>
  memref.copy %x, %copy : memref<8x3x16xf32> to memref<8x3x16xf32>
  %col = memref.alloc() : memref<8x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%col : memref<8x3x16xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %k = linalg.index 1 : index
    %q = linalg.index 2 : index
    %v = memref.load %copy[%t, %k, %q] : memref<8x3x16xf32>
    linalg.yield %v : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%copy : memref<8x3x16xf32>)
  linalg.fill ins(%zero : f32) outs(%out : memref<8x6x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %col : memref<6x3xf32>, memref<8x3x16xf32>) outs(%out : memref<8x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x3x16xf32>
  memref.dealloc %copy : memref<8x3x16xf32>
  return
}

// CHECK-LABEL: func.func @read_twice
// CHECK:         linalg.generic {{.*}} outs(%col : memref<8x3x16xf32>)
// CHECK:         scf.parallel
func.func @read_twice(%x: memref<8x3x16xf32>, %w: memref<6x3xf32>, %out: memref<8x6x16xf32> {irkit.output}, %out2: memref<8x3x16xf32> {irkit.output}) {
  %col = memref.alloc() : memref<8x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%col : memref<8x3x16xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %k = linalg.index 1 : index
    %q = linalg.index 2 : index
    %v = memref.load %x[%t, %k, %q] : memref<8x3x16xf32>
    linalg.yield %v : f32
  }
  memref.copy %col, %out2 : memref<8x3x16xf32> to memref<8x3x16xf32>
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<8x6x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %col : memref<6x3xf32>, memref<8x3x16xf32>) outs(%out : memref<8x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x3x16xf32>
  return
}

// CHECK-LABEL: func.func @few_matrices
// CHECK:         linalg.generic {{.*}} outs(%col : memref<4x3x16xf32>)
// CHECK:         scf.for
func.func @few_matrices(%x: memref<4x3x16xf32>, %w: memref<6x3xf32>, %out: memref<4x6x16xf32> {irkit.output}) {
  %col = memref.alloc() : memref<4x3x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} outs(%col : memref<4x3x16xf32>) {
  ^bb0(%o: f32):
    %t = linalg.index 0 : index
    %k = linalg.index 1 : index
    %q = linalg.index 2 : index
    %v = memref.load %x[%t, %k, %q] : memref<4x3x16xf32>
    linalg.yield %v : f32
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<4x6x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %col : memref<6x3xf32>, memref<4x3x16xf32>) outs(%out : memref<4x6x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<4x3x16xf32>
  return
}

// -----

// The batch between the rows and the columns of the output (a row-tiled
// convolution writes F x T x Q, its result's layout): each matrix writes
// a strided F x Q view of the output at its tile.

// CHECK-LABEL: func.func @batch_inside_the_output
// CHECK:         scf.parallel (%[[B:.*]]) =
// CHECK:           memref.subview %out[0, %[[B]], 0] [6, 1, 16] [1, 1, 1] : memref<6x8x16xf32> to memref<6x16xf32, strided<[128, 1], offset: ?>>
// CHECK:           linalg.generic {{.*}} attrs = {irkit.register_tile}
func.func @batch_inside_the_output(%cols: memref<8x3x16xf32>, %w: memref<6x3xf32>, %out: memref<6x8x16xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<6x8x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %cols : memref<6x3xf32>, memref<8x3x16xf32>) outs(%out : memref<6x8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
