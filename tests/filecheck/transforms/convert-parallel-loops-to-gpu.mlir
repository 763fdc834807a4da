// RUN: irkit-opt %s --split-input-file -p 'convert-parallel-loops-to-gpu' | filecheck %s

// Elementwise, 10 elements in blocks of 4: grid 3, block 4; the last block
// is partial, so the thread loop's body is guarded by its tile size.

// CHECK-LABEL: func.func @partial
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       %[[C1:.*]] = arith.constant 1 : index
// CHECK:       %[[C4:.*]] = arith.constant 4 : index
// CHECK:       gpu.launch blocks(%bx, %by, %bz) in (%gx = %[[C3]], %gy = %[[C1]], %gz = %[[C1]]) threads(%tx, %ty, %tz) in (%sx = %[[C4]], %sy = %[[C1]], %sz = %[[C1]]) {
// CHECK-NEXT:    %[[BID:.*]] = gpu.block_id x
// CHECK-NEXT:    %[[STEP:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[B:.*]] = arith.muli %[[BID]], %[[STEP]] : index
// CHECK-NEXT:    %[[SIZE:.*]] = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%[[B]])
// CHECK-NEXT:    %[[T:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi slt, %[[T]], %[[SIZE]] : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[B]], %[[T]] : index
// CHECK-NEXT:      %[[X:.*]] = memref.load %a[%[[I]]] : memref<10xf32>
// CHECK-NEXT:      memref.store %[[X]], %b[%[[I]]] : memref<10xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    gpu.terminator
// CHECK-NEXT:  }
// CHECK-NOT:   scf.forall

func.func @partial(%a: memref<10xf32>, %b: memref<10xf32> {irkit.output}) {
  scf.forall (%blk) = (0) to (10) step (4) {
    %size = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%blk)
    scf.forall (%t) in (%size) {
      %i = arith.addi %blk, %t : index
      %x = memref.load %a[%i] : memref<10xf32>
      memref.store %x, %b[%i] : memref<10xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// Two thread loops in one block: the block takes the larger (8x2), the 1-D
// copy runs on threads with y == 0 and x < 4, a barrier separates the loops,
// another ends the sequential loop's body; the per-thread scf.parallel
// becomes an scf.for; the workgroup buffer becomes an
// attribution and its dealloc goes.

// CHECK-LABEL: func.func @staged
// CHECK:       gpu.launch blocks(%bx, %by, %bz) in (%gx = %{{.*}}, %gy = %{{.*}}, %gz = %{{.*}}) threads(%tx, %ty, %tz) in (%sx = %[[C8:.*]], %sy = %[[C2:.*]], %sz = %{{.*}}) workgroup(%[[TILE:.*]] : memref<4xf32, #gpu.address_space<workgroup>>) {
// CHECK-NOT:     memref.alloc
// CHECK:         scf.for
// CHECK:           %[[TX:.*]] = gpu.thread_id x
// CHECK:           %[[XIN:.*]] = arith.cmpi slt, %[[TX]], %c4 : index
// CHECK-NEXT:      %[[TY:.*]] = gpu.thread_id y
// CHECK:           %[[YIN:.*]] = arith.cmpi slt, %[[TY]], %c1{{.*}} : index
// CHECK-NEXT:      %[[BOTH:.*]] = arith.andi %[[XIN]], %[[YIN]] : i1
// CHECK-NEXT:      scf.if %[[BOTH]] {
// CHECK:             memref.store %{{.*}}, %[[TILE]][%[[TX]]]
// CHECK:           }
// CHECK-NEXT:      gpu.barrier
// CHECK:           memref.load %[[TILE]]
// CHECK-NEXT:      scf.for %{{.*}} = %c0 to %c1 step %c1 {
// CHECK-NEXT:        memref.store
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:    }
// CHECK-NOT:     memref.dealloc
// CHECK:         gpu.terminator

func.func @staged(%a: memref<4xf32>, %b: memref<2x8xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  scf.forall (%blk) in (1) {
    %tile = memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c3 step %c1 {
      scf.forall (%i) in (4) {
        %x = memref.load %a[%i] : memref<4xf32>
        memref.store %x, %tile[%i] : memref<4xf32, #gpu.address_space<workgroup>>
      } {mapping = [#gpu.thread<x>]}
      scf.forall (%r, %c) in (2, 8) {
        %j = arith.remsi %c, %c3 : index
        %y = memref.load %tile[%j] : memref<4xf32, #gpu.address_space<workgroup>>
        scf.parallel (%u) = (%c0) to (%c1) step (%c1) {
          memref.store %y, %b[%r, %c] : memref<2x8xf32>
          scf.reduce
        }
      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
    }
    memref.dealloc %tile : memref<4xf32, #gpu.address_space<workgroup>>
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// Cyclic thread tiles (linalg-tile-for-gpu{matmul-cyclic=true}) of a partial
// block tile (36 rows in tiles of 32: the second has 4): the block is the 8
// threads the forall has for a full tile; threads past min(8, size) own no
// row and are guarded off, the others run (size - t) ceildiv 8 rows t,
// t + 8, ...

// CHECK-LABEL: func.func @cyclic_rows
// CHECK:       gpu.launch blocks(%bx, %by, %bz) in (%gx = %{{.*}}, %gy = %{{.*}}, %gz = %{{.*}}) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %{{.*}}, %sz = %{{.*}}) {
// CHECK:         %[[SIZE:.*]] = affine.min affine_map<(d0) -> (32, -d0 + 36)>
// CHECK-NEXT:    %[[THREADS:.*]] = affine.min affine_map<(d0) -> (8, d0)>(%[[SIZE]])
// CHECK-NEXT:    %[[T:.*]] = gpu.thread_id x
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi slt, %[[T]], %[[THREADS]] : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[ROWS:.*]] = affine.apply affine_map<(d0)[s0] -> ((s0 - d0) ceildiv 8)>(%[[T]])[%[[SIZE]]]
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[ROWS]] step

func.func @cyclic_rows(%a: memref<36xf32>, %b: memref<36xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%blk) = (0) to (36) step (32) {
    %size = affine.min affine_map<(d0) -> (32, -d0 + 36)>(%blk)
    %threads = affine.min affine_map<(d0) -> (8, d0)>(%size)
    scf.forall (%t) in (%threads) {
      %rows = affine.apply affine_map<(d0)[s0] -> ((s0 - d0) ceildiv 8)>(%t)[%size]
      scf.for %r = %c0 to %rows step %c1 {
        %i = affine.apply affine_map<()[s0, s1, s2] -> (s0 + s1 + s2 * 8)>()[%blk, %t, %r]
        %x = memref.load %a[%i] : memref<36xf32>
        memref.store %x, %b[%i] : memref<36xf32>
      }
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
