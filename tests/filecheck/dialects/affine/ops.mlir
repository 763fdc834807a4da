// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// affine.apply/min/max print as MLIR does: the map directly followed by its
// operands, affine expressions with MLIR's spelling (`s0 - d0`, `-d0`).

// CHECK-LABEL: func.func @maps
// CHECK-NEXT:    %a = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
// CHECK-NEXT:    %b = affine.max affine_map<(d0) -> (0, d0 - 2)>(%i) {tag}
// CHECK-NEXT:    %c = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%i)
// CHECK-NEXT:    %d = affine.apply affine_map<()[s0] -> (s0 mod 4)>()[%n]
// CHECK-NEXT:    %e = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1 - 3)>(%i, %a)
// CHECK-NEXT:    %f = affine.apply affine_map<(d0, d1) -> (-d0 + d1 * 2 - (d0 ceildiv 2) * 3)>(%i, %a)
// CHECK-NEXT:    %g = affine.apply affine_map<(d0, d1) -> (d0 - d1 - 2)>(%i, %a)
// CHECK-NEXT:    %h = affine.apply affine_map<(d0) -> ((d0 + 1) mod 4)>(%i)
func.func @maps(%i: index, %n: index) -> index {
  %a = affine.min affine_map<(d0)[s0] -> (4, s0 - d0)>(%i)[%n]
  %b = affine.max affine_map<(d0) -> (0, d0 - 2)>(%i) {tag}
  %c = affine.apply affine_map<(d0) -> (d0 floordiv 4)>(%i)
  %d = affine.apply affine_map<()[s0] -> (s0 mod 4)>()[%n]
  %e = affine.apply affine_map<(d0, d1) -> (d0 * 4 + d1 - 3)>(%i, %a)
  %f = affine.apply affine_map<(d0, d1) -> (-d0 + d1 * 2 - (d0 ceildiv 2) * 3)>(%i, %a)
  %g = affine.apply affine_map<(d0, d1) -> (d0 - (d1 + 2))>(%i, %a)
  %h = affine.apply affine_map<(d0) -> ((d0 + 1) mod 4)>(%i)
  return %a : index
}

// CHECK-LABEL: func.func @loops
// CHECK:         affine.for %i = 0 to min affine_map<()[s0] -> (8, s0)>()[%n] step 2 {
// CHECK-NEXT:      %v = affine.load %m[%i + 1] : memref<10xf32>
// CHECK-NEXT:      affine.store %v, %m[%i] : memref<10xf32>
// CHECK-NEXT:    }
func.func @loops(%m: memref<10xf32>, %n: index) {
  affine.for %i = 0 to min affine_map<()[s0] -> (8, s0)>()[%n] step 2 {
    %v = affine.load %m[%i + 1] : memref<10xf32>
    affine.store %v, %m[%i] : memref<10xf32>
  }
  return
}
