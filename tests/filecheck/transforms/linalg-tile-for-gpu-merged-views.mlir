// RUN: irkit-opt %s --split-input-file -p 'linalg-tile-for-gpu{matmul-block=4,6,4 matmul-thread=2,3}' --check-semantics | filecheck %s

// A contraction that accumulates into a view merging dimensions of its
// output (`bufferize` puts a convolution's N x F x P product in its
// N x F x OH x OW result so) gets a buffer of its own: the fill and the
// matmul write it, and an identity copy into the view, the matmul's
// epilogue, runs in the matmul's grid. Its threads' tiles can then stay in
// registers (`gpu-promote-accumulators`) instead of being read and written
// through the view's floordiv/mod indices on every K step.

// CHECK-LABEL: func.func @merged_view
// CHECK:         %[[VIEW:.*]] = memref.collapse_shape %out {{\[}}[0], [1, 2]] : memref<4x2x3xf32> into memref<4x6xf32>
// CHECK:         %[[OWN:.*]] = memref.alloc() : memref<4x6xf32>
// CHECK:         scf.forall
// CHECK:           %[[FILLED:.*]] = memref.subview %[[OWN]]
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : f32) outs(%{{.*}} : memref<2x3xf32, strided<[6, 1], offset: ?>>)
// CHECK:           scf.for
// CHECK:             %[[ACC:.*]] = memref.subview %[[OWN]]
// CHECK:             linalg.generic {{.*}} outs(%{{.*}} : memref<2x3xf32, strided<[6, 1], offset: ?>>)
// CHECK:           %[[READ:.*]] = memref.subview %[[OWN]]
// CHECK:           %[[WRITE:.*]] = memref.subview %[[VIEW]]
// CHECK:           linalg.generic {{.*}} ins(%{{.*}} : memref<2x3xf32, strided<[6, 1], offset: ?>>) outs(%{{.*}} : memref<2x3xf32, strided<[6, 1], offset: ?>>)
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NEXT:    memref.dealloc %[[OWN]] : memref<4x6xf32>
// CHECK-NOT:     scf.forall
func.func @merged_view(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %out: memref<4x2x3xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %view = memref.collapse_shape %out [[0], [1, 2]] : memref<4x2x3xf32> into memref<4x6xf32>
  linalg.fill ins(%zero : f32) outs(%view : memref<4x6xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x6xf32>) outs(%view : memref<4x6xf32>)
  return
}

// -----

// Without a prologue of the view the matmul adds to the values already in
// it (here filled through the output itself): it keeps accumulating there
// (a buffer of its own would need them copied in first).

// CHECK-LABEL: func.func @merged_view_accumulated
// CHECK-NOT:     memref.alloc
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : memref<2x3xf32, strided<[6, 1], offset: ?>>)
// CHECK-NOT:     memref.alloc
func.func @merged_view_accumulated(%a: memref<4x8xf32>, %b: memref<8x6xf32>, %out: memref<4x2x3xf32> {irkit.output}) {
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<4x2x3xf32>)
  %view = memref.collapse_shape %out [[0], [1, 2]] : memref<4x2x3xf32> into memref<4x6xf32>
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x6xf32>) outs(%view : memref<4x6xf32>)
  return
}

// -----

// A padded product's corner copied into the output through an
// `expand_shape` (`linalg-conv-to-im2col`'s padded convolution, as a
// function result) is the copy of the corner into the output collapsed the
// same way: it reads the product as itself, and runs as the matmul's
// epilogue, in its grid.

// CHECK-LABEL: func.func @padded_corner_expanded
// CHECK:         %[[FLAT:.*]] = memref.collapse_shape %out {{\[}}[0], [1, 2]] : memref<4x2x3xf32> into memref<4x6xf32>
// CHECK:         scf.forall (%{{.*}}, %{{.*}}) = (0, 0) to (4, 12) step (4, 6) {
// CHECK:           scf.for
// CHECK:           %[[WRITE:.*]] = memref.subview %[[FLAT]]
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : memref<2x?xf32, strided<[6, 1], offset: ?>>)
// CHECK:         } {mapping = [#gpu.block<y>, #gpu.block<x>]}
// CHECK-NOT:     scf.forall
// CHECK-NOT:     memref.expand_shape
func.func @padded_corner_expanded(%a: memref<4x8xf32>, %b: memref<8x12xf32>, %out: memref<4x2x3xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  %product = memref.alloc() : memref<4x12xf32>
  linalg.fill ins(%zero : f32) outs(%product : memref<4x12xf32>)
  linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x12xf32>) outs(%product : memref<4x12xf32>)
  %corner = memref.subview %product[0, 0] [4, 6] [1, 1] : memref<4x12xf32> to memref<4x6xf32, strided<[12, 1]>>
  %expanded = memref.expand_shape %corner [[0], [1, 2]] output_shape [4, 2, 3] : memref<4x6xf32, strided<[12, 1]>> into memref<4x2x3xf32, strided<[12, 3, 1]>>
  memref.copy %expanded, %out : memref<4x2x3xf32, strided<[12, 3, 1]>> to memref<4x2x3xf32>
  memref.dealloc %product : memref<4x12xf32>
  return
}
