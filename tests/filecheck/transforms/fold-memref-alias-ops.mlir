// RUN: irkit-opt %s --split-input-file -p fold-memref-alias-ops | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile{tile-sizes=3,8,3},convert-linalg-to-loops,fold-memref-alias-ops' | filecheck %s --check-prefix=TILED

// A tile at dynamic offsets: each index becomes offset + index, the load
// and the store address the source, and the subview dies.

// CHECK-LABEL: func.func @tile
// CHECK-NOT:   memref.subview
// CHECK:       %[[R:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%t0, %i]
// CHECK-NEXT:  %[[C:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%t1, %j]
// CHECK-NEXT:  %[[X:.*]] = memref.load %a[%[[R]], %[[C]]] : memref<8x16xf32>
// CHECK:       memref.store %[[X]], %a[%{{.*}}, %{{.*}}] : memref<8x16xf32>

func.func @tile(%a: memref<8x16xf32>, %t0: index, %t1: index, %i: index, %j: index) {
  %tile = memref.subview %a[%t0, %t1] [4, 8] [1, 1] : memref<8x16xf32> to memref<4x8xf32, strided<[16, 1], offset: ?>>
  %x = memref.load %tile[%i, %j] : memref<4x8xf32, strided<[16, 1], offset: ?>>
  memref.store %x, %tile[%j, %i] : memref<4x8xf32, strided<[16, 1], offset: ?>>
  return
}

// -----

// Static offsets and a stride fold into the map; a zero offset with unit
// stride needs no arithmetic.

// CHECK-LABEL: func.func @strided
// CHECK:       %[[R:.*]] = affine.apply affine_map<()[s0] -> (s0 + 1)>()[%i]
// CHECK-NEXT:  %[[C:.*]] = affine.apply affine_map<()[s0] -> (s0 * 2 + 2)>()[%j]
// CHECK-NEXT:  memref.load %m[%[[R]], %[[C]]] : memref<4x7xf32>
// CHECK:       memref.load %m[%i, %j] : memref<4x7xf32>

func.func @strided(%m: memref<4x7xf32>, %i: index, %j: index) -> (f32, f32) {
  %s = memref.subview %m[1, 2] [3, 2] [1, 2] : memref<4x7xf32> to memref<3x2xf32, strided<[7, 2], offset: 9>>
  %x = memref.load %s[%i, %j] : memref<3x2xf32, strided<[7, 2], offset: 9>>
  %z = memref.subview %m[0, 0] [2, 2] [1, 1] : memref<4x7xf32> to memref<2x2xf32, strided<[7, 1]>>
  %y = memref.load %z[%i, %j] : memref<2x2xf32, strided<[7, 1]>>
  return %x, %y : f32, f32
}

// -----

// A subview of a subview is one subview of the first source (it stays: the
// copy uses it), with the outer one's type.

// CHECK-LABEL: func.func @compose
// CHECK-NEXT:  %[[OFF:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%t, %u]
// CHECK-NEXT:  %[[S:.*]] = memref.subview %m[%[[OFF]], 3] [2, 2] [1, 1] : memref<8x8xf32> to memref<2x2xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:  memref.copy %[[S]], %o

func.func @compose(%m: memref<8x8xf32>, %o: memref<2x2xf32, strided<[8, 1], offset: ?>>, %t: index, %u: index) {
  %a = memref.subview %m[%t, 2] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  %b = memref.subview %a[%u, 1] [2, 2] [1, 1] : memref<4x4xf32, strided<[8, 1], offset: ?>> to memref<2x2xf32, strided<[8, 1], offset: ?>>
  memref.copy %b, %o : memref<2x2xf32, strided<[8, 1], offset: ?>> to memref<2x2xf32, strided<[8, 1], offset: ?>>
  return
}

// -----

// A rank-reducing subview: the dropped dimension is read at its offset.

// CHECK-LABEL: func.func @row
// CHECK-NEXT:  memref.load %m[%r, %j] : memref<4x8xf32>

func.func @row(%m: memref<4x8xf32>, %r: index, %j: index) -> f32 {
  %row = memref.subview %m[%r, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: ?>>
  %x = memref.load %row[%j] : memref<8xf32, strided<[1], offset: ?>>
  return %x : f32
}

// -----

// Reshapes: expand_shape linearises a group's indices, collapse_shape
// delinearises its index by the source sizes.

// CHECK-LABEL: func.func @reshapes
// CHECK:       %[[L:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 * 3 + s1)>()[%i, %j]
// CHECK-NEXT:  memref.load %v[%[[L]]] : memref<6xf32>
// CHECK:       %[[Q:.*]] = affine.apply affine_map<()[s0] -> (s0 floordiv 3)>()[%k]
// CHECK-NEXT:  %[[R:.*]] = affine.apply affine_map<()[s0] -> (s0 mod 3)>()[%k]
// CHECK-NEXT:  memref.store %{{.*}}, %w[%[[Q]], %[[R]]] : memref<2x3xf32>

func.func @reshapes(%v: memref<6xf32>, %w: memref<2x3xf32>, %i: index, %j: index, %k: index) {
  %e = memref.expand_shape %v [[0, 1]] output_shape [2, 3] : memref<6xf32> into memref<2x3xf32>
  %x = memref.load %e[%i, %j] : memref<2x3xf32>
  %c = memref.collapse_shape %w [[0, 1]] : memref<2x3xf32> into memref<6xf32>
  memref.store %x, %c[%k] : memref<6xf32>
  return
}

// -----

// memref.dim of a subview is its size, so a view used only for its sizes dies.

// CHECK-LABEL: func.func @dim
// CHECK-NOT:   memref.subview
// CHECK-NOT:   memref.dim
// CHECK:       return %n, %c4

func.func @dim(%m: memref<8x8xf32>, %n: index) -> (index, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %m[0, 0] [%n, 4] [1, 1] : memref<8x8xf32> to memref<?x4xf32, strided<[8, 1]>>
  %d0 = memref.dim %s, %c0 : memref<?x4xf32, strided<[8, 1]>>
  %d1 = memref.dim %s, %c1 : memref<?x4xf32, strided<[8, 1]>>
  return %d0, %d1 : index, index
}

// -----

// Tiled and lowered: the loops index the function's memrefs directly and
// the partial tiles' sizes bound the loops (no subview is left).

// TILED-LABEL: func.func @matmul
// TILED-NOT:   memref.subview
// TILED-NOT:   memref.dim
// TILED:       %[[M:.*]] = affine.min affine_map<(d0) -> (3, -d0 + 8)>(%[[T0:.*]])
// TILED:       scf.parallel (%[[D0:.*]]) = (%{{.*}}) to (%[[M]]) step
// TILED:       %[[R:.*]] = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%[[T0]], %[[D0]]]
// TILED:       memref.load %a[%[[R]], %{{.*}}] : memref<8x4xf32>
// TILED-NOT:   memref.subview

func.func @matmul(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}
