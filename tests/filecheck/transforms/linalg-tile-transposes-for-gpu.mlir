// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-transposes-for-gpu' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-transposes-for-gpu{tile=8 rows=4}' | filecheck %s --check-prefix=SMALL
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-transposes-for-gpu{max-shared-bytes=4096}' | filecheck %s --check-prefix=BUDGET

// A 2-D transpose that the 32x32 tiles divide: a block per tile (y along
// the input's rows, x along the output's), a 32 x 33 workgroup tile, reads
// with tx along the input's rows into tile[r, tx], writes with tx along the
// output's rows from tile[tx, r], 4 rows a thread each way; no guards.
// CHECK-LABEL: func.func @transpose
// CHECK-NEXT: scf.forall (%j0, %i0) = (0, 0) to (96, 64) step (32, 32) {
// CHECK-NEXT:   %tile = memref.alloc() : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   scf.forall (%ty, %tx) in (8, 32) {
// CHECK-NEXT:     %[[J:.*]] = arith.addi %j0, %tx : index
// CHECK-NEXT:     %[[I:.*]] = arith.addi %i0, %ty : index
// CHECK-NEXT:     %[[V:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<64x96xf32>
// CHECK-NEXT:     memref.store %[[V]], %tile[%ty, %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:     %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:     %[[R:.*]] = arith.addi %ty, %[[C8]] : index
// CHECK-NEXT:     %[[I8:.*]] = arith.addi %i0, %[[R]] : index
// CHECK-NEXT:     %[[V8:.*]] = memref.load %x[%[[I8]], %[[J]]] : memref<64x96xf32>
// CHECK-NEXT:     memref.store %[[V8]], %tile[%[[R]], %tx] : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:  scf.if
// CHECK:      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT: scf.forall (%[[TY:.*]], %[[TX:.*]]) in (8, 32) {
// CHECK-NEXT:   %[[WI:.*]] = arith.addi %i0, %[[TX]] : index
// CHECK-NEXT:   %[[WJ:.*]] = arith.addi %j0, %[[TY]] : index
// CHECK-NEXT:   %[[E:.*]] = memref.load %tile[%[[TX]], %[[TY]]] : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:   memref.store %[[E]], %y[%[[WJ]], %[[WI]]] : memref<96x64xf32>
// CHECK-NOT:  scf.if
// CHECK:      } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// CHECK-NEXT: } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NEXT: func.return
// A 32 x 33 tile of f32 takes 4224 bytes (the padding counts): past a
// budget of 4096, the op is left alone.
// BUDGET-LABEL: func.func @transpose
// BUDGET-NOT: scf.forall
// BUDGET: linalg.generic
func.func @transpose(%x: memref<64x96xf32>, %y: memref<96x64xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x96xf32>) outs(%y : memref<96x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Ragged edges (extents 8 does not divide): each element's load and store
// under an scf.if on its indices; the index along the thread's fixed
// column is checked once.
// SMALL-LABEL: func.func @ragged
// SMALL:      scf.forall (%j0, %i0) = (0, 0) to (13, 10) step (8, 8) {
// SMALL-NEXT:   %tile = memref.alloc() : memref<8x9xf32, #gpu.address_space<workgroup>>
// SMALL-NEXT:   scf.forall (%ty, %tx) in (4, 8) {
// SMALL-NEXT:     %[[J:.*]] = arith.addi %j0, %tx : index
// SMALL-NEXT:     %[[C13:.*]] = arith.constant 13 : index
// SMALL-NEXT:     %[[JIN:.*]] = arith.cmpi ult, %[[J]], %[[C13]] : index
// SMALL-NEXT:     %[[I:.*]] = arith.addi %i0, %ty : index
// SMALL-NEXT:     %[[C10:.*]] = arith.constant 10 : index
// SMALL-NEXT:     %[[IIN:.*]] = arith.cmpi ult, %[[I]], %[[C10]] : index
// SMALL-NEXT:     %[[IN:.*]] = arith.andi %[[IIN]], %[[JIN]] : i1
// SMALL-NEXT:     scf.if %[[IN]] {
// SMALL-NEXT:       %[[V:.*]] = memref.load %x[%[[I]], %[[J]]] : memref<10x13xf32>
// SMALL-NEXT:       memref.store %[[V]], %tile[%ty, %tx]
// SMALL-NEXT:     }
// SMALL:        } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// SMALL:        scf.forall
// SMALL:          scf.if
// SMALL-NEXT:       memref.load %tile
// SMALL-NEXT:       memref.store {{.*}}, %y
// SMALL-NEXT:     }
func.func @ragged(%x: memref<10x13xf32>, %y: memref<13x10xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<10x13xf32>) outs(%y : memref<13x10xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// A 3-D permutation of f16 (out[c, a, b] = in[a, b, c]): the output's rows
// run along b, the input's along c; a is a batch loop on blocks z. Rows of
// 16-bit elements are padded by 2 (an odd number of 4-byte banks apart).
// The body's cast, scale and residual run in the write phase, the residual
// (read along the output's rows) loaded there directly.
// SMALL-LABEL: func.func @permute_scale_cast
// SMALL:      scf.forall (%batch, %j0, %i0) = (0, 0, 0) to (3, 16, 8) step (1, 8, 8) {
// SMALL-NEXT:   %tile = memref.alloc() : memref<8x10xf16, #gpu.address_space<workgroup>>
// SMALL:        memref.load %x[%batch, %{{.*}}, %{{.*}}] : memref<3x8x16xf16>
// SMALL:        } {mapping = [#gpu.thread<y>, #gpu.thread<x>]}
// SMALL:        scf.forall
// SMALL:          %[[E:.*]] = memref.load %tile[%{{.*}}, %{{.*}}] : memref<8x10xf16, #gpu.address_space<workgroup>>
// SMALL-NEXT:     %[[R:.*]] = memref.load %res[%[[C:.*]], %batch, %[[B:.*]]] : memref<16x3x8xf32>
// SMALL-NEXT:     %[[W:.*]] = arith.extf %[[E]] : f16 to f32
// SMALL-NEXT:     %[[S:.*]] = arith.mulf %[[W]], %scale : f32
// SMALL-NEXT:     %[[T:.*]] = arith.addf %[[S]], %[[R]] : f32
// SMALL-NEXT:     memref.store %[[T]], %y[%[[C]], %batch, %[[B]]] : memref<16x3x8xf32>
// SMALL:      } {mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>]}
func.func @permute_scale_cast(%x: memref<3x8x16xf16>, %res: memref<16x3x8xf32>, %scale: f32, %y: memref<16x3x8xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(c, a, b) -> (a, b, c)>, affine_map<(c, a, b) -> (c, a, b)>, affine_map<(c, a, b) -> (c, a, b)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %res : memref<3x8x16xf16>, memref<16x3x8xf32>) outs(%y : memref<16x3x8xf32>) {
  ^bb0(%a: f16, %r: f32, %o: f32):
    %w = arith.extf %a : f16 to f32
    %s = arith.mulf %w, %scale : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  }
  return
}

// -----

// Two batch loops share blocks z (split back by the innermost's extent);
// linalg.index reads the loops' values.
// SMALL-LABEL: func.func @batches_and_index
// SMALL:      scf.forall (%batch, %j0, %i0) = (0, 0, 0) to (6, 8, 8) step (1, 8, 8) {
// SMALL:        %[[C3:.*]] = arith.constant 3 : index
// SMALL-NEXT:   %[[INNER:.*]] = arith.remui %batch, %[[C3]] : index
// SMALL-NEXT:   %[[OUTER:.*]] = arith.divui %batch, %[[C3]] : index
// SMALL:        memref.load %x[%[[OUTER]], %[[INNER]], %{{.*}}, %{{.*}}] : memref<2x3x8x8xi32>
// SMALL:        arith.index_cast %[[INNER]] : index to i32
func.func @batches_and_index(%x: memref<2x3x8x8xi32>, %y: memref<2x3x8x8xi32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, d, c)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : memref<2x3x8x8xi32>) outs(%y : memref<2x3x8x8xi32>) {
  ^bb0(%v: i32, %o: i32):
    %i = linalg.index 1 : index
    %w = arith.index_cast %i : index to i32
    %s = arith.addi %v, %w : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// linalg.transpose on buffers is generalized and tiled.
// CHECK-LABEL: func.func @named
// CHECK-NOT: linalg.transpose
// CHECK: %tile = memref.alloc() : memref<32x33xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: linalg.transpose
func.func @named(%x: memref<40x50xf32>, %y: memref<50x40xf32> {irkit.output}) {
  linalg.transpose ins(%x : memref<40x50xf32>) outs(%y : memref<50x40xf32>) permutation = [1, 0]
  return
}

// -----

// Left alone: a copy (the rows agree), a transpose with a reduction, a
// transpose beside an operand read strided along the output's rows
// (`(d2, d0)`), an extent of 1, a transpose in place (its input aliases
// its output: blocks would overwrite what others still read), tensors,
// and (BUDGET) tiles past max-shared-bytes, with a linalg.transpose left
// named.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.forall
// CHECK-COUNT-5: linalg.generic
// CHECK: linalg.transpose
// CHECK-NOT: scf.forall
// BUDGET-LABEL: func.func @left_alone
// BUDGET: linalg.transpose
func.func @left_alone(%x: memref<16x16xf32>, %y: memref<16x16xf32> {irkit.output}, %v: memref<16x16x4xf32>, %r: memref<16xf32>, %w: memref<1x16xf32> {irkit.output}, %z: memref<16x1xf32>, %u: memref<4x16x16xf32>, %m: memref<16x4xf32>, %o: memref<4x16x16xf32> {irkit.output}, %t: tensor<16x16xf32>) -> tensor<16x16xf32> {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<16x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%v : memref<16x16x4xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%u, %m : memref<4x16x16xf32>, memref<16x4xf32>) outs(%o : memref<4x16x16xf32>) {
  ^bb0(%a: f32, %c: f32, %b: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%z : memref<16x1xf32>) outs(%w : memref<1x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<16x16xf32>) outs(%x : memref<16x16xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  linalg.transpose ins(%v : memref<16x16x4xf32>) outs(%v : memref<16x16x4xf32>) permutation = [1, 0, 2]
  %e = tensor.empty() : tensor<16x16xf32>
  %tt = linalg.transpose ins(%t : tensor<16x16xf32>) outs(%e : tensor<16x16xf32>) permutation = [1, 0]
  return %tt : tensor<16x16xf32>
}

// -----

// A transpose producing a matmul's operand is left to linalg-tile-for-gpu,
// which runs it while staging the operand's tiles (no buffer in between).
// CHECK-LABEL: func.func @staged
// CHECK-NOT: scf.forall
// CHECK-COUNT-2: linalg.generic
func.func @staged(%x: memref<64x32xf32>, %b: memref<64x48xf32>, %c: memref<32x48xf32> {irkit.output}) {
  %at = memref.alloc() : memref<32x64xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x32xf32>) outs(%at : memref<32x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%at, %b : memref<32x64xf32>, memref<64x48xf32>) outs(%c : memref<32x48xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  memref.dealloc %at : memref<32x64xf32>
  return
}
