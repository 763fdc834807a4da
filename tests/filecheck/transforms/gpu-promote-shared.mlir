// RUN: irkit-opt %s --split-input-file -p gpu-promote-shared | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'gpu-promote-shared{padding=0}' | filecheck %s --check-prefix=NOPAD
// RUN: irkit-opt %s --split-input-file -p 'gpu-promote-shared{max-shared-bytes=1000}' | filecheck %s --check-prefix=SMALL

// A matmul K step as linalg-tile-for-gpu leaves it (16x16 block tiles, K
// tiles of 8, 4x4 per thread): the A and B tiles are each read by a row or
// column of threads, so both go to workgroup memory, allocated before the K
// loop. One cooperative copy forall over the 4x4 threads fills both; the
// output tile stays in global memory.

// CHECK-LABEL: func.func @matmul
// CHECK:       scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (32, 32) step (16, 16) {
// CHECK-NEXT:    %[[SA:.*]] = memref.alloc() : memref<16x9xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[SB:.*]] = memref.alloc() : memref<8x17xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    scf.for %[[K:.*]] =
// CHECK:           %[[A:.*]] = memref.subview %a[%[[I]], %[[K]]] [16, 8] [1, 1]
// CHECK:           scf.forall (%[[TY:.*]], %[[TX:.*]]) in (4, 4) {
// CHECK-NEXT:        %[[TID:.*]] = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1)>(%[[TY]], %[[TX]])
// The 16 threads divide the 128 elements of each tile: 8 rounds per thread,
// unrolled, thread `tid` copying elements `tid + 16 * r`. Row `tid floordiv 8
// + 2 * r` and column `tid mod 8` need no division by the round (the
// per-thread `tid floordiv 8` is a value of its own).
// CHECK-DAG:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:         %[[C8:.*]] = arith.constant 8 : index
// CHECK:             scf.for %[[ROUND:.*]] = %[[C0]] to %[[C8]] step %{{.*}} {
// CHECK-NEXT:          %[[T:.*]] = affine.apply affine_map<(d0) -> (d0 floordiv 8)>(%[[TID]])
// CHECK-NEXT:          %[[R:.*]] = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 2)>(%[[T]], %[[ROUND]])
// CHECK-NEXT:          %[[C:.*]] = affine.apply affine_map<(d0) -> (d0 mod 8)>(%[[TID]])
// CHECK-NEXT:          %[[X:.*]] = memref.load %[[A]][%[[R]], %[[C]]]
// CHECK-NEXT:          memref.store %[[X]], %[[SA]][%[[R]], %[[C]]] : memref<16x9xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:        } {irkit.unroll}
// CHECK:             scf.for
// CHECK:               affine.apply affine_map<(d0) -> (d0 floordiv 16)>
// CHECK-NEXT:          affine.apply affine_map<(d0, d1) -> (d0 + d1)>
// CHECK:               memref.store %{{.*}}, %[[SB]]
// CHECK-NEXT:        } {irkit.unroll}
// CHECK:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:      %[[VA:.*]] = memref.subview %[[SA]][0, 0] [16, 8] [1, 1] : memref<16x9xf32, #gpu.address_space<workgroup>> to memref<16x8xf32, strided<[9, 1]>, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[VB:.*]] = memref.subview %[[SB]][0, 0] [8, 16] [1, 1]
// CHECK-NEXT:      scf.forall
// CHECK:             memref.subview %[[VA]][%{{.*}}, 0] [4, 8] [1, 1] : memref<16x8xf32, strided<[9, 1]>, #gpu.address_space<workgroup>> to memref<4x8xf32, strided<[9, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:             memref.subview %[[VB]][0, %{{.*}}] [8, 4] [1, 1]
// CHECK:             memref.subview %{{.*}}[%{{.*}}, %{{.*}}] [4, 4] [1, 1] : memref<16x16xf32, strided<[32, 1], offset: ?>> to memref<4x4xf32, strided<[32, 1], offset: ?>>
// CHECK:             linalg.generic
// CHECK:           } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.dealloc %[[SB]]
// CHECK-NEXT:    memref.dealloc %[[SA]]
// CHECK-NEXT:  } {mapping = [#gpu.block<y>, #gpu.block<x>]}

// Without padding the view is the whole buffer.
// NOPAD-LABEL: func.func @matmul
// NOPAD:       %[[SA:.*]] = memref.alloc() : memref<16x8xf32, #gpu.address_space<workgroup>>
// NOPAD:       memref.alloc() : memref<8x16xf32, #gpu.address_space<workgroup>>
// NOPAD-NOT:   memref.subview %[[SA]][0, 0]
// NOPAD:       memref.subview %[[SA]][%{{.*}}, 0] [4, 8] [1, 1] : memref<16x8xf32, #gpu.address_space<workgroup>> to memref<4x8xf32, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>

// Over the budget (16x9 and 8x17 floats are 576 + 544 bytes; 1000 holds one):
// the first tile is promoted, the second stays in global memory.
// SMALL-LABEL: func.func @matmul
// SMALL:       memref.alloc() : memref<16x9xf32, #gpu.address_space<workgroup>>
// SMALL-NOT:   memref.alloc
// SMALL-LABEL: func.func @partial

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @matmul(%a: memref<32x16xf32>, %b: memref<16x32xf32>, %c: memref<32x32xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.forall (%i, %j) = (0, 0) to (32, 32) step (16, 16) {
    scf.for %k = %c0 to %c16 step %c8 {
      %ta = memref.subview %a[%i, %k] [16, 8] [1, 1] : memref<32x16xf32> to memref<16x8xf32, strided<[16, 1], offset: ?>>
      %tb = memref.subview %b[%k, %j] [8, 16] [1, 1] : memref<16x32xf32> to memref<8x16xf32, strided<[32, 1], offset: ?>>
      %tc = memref.subview %c[%i, %j] [16, 16] [1, 1] : memref<32x32xf32> to memref<16x16xf32, strided<[32, 1], offset: ?>>
      scf.forall (%ti, %tj) = (0, 0) to (16, 16) step (4, 4) {
        %xa = memref.subview %ta[%ti, 0] [4, 8] [1, 1] : memref<16x8xf32, strided<[16, 1], offset: ?>> to memref<4x8xf32, strided<[16, 1], offset: ?>>
        %xb = memref.subview %tb[0, %tj] [8, 4] [1, 1] : memref<8x16xf32, strided<[32, 1], offset: ?>> to memref<8x4xf32, strided<[32, 1], offset: ?>>
        %xc = memref.subview %tc[%ti, %tj] [4, 4] [1, 1] : memref<16x16xf32, strided<[32, 1], offset: ?>> to memref<4x4xf32, strided<[32, 1], offset: ?>>
        linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xa, %xb : memref<4x8xf32, strided<[16, 1], offset: ?>>, memref<8x4xf32, strided<[32, 1], offset: ?>>) outs(%xc : memref<4x4xf32, strided<[32, 1], offset: ?>>) {
        ^bb0(%x: f32, %y: f32, %acc: f32):
          %m = arith.mulf %x, %y : f32
          %s = arith.addf %m, %acc : f32
          linalg.yield %s : f32
        }
      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

// Partial tiles (affine.min sizes): the buffer has the full tile's shape,
// each thread copies only elements inside the tile, and the compute reads a
// view of the tile's sizes.

// CHECK-LABEL: func.func @partial
// CHECK:       %[[M:.*]] = affine.min
// CHECK:       %[[S:.*]] = memref.alloc() : memref<8x5xf32, #gpu.address_space<workgroup>>
// CHECK:       scf.for %[[ROUND:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    %[[T:.*]] = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%{{.*}})
// CHECK-NEXT:    %[[R:.*]] = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 4)>(%[[T]], %[[ROUND]])
// CHECK-NEXT:    %[[C:.*]] = affine.apply affine_map<(d0) -> (d0 mod 4)>(%{{.*}})
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi slt, %[[R]], %[[M]] : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK:         } {irkit.unroll}
// The 16 threads do not divide B's 4x2 tile: thread `tid` steps through
// elements `tid, tid + 16, ...` below 8.
// CHECK:       scf.for %[[E:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:    affine.apply affine_map<(d0) -> (d0 floordiv 2)>(%[[E]])
// CHECK-NEXT:    affine.apply affine_map<(d0) -> (d0 mod 2)>(%[[E]])
// CHECK-NOT:     irkit.unroll
// CHECK:       memref.subview %[[S]][0, 0] [%[[M]], 4] [1, 1] : memref<8x5xf32, #gpu.address_space<workgroup>> to memref<?x4xf32, strided<[5, 1]>, #gpu.address_space<workgroup>>

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @partial(%a: memref<10x4xf32>, %b: memref<4x2xf32>, %c: memref<10x2xf32> {irkit.output}) {
  scf.forall (%i) = (0) to (10) step (8) {
    %m = affine.min affine_map<(d0) -> (8, -d0 + 10)>(%i)
    %ta = memref.subview %a[%i, 0] [%m, 4] [1, 1] : memref<10x4xf32> to memref<?x4xf32, strided<[4, 1], offset: ?>>
    %tc = memref.subview %c[%i, 0] [%m, 2] [1, 1] : memref<10x2xf32> to memref<?x2xf32, strided<[2, 1], offset: ?>>
    scf.forall (%ti, %tj) = (0, 0) to (%m, 2) step (1, 1) {
      %xa = memref.subview %ta[%ti, 0] [1, 4] [1, 1] : memref<?x4xf32, strided<[4, 1], offset: ?>> to memref<1x4xf32, strided<[4, 1], offset: ?>>
      %xb = memref.subview %b[0, %tj] [4, 1] [1, 1] : memref<4x2xf32> to memref<4x1xf32, strided<[2, 1], offset: ?>>
      %xc = memref.subview %tc[%ti, %tj] [1, 1] [1, 1] : memref<?x2xf32, strided<[2, 1], offset: ?>> to memref<1x1xf32, strided<[2, 1], offset: ?>>
      linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%xa, %xb : memref<1x4xf32, strided<[4, 1], offset: ?>>, memref<4x1xf32, strided<[2, 1], offset: ?>>) outs(%xc : memref<1x1xf32, strided<[2, 1], offset: ?>>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %p, %acc : f32
        linalg.yield %s : f32
      }
    } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// Elementwise: each thread reads its own element, nothing is shared.

// CHECK-LABEL: func.func @elementwise
// CHECK-NOT:   memref.alloc
// CHECK-NOT:   workgroup

func.func @elementwise(%a: memref<512xf32>, %o: memref<512xf32> {irkit.output}) {
  scf.forall (%i) = (0) to (512) step (256) {
    %ta = memref.subview %a[%i] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1], offset: ?>>
    %to = memref.subview %o[%i] [256] [1] : memref<512xf32> to memref<256xf32, strided<[1], offset: ?>>
    scf.forall (%t) in (256) {
      %xa = memref.subview %ta[%t] [1] [1] : memref<256xf32, strided<[1], offset: ?>> to memref<1xf32, strided<[1], offset: ?>>
      %xo = memref.subview %to[%t] [1] [1] : memref<256xf32, strided<[1], offset: ?>> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%xa : memref<1xf32, strided<[1], offset: ?>>) outs(%xo : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%x: f32, %y: f32):
        %n = arith.negf %x : f32
        linalg.yield %n : f32
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// Cyclic thread tiles (linalg-tile-for-gpu{matmul-cyclic=true}): thread
// (ty, tx) reads rows ty, ty + 4, ... of A's tile and columns tx, tx + 4, ...
// of B's. Each still depends on one thread dimension only, so both tiles are
// promoted; the strided views of the workgroup tiles multiply the buffer's
// strides by the steps (rows of 9 floats: 36; B's columns: 4).

// CHECK-LABEL: func.func @cyclic
// CHECK:       %[[SA:.*]] = memref.alloc() : memref<16x9xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[SB:.*]] = memref.alloc() : memref<8x17xf32, #gpu.address_space<workgroup>>
// CHECK:       %[[VA:.*]] = memref.subview %[[SA]][0, 0] [16, 8] [1, 1]
// CHECK:       %[[VB:.*]] = memref.subview %[[SB]][0, 0] [8, 16] [1, 1]
// CHECK:       scf.forall (%[[TY:.*]], %[[TX:.*]]) in (4, 4) {
// CHECK-NEXT:    memref.subview %[[VA]][%[[TY]], 0] [4, 8] [4, 1] : memref<16x8xf32, strided<[9, 1]>, #gpu.address_space<workgroup>> to memref<4x8xf32, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT:    memref.subview %[[VB]][0, %[[TX]]] [8, 4] [1, 4] : memref<8x16xf32, strided<[17, 1]>, #gpu.address_space<workgroup>> to memref<8x4xf32, strided<[17, 4], offset: ?>, #gpu.address_space<workgroup>>
// CHECK-NEXT:    memref.subview %{{.*}}[%[[TY]], %[[TX]]] [4, 4] [4, 4] : memref<16x16xf32, strided<[32, 1], offset: ?>> to memref<4x4xf32, strided<[128, 4], offset: ?>>

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @cyclic(%a: memref<32x16xf32>, %b: memref<16x32xf32>, %c: memref<32x32xf32> {irkit.output}) {
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  scf.forall (%b0, %b1) = (0, 0) to (32, 32) step (16, 16) {
    scf.for %k2 = %c0 to %c16 step %c8 {
      %tile = memref.subview %a[%b0, %k2] [16, 8] [1, 1] : memref<32x16xf32> to memref<16x8xf32, strided<[16, 1], offset: ?>>
      %tile_1 = memref.subview %b[%k2, %b1] [8, 16] [1, 1] : memref<16x32xf32> to memref<8x16xf32, strided<[32, 1], offset: ?>>
      %tile_2 = memref.subview %c[%b0, %b1] [16, 16] [1, 1] : memref<32x32xf32> to memref<16x16xf32, strided<[32, 1], offset: ?>>
      scf.forall (%t0, %t1) in (4, 4) {
        %tile_3 = memref.subview %tile[%t0, 0] [4, 8] [4, 1] : memref<16x8xf32, strided<[16, 1], offset: ?>> to memref<4x8xf32, strided<[64, 1], offset: ?>>
        %tile_4 = memref.subview %tile_1[0, %t1] [8, 4] [1, 4] : memref<8x16xf32, strided<[32, 1], offset: ?>> to memref<8x4xf32, strided<[32, 4], offset: ?>>
        %tile_5 = memref.subview %tile_2[%t0, %t1] [4, 4] [4, 4] : memref<16x16xf32, strided<[32, 1], offset: ?>> to memref<4x4xf32, strided<[128, 4], offset: ?>>
        linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%tile_3, %tile_4 : memref<4x8xf32, strided<[64, 1], offset: ?>>, memref<8x4xf32, strided<[32, 4], offset: ?>>) outs(%tile_5 : memref<4x4xf32, strided<[128, 4], offset: ?>>) {
        ^bb0(%in: f32, %in_1: f32, %out: f32):
          %0 = arith.mulf %in, %in_1 : f32
          %1 = arith.addf %0, %out : f32
          linalg.yield %1 : f32
        }
      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    }
  } {mapping = [#gpu.block<y>, #gpu.block<x>]}
  return
}

// -----

// A tile already in workgroup memory (a buffer another pass staged in the
// block forall, filled by one thread forall and read by every thread of the
// next) is left alone: copying shared memory to shared memory gains nothing.

// CHECK-LABEL: func.func @already_shared
// CHECK-COUNT-1: memref.alloc()
// CHECK-NOT:   memref.alloc()
// CHECK:       scf.forall (%[[T:.*]]) in (4) {
// CHECK-NEXT:    memref.subview %{{.*}}[0] [8] [1] : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    memref.subview %o
// CHECK-NEXT:    linalg.generic

func.func @already_shared(%a: memref<8xf32>, %o: memref<8x4xf32> {irkit.output}) {
  scf.forall (%i) in (1) {
    %s = memref.alloc() : memref<8xf32, #gpu.address_space<workgroup>>
    scf.forall (%t) in (8) {
      %xa = memref.subview %a[%t] [1] [1] : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
      %xs = memref.subview %s[%t] [1] [1] : memref<8xf32, #gpu.address_space<workgroup>> to memref<1xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
      linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%xa : memref<1xf32, strided<[1], offset: ?>>) outs(%xs : memref<1xf32, strided<[1], offset: ?>, #gpu.address_space<workgroup>>) {
      ^bb0(%x: f32, %y: f32):
        linalg.yield %x : f32
      }
    } {mapping = [#gpu.thread<x>]}
    scf.forall (%t) in (4) {
      %xs = memref.subview %s[0] [8] [1] : memref<8xf32, #gpu.address_space<workgroup>> to memref<8xf32, strided<[1]>, #gpu.address_space<workgroup>>
      %xo = memref.subview %o[0, %t] [8, 1] [1, 1] : memref<8x4xf32> to memref<8x1xf32, strided<[4, 1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%xs : memref<8xf32, strided<[1]>, #gpu.address_space<workgroup>>) outs(%xo : memref<8x1xf32, strided<[4, 1], offset: ?>>) {
      ^bb0(%x: f32, %y: f32):
        linalg.yield %x : f32
      }
    } {mapping = [#gpu.thread<x>]}
    memref.dealloc %s : memref<8xf32, #gpu.address_space<workgroup>>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A pooling window operand gives only the window's shape: the body never
// uses its elements (nothing writes them), so it is not copied, while the
// input every thread reads is.

// CHECK-LABEL: func.func @window_shape
// CHECK:       memref.alloc() : memref<7xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:   memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:       linalg.generic
// CHECK-SAME:    ins(%{{.*}}, %w : memref<6xf32, #gpu.address_space<workgroup>>, memref<3xf32>)

func.func @window_shape(%x: memref<6xf32>, %o: memref<4xf32> {irkit.output}) {
  %w = memref.alloc() : memref<3xf32>
  scf.forall (%i) in (1) {
    scf.forall (%t) in (4) {
      %xo = memref.subview %o[%t] [1] [1] : memref<4xf32> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %w : memref<6xf32>, memref<3xf32>) outs(%xo : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%a: f32, %unused: f32, %acc: f32):
        %m = arith.maximumf %acc, %a : f32
        linalg.yield %m : f32
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  memref.dealloc %w : memref<3xf32>
  return
}

// -----

// Left alone: every thread reads the whole row tile %to of %o (a reused
// tile), but the same thread forall also writes that buffer, through
// another view of it (each thread its own element): a copy in workgroup
// memory would hold the values from before the forall, not the ones other
// threads write during it.

// CHECK-LABEL: func.func @written_in_the_forall
// CHECK-NOT:   workgroup
func.func @written_in_the_forall(%o: memref<8xf32> {irkit.output}) {
  scf.forall (%i) = (0) to (8) step (4) {
    %to = memref.subview %o[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    %tw = memref.subview %o[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.forall (%t) in (4) {
      %xo = memref.subview %tw[%t] [1] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%to : memref<4xf32, strided<[1], offset: ?>>) outs(%xo : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%x: f32, %acc: f32):
        %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// The same reads of a tile of another buffer: promoted.

// CHECK-LABEL: func.func @read_only_in_the_forall
// CHECK:       memref.alloc() : memref<5xf32, #gpu.address_space<workgroup>>
func.func @read_only_in_the_forall(%a: memref<8xf32>, %o: memref<8xf32> {irkit.output}) {
  scf.forall (%i) = (0) to (8) step (4) {
    %ta = memref.subview %a[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    %to = memref.subview %o[%i] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1], offset: ?>>
    scf.forall (%t) in (4) {
      %xo = memref.subview %to[%t] [1] [1] : memref<4xf32, strided<[1], offset: ?>> to memref<1xf32, strided<[1], offset: ?>>
      linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%ta : memref<4xf32, strided<[1], offset: ?>>) outs(%xo : memref<1xf32, strided<[1], offset: ?>>) {
      ^bb0(%x: f32, %acc: f32):
        %s = arith.addf %x, %acc : f32
        linalg.yield %s : f32
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
