// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=32,32,8 matmul-thread=4,4 matmul-cyclic=true}' --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=32,32,8 matmul-thread=4,4 fuse-neighbours=false}' | filecheck %s --check-prefix=APART
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=2,2,2 matmul-thread=1,1}' --check-semantics | filecheck %s --check-prefix=SMALL

// A linear layer as bufferize leaves it: the fill of the product, the
// matmul (its weight read transposed), and bias + ReLU into a new buffer.
// One grid: the fill's thread nest before the K loop, the epilogue's after
// it, each thread taking the elements it owns in the matmul (cyclic: offsets
// [t0, t1], strides [8, 8]). The epilogue's output allocation moves before
// the grid; the dealloc of the product stays after it. (The copy to the
// output is a grid of its own: it follows the dealloc.)

// CHECK-LABEL: func.func @linear
// CHECK:         %c = memref.alloc() : memref<64x64xf32>
// CHECK-NEXT:    %d = memref.alloc() : memref<64x64xf32>
// CHECK:         scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (64, 64) step (32, 32) {
// CHECK:           %[[C0:.*]] = memref.subview %c[%[[I]], %[[J]]] [32, 32] [1, 1]
// CHECK-NEXT:      scf.forall (%[[T0:.*]], %[[T1:.*]]) in (8, 8) {
// CHECK-NEXT:        %[[FILLED:.*]] = memref.subview %[[C0]][%[[T0]], %[[T1]]] [4, 4] [8, 8]
// CHECK-NEXT:        linalg.generic {{.*}} ins(%zero : f32) outs(%[[FILLED]]
// CHECK:           scf.for
// CHECK:             scf.forall
// CHECK:               linalg.generic {{.*}}"reduction"
// CHECK:           %[[CE:.*]] = memref.subview %c[%[[I]], %[[J]]] [32, 32] [1, 1]
// CHECK-NEXT:      %[[BIAS:.*]] = memref.subview %bias[%[[J]]] [32] [1]
// CHECK-NEXT:      %[[DE:.*]] = memref.subview %d[%[[I]], %[[J]]] [32, 32] [1, 1]
// CHECK-NEXT:      scf.forall (%[[E0:.*]], %[[E1:.*]]) in (8, 8) {
// CHECK-NEXT:        memref.subview %[[CE]][%[[E0]], %[[E1]]] [4, 4] [8, 8]
// CHECK-NEXT:        memref.subview %[[BIAS]][%[[E1]]] [4] [8]
// CHECK-NEXT:        memref.subview %[[DE]][%[[E0]], %[[E1]]] [4, 4] [8, 8]
// CHECK-NEXT:        linalg.generic
// CHECK:             arith.maximumf
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NEXT:    memref.dealloc %c
// CHECK-NEXT:    scf.forall
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<1x1xf32, {{.*}}>) outs(

// APART-LABEL: func.func @linear
// APART-COUNT-3: {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @linear(%x: memref<64x16xf32>, %w: memref<64x16xf32>, %bias: memref<64xf32>, %out: memref<64x64xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<64x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : memref<64x16xf32>, memref<64x16xf32>) outs(%c : memref<64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %d = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<64x64xf32>, memref<64xf32>) outs(%d : memref<64x64xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %t = arith.addf %v, %bv : f32
    %cst = arith.constant 0.0 : f32
    %r = arith.maximumf %t, %cst : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<64x64xf32>
  memref.copy %d, %out : memref<64x64xf32> to memref<64x64xf32>
  return
}

// -----

// Not fused: the epilogue writes the matmul's input `%h` in place (other
// blocks still read it), or reads the product transposed (another thread's
// elements), or an op that touches memory sits between. Each runs in a grid
// of its own (fill and matmul share one; the first function's two copies
// have grids of their own too).

// CHECK-LABEL: func.func @epilogue_writes_an_input
// CHECK-COUNT-4: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     #gpu.block
// CHECK-LABEL: func.func @epilogue_reads_transposed
// CHECK-COUNT-2: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     #gpu.block
// CHECK-LABEL: func.func @store_between
// CHECK-COUNT-2: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     #gpu.block
func.func @epilogue_writes_an_input(%x: memref<16x16xf32>, %out: memref<16x16xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %h = memref.alloc() : memref<16x16xf32>
  memref.copy %x, %h : memref<16x16xf32> to memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<16x16xf32>)
  linalg.matmul ins(%h, %x : memref<16x16xf32>, memref<16x16xf32>) outs(%out : memref<16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%out : memref<16x16xf32>) outs(%h : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%h : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
func.func @epilogue_reads_transposed(%x: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%x, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}
func.func @store_between(%x: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %i = arith.constant 0 : index
  %c = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32>)
  linalg.matmul ins(%x, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  memref.store %zero, %c[%i, %i] : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Not fused: the epilogue writes another view of the product's buffer (one
// row down): each thread would overwrite elements another thread owns. (The
// whole output's fill, the product's fill with the matmul, the epilogue.)

// CHECK-LABEL: func.func @epilogue_writes_a_shifted_view
// CHECK-COUNT-3: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     #gpu.block
func.func @epilogue_writes_a_shifted_view(%x: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<17x16xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %c = memref.subview %out[0, 0] [16, 16] [1, 1] : memref<17x16xf32> to memref<16x16xf32, strided<[16, 1]>>
  %shifted = memref.subview %out[1, 0] [16, 16] [1, 1] : memref<17x16xf32> to memref<16x16xf32, strided<[16, 1], offset: 16>>
  linalg.fill ins(%zero : f32) outs(%out : memref<17x16xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<16x16xf32, strided<[16, 1]>>)
  linalg.matmul ins(%x, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32, strided<[16, 1]>>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c : memref<16x16xf32, strided<[16, 1]>>) outs(%shifted : memref<16x16xf32, strided<[16, 1], offset: 16>>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// Not fused: a prologue that reads a buffer freed between it and the
// matmul (fused, it would run after the deallocation).

// CHECK-LABEL: func.func @prologue_reads_a_freed_buffer
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : memref<1x1xf32, {{.*}}>) outs(
// CHECK:       } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK:         memref.dealloc %t
// CHECK:       } {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @prologue_reads_a_freed_buffer(%x: memref<16x16xf32>, %w: memref<16x16xf32>, %out: memref<16x16xf32> {irkit.output}) {
  %t = memref.alloc() : memref<16x16xf32>
  memref.copy %x, %t : memref<16x16xf32> to memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%t : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  }
  memref.dealloc %t : memref<16x16xf32>
  linalg.matmul ins(%x, %w : memref<16x16xf32>, memref<16x16xf32>) outs(%out : memref<16x16xf32>)
  return
}

// -----

// The epilogue reads the corner of a product padded from 5 to 8 rows. In
// 32x32 tiles every block holds some of the corner; in 2x2 tiles (SMALL)
// the blocks of rows 6 and 7 hold none of it (a tile of 5 - 6 rows): their
// epilogue tile is empty, `max(0, min(2, 5 - row))` rows, and the epilogue
// is fused all the same.

// CHECK-LABEL: func.func @padded_product
// CHECK-COUNT-1: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     #gpu.block
// SMALL-LABEL: func.func @padded_product
// SMALL:         %[[ROWS:.*]] = affine.min affine_map<(d0) -> (2, -d0 + 5)>
// SMALL:         affine.max affine_map<(d0) -> (0, d0)>(%[[ROWS]])
// SMALL-COUNT-1: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// SMALL-NOT:     #gpu.block
func.func @padded_product(%x: memref<8x4xf32>, %w: memref<4x8xf32>, %out: memref<5x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<8x8xf32>
  %corner = memref.subview %c[0, 0] [5, 8] [1, 1] : memref<8x8xf32> to memref<5x8xf32, strided<[8, 1]>>
  linalg.fill ins(%zero : f32) outs(%c : memref<8x8xf32>)
  linalg.matmul ins(%x, %w : memref<8x4xf32>, memref<4x8xf32>) outs(%c : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%corner : memref<5x8xf32, strided<[8, 1]>>) outs(%out : memref<5x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %n = arith.negf %v : f32
    linalg.yield %n : f32
  }
  memref.dealloc %c : memref<8x8xf32>
  return
}
