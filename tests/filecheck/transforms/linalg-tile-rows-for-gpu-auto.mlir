// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-rows-for-gpu{reduction-block=0}' | filecheck %s

// reduction-block=0 picks the threads per row from the row's length: a power
// of two giving each thread about 8 elements, from one warp up to 1024.

// Rows of 4096: 512 threads, each reducing 8 elements of its row.
// CHECK-LABEL: func.func @long_rows
// CHECK:         scf.forall (%{{.*}}) in (2) {
// CHECK:           scf.forall (%{{.*}}) in (512) {
// CHECK:             memref.subview %{{.*}} [1, 8] [1, 512]
// CHECK:         } {mapping = [#gpu.block<x>]}
func.func @long_rows(%x: memref<2x4096xf32>, %r: memref<2xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<2x4096xf32>) outs(%r : memref<2xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows of 6: never fewer threads than a warp.
// CHECK-LABEL: func.func @short_rows
// CHECK:         scf.forall (%{{.*}}) in (32) {
func.func @short_rows(%x: memref<4x6xf32>, %r: memref<4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<4x6xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Rows of 100000: capped at 1024 threads.
// CHECK-LABEL: func.func @very_long_rows
// CHECK:         scf.forall (%{{.*}}) in (1024) {
func.func @very_long_rows(%x: memref<1x100000xf32>, %r: memref<1xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : memref<1x100000xf32>) outs(%r : memref<1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.maximumf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}
