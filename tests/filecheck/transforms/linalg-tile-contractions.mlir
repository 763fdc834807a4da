// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-contractions{tile-sizes=4,8,2}' | filecheck %s

// A matmul (out + a * b, one reduction) is tiled as linalg-tile tiles it.

// CHECK-LABEL: func.func @matmul
// CHECK:       scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c8, %c16) step (%c4, %c8) {
// CHECK-NEXT:    scf.for %[[K:.*]] = %c0 to %c4 step %c2 {
// CHECK:           linalg.generic
// CHECK-SAME:        outs(%{{.*}} : memref<4x8xf32, strided<[16, 1], offset: ?>>)
func.func @matmul(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not contractions: an elementwise op, a max reduction, a window map.

// CHECK-LABEL: func.func @others
// CHECK-NOT:   scf.
// CHECK-COUNT-3: linalg.generic
// CHECK-NOT:   scf.
func.func @others(%a: memref<8x16xf32>, %x: memref<6xf32>, %k: memref<3xf32>, %c: memref<8x16xf32> {irkit.output}, %m: memref<8xf32> {irkit.output}, %o: memref<4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x0: f32, %acc: f32):
    %p = arith.mulf %x0, %x0 : f32
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : memref<8x16xf32>) outs(%m : memref<8xf32>) {
  ^bb0(%x0: f32, %acc: f32):
    %p = arith.maximumf %x0, %acc : f32
    linalg.yield %p : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x, %k : memref<6xf32>, memref<3xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x0: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x0, %y : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A contraction marked `irkit.register_tile` (a micro-kernel of
// `linalg-pack-operands`, sized for the registers) is left whole.

// CHECK-LABEL: func.func @register_tile
// CHECK-NOT:     scf.parallel
// CHECK-NOT:     scf.for
// CHECK:         linalg.generic
// CHECK-SAME:      attrs = {irkit.register_tile}
func.func @register_tile(%a: memref<8x4xf32>, %b: memref<4x16xf32>, %c: memref<8x16xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], irkit.register_tile} ins(%a, %b : memref<8x4xf32>, memref<4x16xf32>) outs(%c : memref<8x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
