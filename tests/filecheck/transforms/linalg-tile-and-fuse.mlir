// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-and-fuse{tile-sizes=4,8}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-and-fuse{tile-sizes=4,8,2}' | filecheck %s --check-prefix=RED

// A matmul with an elementwise producer of A, the fill of its accumulator and
// a bias+relu epilogue: one tile loop; A's producer computes the 4x6 rows the
// tile reads into a stack buffer, the accumulator is a 4x8 stack buffer, and
// the full-size temporaries are gone.

// CHECK-LABEL: func.func @matmul_chain
// CHECK-NOT:   memref.alloc()
// CHECK:       scf.parallel (%[[I:.*]], %[[J:.*]]) = (%c0, %c0) to (%c8, %c16) step (%c4, %c8) {
// CHECK-NEXT:    %[[B:.*]] = memref.subview %b[0, %[[J]]] [6, 8] [1, 1]
// CHECK-NEXT:    %[[ATILE:.*]] = memref.alloca() : memref<4x6xf32>
// CHECK-NEXT:    %[[ACC:.*]] = memref.alloca() : memref<4x8xf32>
// CHECK-NEXT:    %[[A:.*]] = memref.subview %a[%[[I]], 0] [4, 6] [1, 1]
// CHECK-NEXT:    linalg.generic
// CHECK-SAME:      ins(%[[A]] : {{.*}}) outs(%[[ATILE]] : memref<4x6xf32>)
// CHECK:         math.exp
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%[[ACC]] : memref<4x8xf32>)
// CHECK:         linalg.generic
// CHECK-SAME:      ins(%[[ATILE]], %[[B]] : memref<4x6xf32>, {{.*}}) outs(%[[ACC]] : memref<4x8xf32>)
// CHECK:         %[[BIAS:.*]] = memref.subview %bias[%[[J]]] [8] [1]
// CHECK-NEXT:    %[[OUT:.*]] = memref.subview %out[%[[I]], %[[J]]] [4, 8] [1, 1]
// CHECK-NEXT:    linalg.generic
// CHECK-SAME:      ins(%[[ACC]], %[[BIAS]] : memref<4x8xf32>, {{.*}}) outs(%[[OUT]] : {{.*}})
// CHECK:           arith.maximumf
// CHECK:         scf.reduce
// CHECK-NEXT:  }
// CHECK-NOT:   linalg.generic
// CHECK-NOT:   memref.dealloc

// With the reduction tiled the body runs once per k tile: the producer of A
// still fuses (its tile is 4x2), but the fill and the epilogue stay outside.

// RED-LABEL: func.func @matmul_chain
// RED:       memref.alloc() : memref<8x16xf32>
// RED:       scf.parallel
// RED:       scf.parallel
// RED:         scf.for
// RED:           memref.alloca() : memref<4x2xf32>
// RED:           math.exp
// RED:           arith.mulf
// RED:       scf.parallel
// RED:         arith.maximumf

func.func @matmul_chain(%a: memref<8x6xf32>, %b: memref<6x16xf32>, %bias: memref<16xf32>, %out: memref<8x16xf32> {irkit.output}) {
  %0 = memref.alloc() : memref<8x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x6xf32>) outs(%0 : memref<8x6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  %zero = arith.constant 0.000000e+00 : f32
  %1 = memref.alloc() : memref<8x16xf32>
  linalg.fill ins(%zero : f32) outs(%1 : memref<8x16xf32>)
  linalg.matmul ins(%0, %b : memref<8x6xf32>, memref<6x16xf32>) outs(%1 : memref<8x16xf32>)
  memref.dealloc %0 : memref<8x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%1, %bias : memref<8x16xf32>, memref<16xf32>) outs(%out : memref<8x16xf32>) {
  ^bb0(%c: f32, %v: f32, %o: f32):
    %s = arith.addf %c, %v : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %1 : memref<8x16xf32>
  return
}

// -----

// Refused: the producer's input is overwritten between it and the row-sum
// consumer, so each op is tiled on its own.

// CHECK-LABEL: func.func @input_overwritten
// CHECK:       scf.parallel
// CHECK:         linalg.generic {{.*}} ins(%zero : f32)
// CHECK:       scf.parallel
// CHECK:         math.exp
// CHECK:       memref.copy
// CHECK:       scf.parallel
// CHECK:         arith.addf

func.func @input_overwritten(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %out: memref<8xf32> {irkit.output}) {
  %zero = arith.constant 0.000000e+00 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<8xf32>)
  %scratch = memref.alloc() : memref<8x8xf32>
  memref.copy %a, %scratch : memref<8x8xf32> to memref<8x8xf32>
  %0 = memref.alloc() : memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%scratch : memref<8x8xf32>) outs(%0 : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %e = math.exp %x : f32
    linalg.yield %e : f32
  }
  memref.copy %b, %scratch : memref<8x8xf32> to memref<8x8xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%0, %scratch : memref<8x8xf32>, memref<8x8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  }
  memref.dealloc %0 : memref<8x8xf32>
  memref.dealloc %scratch : memref<8x8xf32>
  return
}

// -----

// Refused: the consumer reads the matmul's result at (i, j) and at (j, i),
// so also outside the tile just computed: it is no epilogue (and a matmul is
// no producer). A transposed read of the tile alone would fuse.

// CHECK-LABEL: func.func @symmetrized
// CHECK:       scf.parallel
// CHECK:         arith.mulf
// CHECK:         scf.reduce
// CHECK:       scf.parallel
// CHECK:         arith.addf
// CHECK-NOT:     arith.mulf

func.func @symmetrized(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %out: memref<16x16xf32> {irkit.output}) {
  %zero = arith.constant 0.000000e+00 : f32
  %0 = memref.alloc() : memref<16x16xf32>
  linalg.fill ins(%zero : f32) outs(%0 : memref<16x16xf32>)
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%0 : memref<16x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%0, %0 : memref<16x16xf32>, memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  memref.dealloc %0 : memref<16x16xf32>
  return
}
