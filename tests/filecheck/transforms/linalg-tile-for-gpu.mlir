// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=32,16,8 matmul-thread=4,2 elementwise-block=128}' | filecheck %s --check-prefix=SMALL
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=32,16,8 matmul-thread=4,2 elementwise-block=128 matmul-cyclic=true}' | filecheck %s --check-prefix=CYCLIC
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=64,64,8 matmul-thread=8,8 multiprocessors=8}' | filecheck %s --check-prefix=GRID

// Matmul class: a block forall over BMxBN tiles on blocks y, x, the BK
// reduction tile in an scf.for, block tiles, and a thread forall over
// TMxTN tiles of them (16x16 threads by default).

// CHECK-LABEL: func.func @matmul
// CHECK:       scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (128, 64) step (64, 64) {
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %c32 step %c16 {
// CHECK-NEXT:      %[[A:.*]] = memref.subview %a[%[[I]], %[[K]]] [64, 16] [1, 1]
// CHECK-NEXT:      %[[B:.*]] = memref.subview %b[%[[K]], %[[J]]] [16, 64] [1, 1]
// CHECK-NEXT:      %[[C:.*]] = memref.subview %c[%[[I]], %[[J]]] [64, 64] [1, 1]
// CHECK-NEXT:      scf.forall (%[[TI:.*]], %[[TJ:.*]]) = (0, 0) to (64, 64) step (4, 4) {
// CHECK-NEXT:        %[[TA:.*]] = memref.subview %[[A]][%[[TI]], 0] [4, 16] [1, 1]
// CHECK-NEXT:        %[[TB:.*]] = memref.subview %[[B]][0, %[[TJ]]] [16, 4] [1, 1]
// CHECK-NEXT:        %[[TC:.*]] = memref.subview %[[C]][%[[TI]], %[[TJ]]] [4, 4] [1, 1]
// CHECK-NEXT:        linalg.generic
// CHECK-SAME:          ins(%[[TA]], %[[TB]] : {{.*}}) outs(%[[TC]] : memref<4x4xf32, strided<[64, 1], offset: ?>>)
// CHECK:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:    }
// CHECK-NEXT:  } {mapping = [#gpu.block<y>, #gpu.block<x>]}

// Partial tiles: affine.min sizes, and the thread forall runs to the block
// tile's size.

// SMALL-LABEL: func.func @matmul
// SMALL:       scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (128, 64) step (32, 16) {
// SMALL:         scf.for %{{.*}} = %c0 to %c32 step %c8 {
// SMALL:           scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 16) step (4, 2) {
// SMALL:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}

// Cyclic thread tiles: one thread per forall iteration (32/4 x 16/2 = 8 x 8
// threads), thread (t0, t1) owning rows t0, t0 + 8, ... and columns t1,
// t1 + 8, ... of the block tile: strided subviews, the K dimension whole.

// CYCLIC-LABEL: func.func @matmul
// CYCLIC:       scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (128, 64) step (32, 16) {
// CYCLIC-NEXT:    scf.for %[[K:.*]] = %c0 to %c32 step %c8 {
// CYCLIC-NEXT:      %[[A:.*]] = memref.subview %a[%[[I]], %[[K]]] [32, 8] [1, 1]
// CYCLIC-NEXT:      %[[B:.*]] = memref.subview %b[%[[K]], %[[J]]] [8, 16] [1, 1]
// CYCLIC-NEXT:      %[[C:.*]] = memref.subview %c[%[[I]], %[[J]]] [32, 16] [1, 1]
// CYCLIC-NEXT:      scf.forall (%[[TI:.*]], %[[TJ:.*]]) in (8, 8) {
// CYCLIC-NEXT:        %[[TA:.*]] = memref.subview %[[A]][%[[TI]], 0] [4, 8] [8, 1] : memref<32x8xf32, strided<[32, 1], offset: ?>> to memref<4x8xf32, strided<[256, 1], offset: ?>>
// CYCLIC-NEXT:        %[[TB:.*]] = memref.subview %[[B]][0, %[[TJ]]] [8, 2] [1, 8] : memref<8x16xf32, strided<[64, 1], offset: ?>> to memref<8x2xf32, strided<[64, 8], offset: ?>>
// CYCLIC-NEXT:        %[[TC:.*]] = memref.subview %[[C]][%[[TI]], %[[TJ]]] [4, 2] [8, 8] : memref<32x16xf32, strided<[64, 1], offset: ?>> to memref<4x2xf32, strided<[512, 8], offset: ?>>
// CYCLIC-NEXT:        linalg.generic
// CYCLIC-SAME:          ins(%[[TA]], %[[TB]] : {{.*}}) outs(%[[TC]] : {{.*}})
// CYCLIC:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}

func.func @matmul(%a: memref<128x32xf32>, %b: memref<32x64xf32>, %c: memref<128x64xf32> {irkit.output}) {
  linalg.matmul ins(%a, %b : memref<128x32xf32>, memref<32x64xf32>) outs(%c : memref<128x64xf32>)
  return
}

// -----

// Partial cyclic tiles: the threads that own rows of a partial block tile
// are min(8, size) (the others get no iteration), and thread t0 owns
// (size - t0) ceildiv 8 of them.

// CYCLIC-LABEL: func.func @matmul_partial
// CYCLIC:       scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (40, 20) step (32, 16) {
// CYCLIC-NEXT:    %[[M:.*]] = affine.min affine_map<(d0) -> (32, -d0 + 40)>(%[[I]])
// CYCLIC-NEXT:    %[[N:.*]] = affine.min affine_map<(d0) -> (16, -d0 + 20)>(%[[J]])
// CYCLIC:         %[[TM:.*]] = affine.min affine_map<(d0) -> (8, d0)>(%[[M]])
// CYCLIC-NEXT:    %[[TN:.*]] = affine.min affine_map<(d0) -> (8, d0)>(%[[N]])
// CYCLIC-NEXT:    scf.forall (%[[TI:.*]], %[[TJ:.*]]) in (%[[TM]], %[[TN]]) {
// CYCLIC-NEXT:      %[[ROWS:.*]] = affine.apply affine_map<(d0)[s0] -> ((s0 - d0) ceildiv 8)>(%[[TI]])[%[[M]]]
// CYCLIC-NEXT:      %[[COLS:.*]] = affine.apply affine_map<(d0)[s0] -> ((s0 - d0) ceildiv 8)>(%[[TJ]])[%[[N]]]
// CYCLIC-NEXT:      memref.subview %{{.*}}[%[[TI]], 0] [%[[ROWS]], 8] [8, 1]
// CYCLIC-NEXT:      memref.subview %{{.*}}[0, %[[TJ]]] [8, %[[COLS]]] [1, 8]
// CYCLIC-NEXT:      memref.subview %{{.*}}[%[[TI]], %[[TJ]]] [%[[ROWS]], %[[COLS]]] [8, 8] : memref<?x?xf32, strided<[20, 1], offset: ?>> to memref<?x?xf32, strided<[160, 8], offset: ?>>
// CYCLIC:         } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}

func.func @matmul_partial(%a: memref<40x8xf32>, %b: memref<8x20xf32>, %c: memref<40x20xf32> {irkit.output}) {
  linalg.matmul ins(%a, %b : memref<40x8xf32>, memref<8x20xf32>) outs(%c : memref<40x20xf32>)
  return
}

// -----

// Batch matmul: the batch loop on blocks z, one batch per block.

// CHECK-LABEL: func.func @batch_matmul
// CHECK:       scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (3, 10, 6) step (1, 10, 6) {
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (10, 6) step (4, 4) {
// CHECK:           %{{.*}} = affine.min affine_map<(d0) -> (4, -d0 + 10)>
// CHECK:           linalg.generic
// CHECK:         } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:       } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}

// Cyclic, with block tiles clamped to 10x6 rows: 3x3 threads; 10 rows
// do not split evenly over 3 threads ((10 - t) ceildiv 3), 6 columns do (2).

// CYCLIC-LABEL: func.func @batch_matmul
// CYCLIC:       scf.forall (%[[T1:.*]], %[[T2:.*]]) in (3, 3) {
// CYCLIC-NEXT:    %[[ROWS:.*]] = affine.apply affine_map<(d0) -> ((-d0 + 10) ceildiv 3)>(%[[T1]])
// CYCLIC-NEXT:    memref.subview %{{.*}}[0, %[[T1]], 0] [1, %[[ROWS]], 5] [1, 3, 1]
// CYCLIC-NEXT:    memref.subview %{{.*}}[0, 0, %[[T2]]] [1, 5, 2] [1, 1, 3]
// CYCLIC-NEXT:    memref.subview %{{.*}}[0, %[[T1]], %[[T2]]] [1, %[[ROWS]], 2] [1, 3, 3]

func.func @batch_matmul(%a: memref<3x10x5xf32>, %b: memref<3x5x6xf32>, %c: memref<3x10x6xf32> {irkit.output}) {
  linalg.batch_matmul ins(%a, %b : memref<3x10x5xf32>, memref<3x5x6xf32>) outs(%c : memref<3x10x6xf32>)
  return
}

// -----

// Elementwise: the innermost dimension on blocks x and threads x (one
// element per thread), the outer one on blocks y; the last block is partial.

// SMALL-LABEL: func.func @add
// SMALL:       scf.forall (%[[R:.*]], %[[COL:.*]]) = (0, 0) to (3, 300) step (1, 128) {
// SMALL-NEXT:    %[[SIZE:.*]] = affine.min affine_map<(d0) -> (128, -d0 + 300)>(%[[COL]])
// SMALL-NEXT:    %[[A:.*]] = memref.subview %a[%[[R]], %[[COL]]] [1, %[[SIZE]]] [1, 1]
// SMALL:         scf.forall (%[[T:.*]]) in (%[[SIZE]]) {
// SMALL-NEXT:      memref.subview %[[A]][0, %[[T]]] [1, 1] [1, 1]
// SMALL:           linalg.generic
// SMALL:         } {mapping = [#gpu.thread<x>]}
// SMALL-NEXT:  } {mapping = [#gpu.block<y>, #gpu.block<x>]}

// Elementwise ops are not affected by matmul-cyclic.

// CYCLIC-LABEL: func.func @add
// CYCLIC:         scf.forall (%[[T:.*]]) in (%{{.*}}) {
// CYCLIC-NEXT:      memref.subview %{{.*}}[0, %[[T]]] [1, 1] [1, 1]

func.func @add(%a: memref<3x300xf32>, %b: memref<3x300xf32>, %c: memref<3x300xf32> {irkit.output}) {
  linalg.add ins(%a, %b : memref<3x300xf32>, memref<3x300xf32>) outs(%c : memref<3x300xf32>)
  return
}

// -----

// A row reduction: rows on threads, each thread reduces its row; a
// linalg.index counts from the whole op's origin (block + thread offsets).

// CHECK-LABEL: func.func @row_sum
// CHECK:       scf.forall (%[[R:.*]]) = (0) to (5) step (5) {
// CHECK:         scf.forall (%[[T:.*]]) in (5) {
// CHECK:           %[[ORIGIN:.*]] = arith.addi %[[R]], %[[T]] : index
// CHECK-NEXT:      linalg.generic
// CHECK-SAME:        iterator_types = ["parallel", "reduction"]
// CHECK:             %[[I:.*]] = linalg.index 0 : index
// CHECK-NEXT:        %{{.*}} = arith.addi %[[I]], %[[ORIGIN]] : index
// CHECK:         } {mapping = [#gpu.thread<x>]}
// CHECK:       } {mapping = [#gpu.block<x>]}

func.func @row_sum(%a: memref<5x6xf32>, %c: memref<5xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<5x6xf32>) outs(%c : memref<5xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %x, %f : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// No parallel loop: one block of one thread.

// CHECK-LABEL: func.func @sum
// CHECK:       scf.forall (%{{.*}}) in (1) {
// CHECK-NEXT:    scf.forall (%{{.*}}) in (1) {
// CHECK-NEXT:      linalg.generic {{.*}} ins(%a : memref<5x6xf32>) outs(%c : memref<f32>)
// CHECK:         } {mapping = [#gpu.thread<x>]}
// CHECK-NEXT:  } {mapping = [#gpu.block<x>]}

func.func @sum(%a: memref<5x6xf32>, %c: memref<f32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]} ins(%a : memref<5x6xf32>) outs(%c : memref<f32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A host copy becomes a linalg copy first, so that it runs in a kernel.

// CHECK-LABEL: func.func @copy
// CHECK-NOT:   memref.copy
// CHECK:       scf.forall
// CHECK:         scf.forall
// CHECK:           linalg.generic
// CHECK-NEXT:      ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:        linalg.yield %[[IN]] : f32

func.func @copy(%a: memref<5xf32>, %c: memref<5xf32> {irkit.output}) {
  memref.copy %a, %c : memref<5xf32> to memref<5xf32>
  return
}

// -----

// A window loop (d1 + d2) is not tiled: rows go to threads, and the input's
// window dimension stays whole in every tile.

// CHECK-LABEL: func.func @window
// CHECK:       scf.forall (%[[N:.*]]) = (0) to (2) step (2) {
// CHECK:         %[[X:.*]] = memref.subview %x[%[[N]], 0] [2, 6] [1, 1]
// CHECK:         scf.forall (%[[T:.*]]) in (2) {
// CHECK-NEXT:      memref.subview %[[X]][%[[T]], 0] [1, 6] [1, 1]
// CHECK:           linalg.generic
// CHECK-SAME:        ins(%{{.*}}, %k : {{.*}}, memref<3xf32>)

func.func @window(%x: memref<2x6xf32>, %k: memref<3xf32>, %o: memref<2x4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1 + d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %k : memref<2x6xf32>, memref<3xf32>) outs(%o : memref<2x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// multiprocessors=8 asks for 12 blocks (1.5 per multiprocessor): a 64x48
// matmul in 64x64 tiles of 8x8 thread tiles is one block of 48 threads.
// BN (48 whole) cannot halve to 32: that would leave a partial tile, whose
// accumulators stay in memory. BM halves to 32 and TN to 4 (the block
// keeps its threads): 2 blocks of whole tiles. Any further halving would
// leave fewer threads or thread tiles under 4 wide.

// GRID-LABEL: func.func @fills_the_grid
// GRID:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (64, 48) step (32, 48) {
// GRID:           scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (32, 48) step (8, 4) {
// GRID:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @fills_the_grid(%a: memref<64x16xf32>, %b: memref<16x48xf32>, %c: memref<64x48xf32> {irkit.output}) {
  linalg.matmul ins(%a, %b : memref<64x16xf32>, memref<16x48xf32>) outs(%c : memref<64x48xf32>)
  return
}

// -----

// A short innermost loop (64, a head dimension) leaves threads over: the
// next loop outward gives each block 4 rows, one per thread on y, so a
// block runs 4x64 = 256 threads (`elementwise-block`).

// CHECK-LABEL: func.func @short_rows
// CHECK:       scf.forall (%[[B0:.*]], %[[B1:.*]], %[[B2:.*]]) = (0, 0, 0) to (6, 8, 64) step (1, 4, 64) {
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) in (4, 64) {
// CHECK:         } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK:       } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @short_rows(%a: memref<6x8x64xf32>, %c: memref<6x8x64xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%a : memref<6x8x64xf32>) outs(%c : memref<6x8x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.negf %x : f32
    linalg.yield %y : f32
  }
  return
}
