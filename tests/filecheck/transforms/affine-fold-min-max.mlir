// RUN: irkit-opt %s --split-input-file -p affine-fold-min-max --allow-unregistered-dialect | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=4,8,2},affine-fold-min-max' --allow-unregistered-dialect | filecheck %s --check-prefix=TILE

// %t is 0, 32 or 64 (the step lattice below 96): 100 - %t >= 36, so the
// tile is always 32. Up to 100, %t reaches 96 and the last tile has 4.

// CHECK-LABEL: func.func @tiles
// CHECK:       scf.for %{{.*}} = %c0 to %c96 step %c32 {
// CHECK-NEXT:    %[[FULL:.*]] = arith.constant 32 : index
// CHECK-NEXT:    "test.use"(%[[FULL]])
// CHECK:       scf.for %[[T:.*]] = %c0 to %c100 step %c32 {
// CHECK-NEXT:    %[[PART:.*]] = affine.min affine_map<(d0) -> (32, -d0 + 100)>(%[[T]])
// CHECK-NEXT:    "test.use"(%[[PART]])

func.func @tiles() {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %c100 = arith.constant 100 : index
  scf.for %t = %c0 to %c96 step %c32 {
    %s = affine.min affine_map<(d0) -> (32, -d0 + 100)>(%t)
    "test.use"(%s) : (index) -> ()
  }
  scf.for %t = %c0 to %c100 step %c32 {
    %s = affine.min affine_map<(d0) -> (32, -d0 + 100)>(%t)
    "test.use"(%s) : (index) -> ()
  }
  return
}

// -----

// Results that can never win are dropped; one left becomes an affine.apply
// (or the operand itself); constant operands are substituted.

// CHECK-LABEL: func.func @prune
// CHECK:         scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT:      %[[A:.*]] = affine.min affine_map<()[s0] -> (s0, 8)>()[%n]
// CHECK-NEXT:      %[[B:.*]] = affine.apply affine_map<(d0) -> (d0 + 2)>(%[[I]])
// CHECK-NEXT:      "test.use"(%[[A]], %[[B]], %[[J]])

func.func @prune(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
    // %c8 is substituted; %j <= 7, so 20 - %j >= 13 > 8 never wins; %n may.
    %a = affine.min affine_map<(d0)[s0, s1] -> (s0, s1, -d0 + 20)>(%j)[%n, %c8]
    // %i + 2 <= 5 < 6: the max of (0, i + 2) is i + 2 and the min with 6 drops 6.
    %b = affine.max affine_map<(d0) -> (0, d0 + 2)>(%i)
    %bb = affine.min affine_map<(d0) -> (d0, 6)>(%b)
    // %j <= 7: max(%j, 7 - 8) is %j itself.
    %c = affine.max affine_map<(d0) -> (d0, -1)>(%j)
    "test.use"(%a, %bb, %c) : (index, index, index) -> ()
    scf.reduce
  }
  return
}

// -----

// scf.forall bounds, and a range through an inner loop bounded by an
// affine.min: %k < min(4, 10 - %t) <= 4, so %k + 4 <= 7 < 8.

// CHECK-LABEL: func.func @nested
// CHECK:         scf.for %[[K:.*]] = %c0 to %[[S:.*]] step %c1 {
// CHECK-NEXT:      %[[E:.*]] = affine.apply affine_map<(d0) -> (d0 + 4)>(%[[K]])
// CHECK-NEXT:      "test.use"(%[[E]])

func.func @nested() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.forall (%t) = (0) to (10) step (4) {
    %s = affine.min affine_map<(d0) -> (4, -d0 + 10)>(%t)
    scf.for %k = %c0 to %s step %c1 {
      %e = affine.min affine_map<(d0) -> (d0 + 4, 8)>(%k)
      "test.use"(%e) : (index) -> ()
    }
  }
  return
}

// -----

// linalg-tile already gives static tiles when sizes divide; what it leaves
// for partial tiles only folds where the ranges decide it. Here d0's tiles
// (4 of 8) are static, d1's (8 of 12) are not: its affine.min stays.

// TILE-LABEL: func.func @tiled
// TILE:       scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c8, %c12) step (%c4, %c8) {
// TILE-NEXT:    %[[N:.*]] = affine.min affine_map<(d0) -> (8, -d0 + 12)>(%[[J]])
// TILE-NEXT:    memref.subview %x[%[[I]], %[[J]]] [4, %[[N]]] [1, 1] : memref<8x12xf32> to memref<4x?xf32, strided<[12, 1], offset: ?>>
// TILE-NOT:   affine.min

func.func @tiled(%x: memref<8x12xf32>, %o: memref<8x12xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x12xf32>) outs(%o : memref<8x12xf32>) {
  ^bb0(%v: f32, %out: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  }
  return
}
