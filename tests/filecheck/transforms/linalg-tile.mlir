// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=4,8,2}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=4,8,2},linalg-tile{tile-sizes=2,4,1}' | filecheck %s --check-prefix=TWO
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=4,8,2 parallel=forall}' | filecheck %s --check-prefix=FORALL
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=0,8}' | filecheck %s --check-prefix=ZERO

// Dividing sizes: static tiles, parallel loops in one scf.parallel, the
// reduction in an scf.for inside it.

// CHECK-LABEL: func.func @matmul
// CHECK:       scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c8, %c16) step (%c4, %c8) {
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %c4 step %c2 {
// CHECK-NEXT:      %[[A:.*]] = memref.subview %a[%[[I]], %[[K]]] [4, 2] [1, 1] : memref<8x4xf32> to memref<4x2xf32, strided<[4, 1], offset: ?>>
// CHECK-NEXT:      %[[B:.*]] = memref.subview %b[%[[K]], %[[J]]] [2, 8] [1, 1] : memref<4x16xf32> to memref<2x8xf32, strided<[16, 1], offset: ?>>
// CHECK-NEXT:      %[[C:.*]] = memref.subview %c[%[[I]], %[[J]]] [4, 8] [1, 1] : memref<8x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
// CHECK-NEXT:      linalg.generic
// CHECK-SAME:        ins(%[[A]], %[[B]] : {{.*}}) outs(%[[C]] : memref<4x8xf32, strided<[16, 1], offset: ?>>)
// CHECK:         scf.reduce
// CHECK-NOT:   linalg.generic

// Tiling the tiles: the inner op's ranges are static again (2 divides 4,
// 4 divides 8, 1 divides 2), and the second level's subviews are of subviews.

// TWO-LABEL: func.func @matmul
// TWO:       scf.parallel
// TWO:         scf.for
// TWO:           scf.parallel
// TWO:             scf.for
// TWO:               memref.subview %{{.*}}[{{.*}}] [2, 1] [1, 1] : memref<4x2xf32, strided<[4, 1], offset: ?>> to memref<2x1xf32, strided<[4, 1], offset: ?>>
// TWO:               linalg.generic

// FORALL-LABEL: func.func @matmul
// FORALL:       scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (8, 16) step (4, 8) {
// FORALL:         scf.for
// FORALL:           linalg.generic

func.func @matmul(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Sizes that do not divide: partial tiles bounded by affine.min. The size
// larger than d1's range (8 > 5) leaves d1 untiled; linalg.index of a tiled
// loop is offset by the tile origin.

// CHECK-LABEL: func.func @partial
// CHECK:       scf.parallel (%[[I:.*]]) = (%c0) to (%c10) step (%c4) {
// CHECK-NEXT:    %[[N:.*]] = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%[[I]])
// CHECK-NEXT:    %[[X:.*]] = memref.subview %x[%[[I]], 0] [%[[N]], 5] [1, 1] : memref<10x5xf32> to memref<?x5xf32, strided<[5, 1], offset: ?>>
// CHECK-NEXT:    %[[O:.*]] = memref.subview %o[%[[I]], 0] [%[[N]], 5] [1, 1] : memref<10x5xf32> to memref<?x5xf32, strided<[5, 1], offset: ?>>
// CHECK-NEXT:    linalg.generic
// CHECK-SAME:      ins(%[[X]] : memref<?x5xf32, strided<[5, 1], offset: ?>>)
// CHECK:           %[[INDEX:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.addi %[[INDEX]], %[[I]] : index
// CHECK-NEXT:      arith.index_cast %[[ROW]]

// Second level on dynamic tiles: ranges from memref.dim, affine.min with a symbol.
// TWO-LABEL: func.func @partial
// TWO:         %[[D:.*]] = memref.dim %{{.*}}, %c0
// TWO:         scf.parallel (%[[I2:.*]], %{{.*}}) = (%c0{{.*}}, %c0{{.*}}) to (%[[D]], %c5{{.*}}) step (%c2{{.*}}, %c4{{.*}})
// TWO:           affine.min affine_map<(d0)[s0] -> (2, s0 - d0)>(%[[I2]])[%[[D]]]
// TWO:           affine.min affine_map<(d0) -> (4, -d0 + 5)>

func.func @partial(%x: memref<10x5xf32>, %o: memref<10x5xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<10x5xf32>) outs(%o : memref<10x5xf32>) {
  ^bb0(%v: f32, %out: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %r = arith.addf %v, %f : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Size 0 leaves a loop untiled; a broadcast operand (constant-0 result and a
// map without d0) gets a tile along the tiled loop only.

// ZERO-LABEL: func.func @broadcast
// ZERO:       scf.parallel (%[[J:.*]]) = (%c0) to (%c16) step (%c8) {
// ZERO-NEXT:    %[[X:.*]] = memref.subview %x[0, %[[J]]] [6, 8] [1, 1] : memref<6x16xf32> to memref<6x8xf32, strided<[16, 1], offset: ?>>
// ZERO-NEXT:    %[[B:.*]] = memref.subview %bias[0, %[[J]]] [1, 8] [1, 1] : memref<1x16xf32> to memref<1x8xf32, strided<[16, 1], offset: ?>>
// ZERO-NEXT:    %[[O:.*]] = memref.subview %o[0, %[[J]]] [6, 8] [1, 1] : memref<6x16xf32> to memref<6x8xf32, strided<[16, 1], offset: ?>>
// ZERO-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// ZERO-SAME:      ins(%[[X]], %[[B]] : {{.*}}) outs(%[[O]] : {{.*}})

func.func @broadcast(%x: memref<6x16xf32>, %bias: memref<1x16xf32>, %o: memref<6x16xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %bias : memref<6x16xf32>, memref<1x16xf32>) outs(%o : memref<6x16xf32>) {
  ^bb0(%v: f32, %b: f32, %out: f32):
    %r = arith.addf %v, %b : f32
    linalg.yield %r : f32
  }
  return
}
