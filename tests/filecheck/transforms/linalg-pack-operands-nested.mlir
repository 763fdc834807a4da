// RUN: irkit-opt %s --split-input-file -p 'linalg-pack-operands{vector-bits=512 vector-registers=32}' | filecheck %s

// A matmul inside a parallel loop (the tile products of linalg-fuse-attention
// {cpu}) runs on that iteration's thread: its packed buffer is a stack
// array of the iteration (a heap buffer's failure check would keep the C
// target from running the loop in parallel), nothing is freed, and its own
// loops are sequential.

// CHECK-LABEL: func.func @in_a_parallel_loop
// CHECK:         scf.forall
// CHECK:           %[[PACKED:.*]] = memref.alloca() {alignment = 64 : i64} : memref<128xf32>
// CHECK-NOT:       scf.parallel
// CHECK-NOT:       memref.alloc()
// CHECK-NOT:       memref.dealloc
// CHECK:           irkit.register_tile
// CHECK-NOT:       memref.dealloc
func.func @in_a_parallel_loop(%a: memref<4x16x8xf32>, %b: memref<8x32xf32>, %c: memref<4x16x32xf32> {irkit.output}) {
  scf.forall (%i) in (4) {
    %ai = memref.subview %a[%i, 0, 0] [1, 16, 8] [1, 1, 1] : memref<4x16x8xf32> to memref<16x8xf32, strided<[8, 1], offset: ?>>
    %ci = memref.subview %c[%i, 0, 0] [1, 16, 32] [1, 1, 1] : memref<4x16x32xf32> to memref<16x32xf32, strided<[32, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ai, %b : memref<16x8xf32, strided<[8, 1], offset: ?>>, memref<8x32xf32>) outs(%ci : memref<16x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
  }
  return
}

// -----

// Inside a parallel loop, a matmul whose packed buffer would pass the C
// target's stack limit (64 KiB: here 144 x 128 of A alone is 72 KiB) is
// left alone, for linalg-tile-contractions: no heap buffer in the loop.

// CHECK-LABEL: func.func @too_large_for_the_stack
// CHECK:         scf.forall
// CHECK-NOT:       memref.alloc
// CHECK:           linalg.generic
// CHECK-NOT:       irkit.register_tile
func.func @too_large_for_the_stack(%a: memref<2x144x128xf32>, %b: memref<128x32xf32>, %c: memref<2x144x32xf32> {irkit.output}) {
  scf.forall (%i) in (2) {
    %ai = memref.subview %a[%i, 0, 0] [1, 144, 128] [1, 1, 1] : memref<2x144x128xf32> to memref<144x128xf32, strided<[128, 1], offset: ?>>
    %ci = memref.subview %c[%i, 0, 0] [1, 144, 32] [1, 1, 1] : memref<2x144x32xf32> to memref<144x32xf32, strided<[32, 1], offset: ?>>
    linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ai, %b : memref<144x128xf32, strided<[128, 1], offset: ?>>, memref<128x32xf32>) outs(%ci : memref<144x32xf32, strided<[32, 1], offset: ?>>) {
    ^bb0(%x: f32, %y: f32, %acc: f32):
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      linalg.yield %s : f32
    }
  }
  return
}
