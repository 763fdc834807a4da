// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// The memref ops irkit prints in MLIR's custom syntax (xDSL prints them
// generically, or reassociations as `[[0 : i64, 1 : i64]]`), and the
// subview forms bufferize emits.

// CHECK:      memref.global "private" constant @c : memref<2x2xf32> = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> {alignment = 64 : i64}
// CHECK-NEXT: memref.global @state : memref<4xi32> = uninitialized
// CHECK-NEXT: memref.global "private" @splat : memref<3xi8> = dense<7>
memref.global "private" constant @c : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]> {alignment = 64 : i64}
memref.global @state : memref<4xi32> = uninitialized
memref.global "private" @splat : memref<3xi8> = dense<7>

// CHECK-LABEL: func.func @copies_and_casts
// CHECK-NEXT:    %g = memref.get_global @c : memref<2x2xf32>
// CHECK-NEXT:    memref.copy %g, %m : memref<2x2xf32> to memref<2x2xf32>
// CHECK-NEXT:    memref.copy %g, %m {tag} : memref<2x2xf32> to memref<2x2xf32>
// CHECK-NEXT:    %d = memref.cast %m : memref<2x2xf32> to memref<?x2xf32>
// CHECK-NEXT:    %u = memref.cast %m : memref<2x2xf32> to memref<*xf32>
// CHECK-NEXT:    %r = memref.rank %u : memref<*xf32>
// CHECK-NEXT:    %s = memref.memory_space_cast %m : memref<2x2xf32> to memref<2x2xf32, 1{{( : i64)?}}>
func.func @copies_and_casts(%m: memref<2x2xf32>) -> index {
  %g = memref.get_global @c : memref<2x2xf32>
  memref.copy %g, %m : memref<2x2xf32> to memref<2x2xf32>
  memref.copy %g, %m {tag} : memref<2x2xf32> to memref<2x2xf32>
  %d = memref.cast %m : memref<2x2xf32> to memref<?x2xf32>
  %u = memref.cast %m : memref<2x2xf32> to memref<*xf32>
  %r = memref.rank %u : memref<*xf32>
  %s = memref.memory_space_cast %m : memref<2x2xf32> to memref<2x2xf32, 1>
  return %r : index
}

// CHECK-LABEL: func.func @atomics
// CHECK-NEXT:    %a = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32
// CHECK-NEXT:    %b = memref.atomic_rmw maximumf %v, %m[%i] {tag} : (f32, memref<4xf32>) -> f32
// CHECK-NEXT:    %c = memref.atomic_rmw andi %w, %n[%i, %i] : (i32, memref<4x4xi32>) -> i32
func.func @atomics(%v: f32, %w: i32, %m: memref<4xf32>, %n: memref<4x4xi32>, %i: index) {
  %a = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4xf32>) -> f32
  %b = memref.atomic_rmw maximumf %v, %m[%i] {tag} : (f32, memref<4xf32>) -> f32
  %c = memref.atomic_rmw andi %w, %n[%i, %i] : (i32, memref<4x4xi32>) -> i32
  return
}

// CHECK-LABEL: func.func @alloca_scopes
// CHECK-NEXT:    memref.alloca_scope {
// CHECK-NEXT:      %a = memref.alloca() : memref<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = memref.alloca_scope -> (f32) {
// CHECK-NEXT:      %b = memref.alloca() : memref<4xf32>
// CHECK-NEXT:      %l = memref.load %b[%i] : memref<4xf32>
// CHECK-NEXT:      memref.alloca_scope.return %l : f32
// CHECK-NEXT:    }
func.func @alloca_scopes(%i: index) -> f32 {
  memref.alloca_scope {
    %a = memref.alloca() : memref<4xf32>
  }
  %r = memref.alloca_scope -> f32 {
    %b = memref.alloca() : memref<4xf32>
    %l = memref.load %b[%i] : memref<4xf32>
    memref.alloca_scope.return %l : f32
  }
  return %r : f32
}

// CHECK-LABEL: func.func @reshapes
// CHECK-NEXT:    %c = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
// CHECK-NEXT:    %e = memref.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
// CHECK-NEXT:    %f = memref.collapse_shape %e [[0, 1, 2]] {tag} : memref<2x3x4xf32> into memref<24xf32>
// CHECK-NEXT:    %s = memref.collapse_shape %u [] : memref<1x1xf32> into memref<f32>
// CHECK-NEXT:    %x = memref.expand_shape %d [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
func.func @reshapes(%m: memref<2x3x4xf32>, %u: memref<1x1xf32>, %d: memref<?xf32>, %n: index) {
  %c = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
  %e = memref.expand_shape %c [[0, 1], [2]] output_shape [2, 3, 4] : memref<6x4xf32> into memref<2x3x4xf32>
  %f = memref.collapse_shape %e [[0, 1, 2]] {tag} : memref<2x3x4xf32> into memref<24xf32>
  %s = memref.collapse_shape %u [] : memref<1x1xf32> into memref<f32>
  %x = memref.expand_shape %d [[0, 1]] output_shape [%n, 4] : memref<?xf32> into memref<?x4xf32>
  return
}

// CHECK-LABEL: func.func @subviews
// CHECK-NEXT:    %a = memref.subview %m[0, %i] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
// CHECK-NEXT:    %b = memref.subview %m[%i, 2] [1, 4] [1, %i] : memref<8x8xf32> to memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %c = memref.subview %m[1, 2] [%i, 3] [2, 1] : memref<8x8xf32> to memref<?x3xf32, strided<[16, 1], offset: 10>>
func.func @subviews(%m: memref<8x8xf32>, %i: index) {
  %a = memref.subview %m[0, %i] [4, 4] [1, 1] : memref<8x8xf32> to memref<4x4xf32, strided<[8, 1], offset: ?>>
  %b = memref.subview %m[%i, 2] [1, 4] [1, %i] : memref<8x8xf32> to memref<4xf32, strided<[?], offset: ?>>
  %c = memref.subview %m[1, 2] [%i, 3] [2, 1] : memref<8x8xf32> to memref<?x3xf32, strided<[16, 1], offset: 10>>
  return
}
