// RUN: irkit-opt %s --split-input-file -p 'linalg-fuse-elementwise{recompute-broadcasts=true}' --check-semantics | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-fuse-elementwise' | filecheck %s --check-prefix=KEPT

#vec = affine_map<(d0) -> (d0)>
#img = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#chan = affine_map<(d0, d1, d2) -> (d1)>

// A batch norm's per-channel scale, 1 / sqrt(var + eps) with torch-mlir's
// assert, read broadcast over an image by the normalisation: recomputed
// there (one op, no 8-element tensor), with `recompute-broadcasts`. Without
// it (KEPT, `lower-to-c`'s choice) the scale stays an op of its own.

// CHECK-LABEL: func.func @batch_norm_scale
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %var : tensor<2x8x5xf32>, tensor<8xf32>)
// CHECK:           math.absf
// CHECK:           arith.addf
// CHECK:           math.sqrt
// CHECK:           cf.assert
// CHECK:           arith.divf
// CHECK:           arith.mulf
// CHECK:         return %[[R]]
// KEPT-LABEL: func.func @batch_norm_scale
// KEPT-COUNT-2: linalg.generic
func.func @batch_norm_scale(%x: tensor<2x8x5xf32>, %var: tensor<8xf32>) -> tensor<2x8x5xf32> {
  %eps = arith.constant 1.0e-05 : f32
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e8 = tensor.empty() : tensor<8xf32>
  %scale = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%var : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %a = math.absf %v : f32
    %s = arith.addf %a, %eps : f32
    %r = math.sqrt %s : f32
    %nz = arith.cmpf one, %r, %zero : f32
    cf.assert %nz, "unimplemented: tensor with zero element"
    %q = arith.divf %one, %r : f32
    linalg.yield %q : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<2x8x5xf32>
  %y = linalg.generic {indexing_maps = [#img, #chan, #img], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %scale : tensor<2x8x5xf32>, tensor<8xf32>) outs(%e : tensor<2x8x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<2x8x5xf32>
  return %y : tensor<2x8x5xf32>
}

// -----

#vec = affine_map<(d0) -> (d0)>
#rows = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
#sum = affine_map<(d0, d1) -> (d0)>

// Left alone: a producer read broadcast by a reduction (recomputed in the
// reduction's body, a matmul would lose its `out + a * b` form), and one of
// more than 8 ops (recomputing it per element could cost more than its
// kernel).

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: linalg.generic
func.func @kept(%x: tensor<4x8xf32>, %v: tensor<8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %e8 = tensor.empty() : tensor<8xf32>
  %cheap = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%v : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.sqrt %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %zero = arith.constant 0.0 : f32
  %e4 = tensor.empty() : tensor<4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#rows, #col, #sum], iterator_types = ["parallel", "reduction"]} ins(%x, %cheap : tensor<4x8xf32>, tensor<8xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %long = linalg.generic {indexing_maps = [#vec, #vec], iterator_types = ["parallel"]} ins(%v : tensor<8xf32>) outs(%e8 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.sqrt %a : f32
    %1 = math.exp %0 : f32
    %2 = math.log %1 : f32
    %3 = math.sqrt %2 : f32
    %4 = math.exp %3 : f32
    %5 = math.log %4 : f32
    %6 = math.sqrt %5 : f32
    %7 = math.exp %6 : f32
    %8 = math.log %7 : f32
    linalg.yield %8 : f32
  } -> tensor<8xf32>
  %e = tensor.empty() : tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#rows, #col, #rows], iterator_types = ["parallel", "parallel"]} ins(%x, %long : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %sum, %y : tensor<4xf32>, tensor<4x8xf32>
}
