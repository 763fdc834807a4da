// RUN: irkit-opt %s --split-input-file -p 'linalg-pad-contractions{multiples=4,4,4 gather-multiples=2,2,2 max-growth-percent=200}' --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-pad-contractions{multiples=4,4,4 max-growth-percent=200}' | filecheck %s --check-prefix=PLAIN

// An implicit GEMM (an operand that a gather writes right before it, as
// an im2col does: `has_gathered_operand`) pads to `gather-multiples`, the
// tiles `linalg-tile-for-gpu{gather-block}` gives it: 4x6x6 is a multiple
// of 2 everywhere, so nothing is padded. The plain matmul beside it pads
// to `multiples` (6 -> 8 along j and k). Without `gather-multiples`
// (PLAIN) both pad to `multiples`.

// CHECK-LABEL: func.func @gathered
// CHECK:         linalg.generic {{.*}} ins(%w, %col : memref<4x6xf32>, memref<6x6xf32>) outs(%c : memref<4x6xf32>)
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x8xf32>) outs(%{{.*}} : memref<4x8xf32>)

// PLAIN-LABEL: func.func @gathered
// PLAIN:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x8xf32>) outs(%{{.*}} : memref<4x8xf32>)
// PLAIN:         linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x8xf32>) outs(%{{.*}} : memref<4x8xf32>)
func.func @gathered(%x: memref<20xf32>, %w: memref<4x6xf32>, %v: memref<6x6xf32>, %c: memref<4x6xf32> {irkit.output}, %d: memref<4x6xf32> {irkit.output}) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<4x6xf32>)
  linalg.fill ins(%zero : f32) outs(%d : memref<4x6xf32>)
  %col = memref.alloc() : memref<6x6xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%col : memref<6x6xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %e = memref.load %x[%s] : memref<20xf32>
    linalg.yield %e : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %col : memref<4x6xf32>, memref<6x6xf32>) outs(%c : memref<4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  memref.dealloc %col : memref<6x6xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%w, %v : memref<4x6xf32>, memref<6x6xf32>) outs(%d : memref<4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  }
  return
}
