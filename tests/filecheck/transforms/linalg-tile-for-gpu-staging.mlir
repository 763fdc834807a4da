// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,2 matmul-cyclic=true}' --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,2 fuse-producers=false}' | filecheck %s --check-prefix=APART
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,2 max-shared-bytes=16}' | filecheck %s --check-prefix=BUDGET

// A 1-D convolution as im2col leaves it: the gather `col[k, p] = x[p + k]`
// (taps k, output pixels p), zero past the 6 real taps (K padded to 8), and
// the matmul `w (8x8) @ col (8x8)`. The gather runs in the matmul's K loop,
// into a 2x4 workgroup buffer (the K step by the block's pixels), on the
// block's 2x2 threads, the pixels over the threads x and the taps over the
// threads y (cyclic: every second one each way); its indices count from the tile's origin (the K step %k, the
// block's pixels %j) again. No column buffer is left, nor a gather grid.

// CHECK-LABEL: func.func @gather
// CHECK-NOT:     memref.alloc() : memref<8x8xf32>
// CHECK:         scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (8, 8) step (4, 4) {
// CHECK:           %[[STAGED:.*]] = memref.alloc() : memref<2x4xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      scf.for %[[K:.*]] = %c0 to %c8 step %c2 {
// CHECK-NEXT:        scf.forall (%[[TK:.*]], %[[TP:.*]]) in (2, 2) {
// CHECK-NEXT:          %[[MINE:.*]] = memref.subview %[[STAGED]][%[[TK]], %[[TP]]] [1, 2] [2, 2]
// CHECK-NEXT:          %[[K0:.*]] = arith.addi %[[K]], %[[TK]] : index
// CHECK-NEXT:          %[[P0:.*]] = arith.addi %[[J]], %[[TP]] : index
// CHECK-NEXT:          linalg.generic {{.*}} outs(%[[MINE]] : memref<1x2xf32, strided<[8, 2], offset: ?>, #gpu.address_space<workgroup>>)
// CHECK:                 %[[TAP:.*]] = arith.addi %{{.*}}, %[[K0]] : index
// CHECK:                 %[[PIXEL:.*]] = arith.addi %{{.*}}, %[[P0]] : index
// CHECK:                 arith.addi %[[PIXEL]]
// CHECK:                 memref.load %x
// CHECK:                 arith.select
// CHECK:          } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:     %[[A:.*]] = memref.subview %w[%[[I]], %[[K]]] [4, 2] [1, 1]
// CHECK-NEXT:     %[[C:.*]] = memref.subview %out[%[[I]], %[[J]]] [4, 4] [1, 1]
// CHECK-NEXT:     scf.forall
// CHECK-NEXT:       memref.subview %[[A]]
// CHECK-NEXT:       memref.subview %[[STAGED]][0, %{{.*}}] [2, 2] [1, 2]
// CHECK:            linalg.generic {{.*}}"reduction"
// CHECK:          } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:   }
// CHECK-NEXT:   memref.dealloc %[[STAGED]]
// CHECK-NEXT:  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:   memref.dealloc
// CHECK-NOT:   {mapping = [#gpu.block

// APART-LABEL: func.func @gather
// APART:         memref.alloc() : memref<8x8xf32>
// APART-COUNT-2: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// APART-NOT:     #gpu.address_space<workgroup>

// A budget smaller than the 32 bytes of a staged tile: the gather stays.
// BUDGET-LABEL: func.func @gather
// BUDGET:         memref.alloc() : memref<8x8xf32>
// BUDGET-COUNT-2: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// BUDGET-NOT:     #gpu.address_space<workgroup>
func.func @gather(%x: memref<13xf32>, %w: memref<8x8xf32>, %out: memref<8x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %col = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%col : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %p = arith.constant 5 : index
    %real = arith.cmpi ule, %k, %p : index
    %kk = arith.minui %k, %p : index
    %q = linalg.index 1 : index
    %i = arith.addi %q, %kk : index
    %v = memref.load %x[%i] : memref<13xf32>
    %r = arith.select %real, %v, %zero : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %col : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x8xf32>
  return
}

// -----

// A producer with an input (the weights scaled by a per-row factor, read
// through a broadcast) and a partial block tile (6 rows in blocks of 4):
// its block tiles of the input are views at the block's origin, the staged
// buffer's leading corner is what a partial tile fills and reads.

// CHECK-LABEL: func.func @scaled_weights
// CHECK-NOT:     memref.alloc() : memref<6x4xf32>
// CHECK:         %[[STAGED:.*]] = memref.alloc() : memref<4x2xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[K:.*]] =
// CHECK:           %[[CORNER:.*]] = memref.subview %[[STAGED]][0, 0] [%{{.*}}, 2] [1, 1]
// CHECK:           memref.subview %w[%{{.*}}, %[[K]]]
// CHECK:           memref.subview %s[%{{.*}}]
// CHECK:           linalg.generic
// CHECK:             arith.mulf
// CHECK:           scf.forall
// CHECK:             memref.subview %[[CORNER]][%{{.*}}, 0]
// CHECK-NOT:     memref.dealloc %scaled
func.func @scaled_weights(%w: memref<6x4xf32>, %s: memref<6xf32>, %b: memref<4x8xf32>, %out: memref<6x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %scaled = memref.alloc() : memref<6x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%w, %s : memref<6x4xf32>, memref<6xf32>) outs(%scaled : memref<6x4xf32>) {
  ^bb0(%v: f32, %f: f32, %o: f32):
    %r = arith.mulf %v, %f : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<6x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%scaled, %b : memref<6x4xf32>, memref<4x8xf32>) outs(%out : memref<6x8xf32>) {
  ^bb0(%a: f32, %c: f32, %acc: f32):
    %m = arith.mulf %a, %c : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  }
  memref.dealloc %scaled : memref<6x4xf32>
  return
}

// -----

// Left alone: the columns have another reader (a second output copies
// them, through a reshape), so they must exist in global memory.

// CHECK-LABEL: func.func @another_reader
// CHECK:         %col = memref.alloc() : memref<8x8xf32>
// CHECK-NOT:     #gpu.address_space<workgroup>
// CHECK-COUNT-2: {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK:         {mapping = [#gpu.block<x>]}
func.func @another_reader(%x: memref<8x8xf32>, %w: memref<8x8xf32>, %out: memref<8x8xf32> {irkit.output}, %seen: memref<64xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %col = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%col : memref<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %col : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %flat = memref.collapse_shape %col [[0, 1]] : memref<8x8xf32> into memref<64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%flat : memref<64xf32>) outs(%seen : memref<64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  memref.dealloc %col : memref<8x8xf32>
  return
}

// -----

// Left alone: the producer is a reduction (each column element a sum, its
// fill a prologue in its grid), not all-parallel: it writes the columns
// twice, and reads their old values.

// CHECK-LABEL: func.func @reduction_producer
// CHECK:         %col = memref.alloc() : memref<8x8xf32>
// CHECK-NOT:     #gpu.address_space<workgroup>
// CHECK-COUNT-2: {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @reduction_producer(%x: memref<8x8x2xf32>, %w: memref<8x8xf32>, %out: memref<8x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %col = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%col : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : memref<8x8x2xf32>) outs(%col : memref<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %col : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x8xf32>
  return
}

// -----

// Left alone: the columns escape, as the function's result buffer.

// CHECK-LABEL: func.func @escapes
// CHECK-NOT:     #gpu.address_space<workgroup>
// CHECK-COUNT-2: {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @escapes(%x: memref<8x8xf32>, %w: memref<8x8xf32>, %out: memref<8x8xf32> {irkit.output}, %col: memref<8x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%col : memref<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.fill ins(%zero : f32) outs(%out : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %col : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: between the producer and the matmul, an op writes the buffer
// the producer reads (%t): computed in the matmul's K steps, the columns
// would read the new values.

// CHECK-LABEL: func.func @input_overwritten
// CHECK:         %col = memref.alloc() : memref<8x8xf32>
// CHECK-NOT:     #gpu.address_space<workgroup>
// CHECK-COUNT-3: {mapping = [#gpu.block<y>, #gpu.block<x>]}
func.func @input_overwritten(%x: memref<8x8xf32>, %w: memref<8x8xf32>, %out: memref<8x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%t : memref<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  %col = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%col : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = memref.load %t[%j, %i] : memref<8x8xf32>
    linalg.yield %v : f32
  }
  linalg.fill ins(%zero : f32) outs(%t : memref<8x8xf32>)
  linalg.fill ins(%zero : f32) outs(%out : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %col : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x8xf32>
  memref.dealloc %t : memref<8x8xf32>
  return
}

// -----

// The parts of a split matmul (`linalg-split-reduction`) read the columns
// through an `expand_shape` (2 parts of 4 taps): the gather runs over the
// parts' space, each tap `part * 4 + tap` (the expanded indices,
// linearised), and the reshape goes with the columns.

// CHECK-LABEL: func.func @split_parts
// CHECK-NOT:     memref.expand_shape
// CHECK:         %[[STAGED:.*]] = memref.alloc() : memref<1x2x4xf32, #gpu.address_space<workgroup>>
// CHECK:         scf.for %[[K:.*]] =
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : memref<1x1x2xf32, {{.*}}#gpu.address_space<workgroup>>)
// CHECK:             %[[PART:.*]] = linalg.index 0 : index
// CHECK:             %[[TAP:.*]] = linalg.index 1 : index
// CHECK:             %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:        %[[SCALED:.*]] = arith.muli %{{.*}}, %[[FOUR]] : index
// CHECK-NEXT:        arith.addi %[[SCALED]], %{{.*}} : index
// CHECK:             memref.load %x
// CHECK-NOT:     memref.expand_shape
func.func @split_parts(%x: memref<15xf32>, %w: memref<8x2x4xf32>, %parts: memref<2x8x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %col = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%col : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %q = linalg.index 1 : index
    %i = arith.addi %q, %k : index
    %v = memref.load %x[%i] : memref<15xf32>
    linalg.yield %v : f32
  }
  %colx = memref.expand_shape %col [[0, 1], [2]] output_shape [2, 4, 8] : memref<8x8xf32> into memref<2x4x8xf32>
  linalg.fill ins(%zero : f32) outs(%parts : memref<2x8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%w, %colx : memref<8x2x4xf32>, memref<2x4x8xf32>) outs(%parts : memref<2x8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %b, %a : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x8xf32>
  return
}

// -----

// `bufferize` frees what the gather reads (%t) right after the gather, its
// last reader: staged in the matmul's K steps, the gather reads %t there,
// so the deallocation moves after the matmul's grid.

// CHECK-LABEL: func.func @input_freed_after_the_gather
// CHECK:         %[[T:.*]] = memref.alloc() : memref<15xf32>
// CHECK-NOT:     memref.dealloc %[[T]]
// CHECK:         memref.load %[[T]]
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NEXT:    memref.dealloc %[[T]]
func.func @input_freed_after_the_gather(%x: memref<15xf32>, %w: memref<8x8xf32>, %out: memref<8x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<15xf32>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : memref<15xf32>) outs(%t : memref<15xf32>) {
  ^bb0(%v: f32, %o: f32):
    %d = arith.addf %v, %v : f32
    linalg.yield %d : f32
  }
  %col = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%col : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %q = linalg.index 1 : index
    %i = arith.addi %q, %k : index
    %v = memref.load %t[%i] : memref<15xf32>
    linalg.yield %v : f32
  }
  memref.dealloc %t : memref<15xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<8x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %col : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %col : memref<8x8xf32>
  return
}

// -----

// Two linear layers: bias + ReLU is the first matmul's epilogue and the
// only writer of the second's input. It stays the epilogue (in the first
// grid, writing %h once), not a staged producer of the second.

// CHECK-LABEL: func.func @epilogue_stays
// CHECK:         %h = memref.alloc() : memref<4x8xf32>
// CHECK-NOT:     #gpu.address_space<workgroup>
// CHECK:         arith.maximumf
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK:         ins(%{{.*}}, %{{.*}} : memref<{{.*}}>, memref<{{.*}}>) outs(
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     {mapping = [#gpu.block
func.func @epilogue_stays(%x: memref<4x8xf32>, %w1: memref<8x8xf32>, %b: memref<8xf32>, %w2: memref<8x8xf32>, %out: memref<4x8xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %c1 = memref.alloc() : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%c1 : memref<4x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w1 : memref<4x8xf32>, memref<8x8xf32>) outs(%c1 : memref<4x8xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  %h = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c1, %b : memref<4x8xf32>, memref<8xf32>) outs(%h : memref<4x8xf32>) {
  ^bb0(%v: f32, %bv: f32, %o: f32):
    %t = arith.addf %v, %bv : f32
    %r = arith.maximumf %t, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c1 : memref<4x8xf32>
  linalg.fill ins(%zero : f32) outs(%out : memref<4x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%h, %w2 : memref<4x8xf32>, memref<8x8xf32>) outs(%out : memref<4x8xf32>) {
  ^bb0(%a: f32, %w: f32, %acc: f32):
    %m = arith.mulf %a, %w : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %h : memref<4x8xf32>
  return
}
