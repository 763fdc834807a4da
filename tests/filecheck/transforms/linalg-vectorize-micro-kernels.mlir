// RUN: irkit-opt %s --split-input-file -p 'linalg-vectorize-micro-kernels{vector-bits=256 vector-registers=16}' | filecheck %s

// A 3x16 micro-kernel over packed panels (K = 4), as linalg-pack-operands
// makes it, on AVX2 (8 f32 lanes): 3 x 2 accumulators loaded from the
// output tile, carried through the K loop, two rhs vectors and three lhs
// broadcasts per step, six FMAs, the accumulators stored back.

// CHECK-LABEL: func.func @micro_kernel
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[A00:.*]] = vector.load %[[OUT:.*]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]] : memref<1x3x1x16xf32, strided<[768, 64, 16, 1], offset: ?>>, vector<8xf32>
// CHECK-NEXT:    %[[C8:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[A01:.*]] = vector.load %[[OUT]][%[[C0]], %[[C0]], %[[C0]], %[[C8]]]
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    vector.load %[[OUT]][%[[C0]], %[[C1]], %[[C0]], %[[C0]]]
// CHECK-NEXT:    vector.load %[[OUT]][%[[C0]], %[[C1]], %[[C0]], %[[C8]]]
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    vector.load %[[OUT]][%[[C0]], %[[C2]], %[[C0]], %[[C0]]]
// CHECK-NEXT:    %[[A21:.*]] = vector.load %[[OUT]][%[[C0]], %[[C2]], %[[C0]], %[[C8]]]
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[R00:.*]], %[[R01:.*]], %{{.*}}, %{{.*}}, %{{.*}}, %[[R21:.*]] = scf.for %[[K:.*]] = %[[C0]] to %[[C4]] step %[[C1]] iter_args(%[[I00:.*]] = %[[A00]], %[[I01:.*]] = %[[A01]], %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %[[I21:.*]] = %[[A21]]) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
// CHECK-NEXT:      %[[B0:.*]] = vector.load %[[RHS:.*]][%[[C0]], %[[K]], %[[C0]]] : memref<1x4x16xf32, strided<[64, 16, 1], offset: ?>>, vector<8xf32>
// CHECK-NEXT:      %[[X0:.*]] = memref.load %[[LHS:.*]][%[[C0]], %[[K]], %[[C0]]] : memref<1x4x3xf32, strided<[12, 3, 1], offset: ?>>
// CHECK-NEXT:      %[[V0:.*]] = vector.broadcast %[[X0]] : f32 to vector<8xf32>
// CHECK-NEXT:      %[[N00:.*]] = vector.fma %[[V0]], %[[B0]], %[[I00]] : vector<8xf32>
// CHECK-NEXT:      %[[B1:.*]] = vector.load %[[RHS]][%[[C0]], %[[K]], %[[C8]]]
// CHECK-NEXT:      %[[N01:.*]] = vector.fma %[[V0]], %[[B1]], %[[I01]] : vector<8xf32>
// CHECK-NEXT:      memref.load %[[LHS]][%[[C0]], %[[K]], %[[C1]]]
// CHECK-NEXT:      vector.broadcast
// CHECK-NEXT:      vector.fma %{{.*}}, %[[B0]], %{{.*}}
// CHECK-NEXT:      vector.fma %{{.*}}, %[[B1]], %{{.*}}
// CHECK-NEXT:      %[[X2:.*]] = memref.load %[[LHS]][%[[C0]], %[[K]], %[[C2]]]
// CHECK-NEXT:      %[[V2:.*]] = vector.broadcast %[[X2]]
// CHECK-NEXT:      vector.fma %[[V2]], %[[B0]], %{{.*}}
// CHECK-NEXT:      %[[N21:.*]] = vector.fma %[[V2]], %[[B1]], %[[I21]]
// CHECK-NEXT:      scf.yield %[[N00]], %[[N01]], %{{.*}}, %{{.*}}, %{{.*}}, %[[N21]] : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    vector.store %[[R00]], %[[OUT]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]] : memref<1x3x1x16xf32, strided<[768, 64, 16, 1], offset: ?>>, vector<8xf32>
// CHECK-NEXT:    vector.store %[[R01]], %[[OUT]][%[[C0]], %[[C0]], %[[C0]], %[[C8]]]
// CHECK:         vector.store %[[R21]], %[[OUT]][%[[C0]], %[[C2]], %[[C0]], %[[C8]]]
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @micro_kernel(%lhs: memref<1x4x3xf32, strided<[12, 3, 1], offset: ?>>, %rhs: memref<1x4x16xf32, strided<[64, 16, 1], offset: ?>>, %out: memref<1x3x1x16xf32, strided<[768, 64, 16, 1], offset: ?>> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%lhs, %rhs : memref<1x4x3xf32, strided<[12, 3, 1], offset: ?>>, memref<1x4x16xf32, strided<[64, 16, 1], offset: ?>>) outs(%out : memref<1x3x1x16xf32, strided<[768, 64, 16, 1], offset: ?>>) attrs = {irkit.register_tile} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// f64 (4 lanes on AVX2), the operands in the other order (rhs first) and
// the product written `y * x`, the sum `p + acc`: a 2x8 tile, 2 x 2
// accumulators.

// CHECK-LABEL: func.func @f64_rhs_first
// CHECK:         scf.for {{.*}} -> (vector<4xf64>, vector<4xf64>, vector<4xf64>, vector<4xf64>) {
// CHECK:           vector.load %{{.*}} : memref<3x8xf64, strided<[16, 1]>>, vector<4xf64>
// CHECK:           memref.load %{{.*}} : memref<2x3xf64>
// CHECK:           vector.fma %{{.*}} : vector<4xf64>
// CHECK-NOT:     linalg.generic
func.func @f64_rhs_first(%b: memref<3x8xf64, strided<[16, 1]>>, %a: memref<2x3xf64>, %c: memref<2x8xf64> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%b, %a : memref<3x8xf64, strided<[16, 1]>>, memref<2x3xf64>) outs(%c : memref<2x8xf64>) attrs = {irkit.register_tile} {
  ^bb0(%y: f64, %x: f64, %acc: f64):
    %p = arith.mulf %y, %x : f64
    %s = arith.addf %p, %acc : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// Left alone (each stays a scalar linalg.generic): not marked a register
// tile; integer elements; inputs widened (f16 into f32); 10 columns, not a
// whole number of 8-lane vectors nor of 4-lane (128-bit) ones; 16 x 16 outputs (32 accumulators: more
// than 16 registers); an input that may alias the output; a column loop
// that the lhs reads too (not an outer product); an rhs read along its
// diagonal (the column loop twice in its map).

// CHECK-LABEL: func.func @rejected
// CHECK-NOT:     vector.
// CHECK-COUNT-8: linalg.generic
// CHECK-NOT:     vector.
// CHECK:         return
func.func @rejected(%a: memref<2x3xf32>, %b: memref<3x16xf32>, %c: memref<2x16xf32> {irkit.output}, %ai: memref<2x3xi32>, %bi: memref<3x16xi32>, %ci: memref<2x16xi32> {irkit.output}, %ah: memref<2x3xf16>, %bh: memref<3x16xf16>, %b12: memref<3x10xf32>, %c12: memref<2x10xf32> {irkit.output}, %a16: memref<16x3xf32>, %c16: memref<16x16xf32> {irkit.output}, %x: memref<3x16xf32> {irkit.output}, %y: memref<16x3xf32>, %d: memref<2x16xf32> {irkit.output}, %diagonal: memref<3x16x16xf32>) {
  %xo = memref.subview %x[0, 0] [2, 16] [1, 1] : memref<3x16xf32> to memref<2x16xf32, strided<[16, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x3xf32>, memref<3x16xf32>) outs(%c : memref<2x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ai, %bi : memref<2x3xi32>, memref<3x16xi32>) outs(%ci : memref<2x16xi32>) attrs = {irkit.register_tile} {
  ^bb0(%p: i32, %q: i32, %acc: i32):
    %m = arith.muli %p, %q : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%ah, %bh : memref<2x3xf16>, memref<3x16xf16>) outs(%c : memref<2x16xf32>) attrs = {irkit.register_tile} {
  ^bb0(%p: f16, %q: f16, %acc: f32):
    %pw = arith.extf %p : f16 to f32
    %qw = arith.extf %q : f16 to f32
    %m = arith.mulf %pw, %qw : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b12 : memref<2x3xf32>, memref<3x10xf32>) outs(%c12 : memref<2x10xf32>) attrs = {irkit.register_tile} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a16, %b : memref<16x3xf32>, memref<3x16xf32>) outs(%c16 : memref<16x16xf32>) attrs = {irkit.register_tile} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %x : memref<2x3xf32>, memref<3x16xf32>) outs(%xo : memref<2x16xf32, strided<[16, 1]>>) attrs = {irkit.register_tile} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%y, %b : memref<16x3xf32>, memref<3x16xf32>) outs(%d : memref<2x16xf32>) attrs = {irkit.register_tile} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %diagonal : memref<2x3xf32>, memref<3x16x16xf32>) outs(%d : memref<2x16xf32>) attrs = {irkit.register_tile} {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// 4 columns, not a whole 8-lane vector: 128-bit vectors of 4 lanes instead
// (a packed matmul's column tail).

// CHECK-LABEL: func.func @narrower_vectors
// CHECK:         vector.load %{{.*}} : memref<1x2x1x4xf32{{.*}}>, vector<4xf32>
// CHECK:         vector.fma %{{.*}}, %{{.*}}, %{{.*}} : vector<4xf32>
// CHECK-NOT:     linalg.generic
func.func @narrower_vectors(%a: memref<1x3x2xf32>, %b: memref<1x3x4xf32>, %c: memref<1x2x1x4xf32> {irkit.output}) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d1, d4, d2)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : memref<1x3x2xf32>, memref<1x3x4xf32>) outs(%c : memref<1x2x1x4xf32>) attrs = {irkit.register_tile} {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
