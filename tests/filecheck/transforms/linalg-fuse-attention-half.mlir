// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=4 block-keys=4 min-block=1}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{cpu=true vector-bits=128 block-rows=4 block-keys=4 min-block=4}' | filecheck %s --check-prefix=CPU
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,linalg-fuse-attention{block-rows=4 block-keys=4 min-block=1 half-products-on-tensor-cores=true}' | filecheck %s --check-prefix=TENSORCORES

// Half-precision attention as torch-mlir exports it (f16 q, k, v; products
// accumulated in f32; the scores rounded to f16, scaled and masked in f16
// and widened to f32; the softmax in f32; the probabilities rounded to f16;
// the output rounded to f16). The fused kernel stages q, k and v in f16
// (rows padded by two f16, one bank), keeps the online softmax's state and
// the output's accumulator in f32, and holds two score tiles: the f32 one (the products, the softmax) and an
// f16 one (the rounded scores, then the rounded numerators the product with
// v reads). It rounds where the program does: the scores after the
// product, the output after the division; the probabilities `e / l` it
// cannot (l is known after the last key step), so it rounds the
// numerators `exp(x - running max)` before the product with v instead.
// The causal bound reads through the modifier's `extf`.
// Semantics: tests/properties/test_linalg_fuse_attention.py (half cases).
// Where the products would take tensor cores unfused
// (`half-products-on-tensor-cores`, as `lower-to-cuda{tensor-cores}` sets
// it), the half chains are left alone: the fused kernel's products are SIMT.

// TENSORCORES-LABEL: func.func @causal_f16
// TENSORCORES-NOT:     scf.forall
// TENSORCORES:         linalg.generic
// TENSORCORES-NOT:     scf.forall
// TENSORCORES-LABEL: func.func @numerators_rounded
// TENSORCORES-LABEL: func.func @output_rounded_transposed
// TENSORCORES-NOT:     scf.forall
// TENSORCORES-LABEL: func.func @softmax_in_f16
// TENSORCORES-NOT:     scf.forall

// CHECK-LABEL: func.func @causal_f16
// CHECK-NOT:     linalg.generic
// CHECK:         scf.forall
// CHECK:           %[[Q:.*]] = memref.alloc() : memref<1x4x6xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[SCORES_BUFFER:.*]] = memref.alloc() : memref<4x16xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[SCORES:.*]] = memref.subview %[[SCORES_BUFFER]]
// CHECK:           %[[HALF_BUFFER:.*]] = memref.alloc() : memref<4x16xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[HALF:.*]] = memref.subview %[[HALF_BUFFER]]
// CHECK:           memref.alloc() : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[OUT:.*]] = memref.subview %out[{{.*}}] [1, 4, 2] [1, 1, 1] : memref<1x4x2xf16> to memref<1x4x2xf16
// CHECK:           memref.alloc() : memref<1x4x16xf32, #gpu.address_space<workgroup>>
// CHECK:           memref.alloc() : memref<1x4x6xf16, #gpu.address_space<workgroup>>
// CHECK:           memref.alloc() : memref<1x4x4xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[KEYS:.*]] = affine.min affine_map<(d0) -> (d0 + 4, 8)>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[KEYS]] step
// CHECK:             %[[SCORES_VIEW:.*]] = memref.expand_shape %[[SCORES]]
// CHECK:             ^bb0(%{{.*}}: f16, %{{.*}}: f16, %{{.*}}: f32):
// CHECK:             %[[HALF_VIEW:.*]] = memref.expand_shape %[[HALF]]
// CHECK-NEXT:        linalg.generic {{.*}} ins(%[[SCORES_VIEW]] : {{.*}}) outs(%[[HALF_VIEW]] : {{.*}})
// CHECK-NEXT:        ^bb0(%[[SCORE:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:          arith.truncf %[[SCORE]] : f32 to f16
// CHECK:             linalg.generic {{.*}} ins(%[[HALF_VIEW]] : {{.*}}) outs(%[[SCORES_VIEW]] : {{.*}})
// CHECK:               arith.mulf {{.*}} : f16
// CHECK:               arith.extf {{.*}} : f16 to f32
// CHECK:             arith.maximumf
// CHECK:             math.exp
// CHECK:             arith.addf
// CHECK:             linalg.generic {{.*}} ins(%[[SCORES]] : {{.*}}) outs(%[[HALF]] : {{.*}})
// CHECK-NEXT:        ^bb0(%[[NUMERATOR:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:          arith.truncf %[[NUMERATOR]] : f32 to f16
// CHECK:             linalg.generic {{.*}} ins(%[[HALF_VIEW]], %{{.*}} : memref<1x4x4xf16, {{.*}}>, memref<1x4x2xf16, {{.*}}>) outs(%{{.*}} : memref<1x4x2xf32
// CHECK:           linalg.generic {{.*}} outs(%[[OUT]] : memref<1x4x2xf16
// CHECK-NEXT:      ^bb0(%[[ACC:.*]]: f32, %[[SUM:.*]]: f32, %{{.*}}: f16):
// CHECK-NEXT:        %[[O:.*]] = arith.divf %[[ACC]], %[[SUM]] : f32
// CHECK-NEXT:        %[[ROUNDED:.*]] = arith.truncf %[[O]] : f32 to f16
// CHECK-NEXT:        linalg.yield %[[ROUNDED]] : f16
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.alloc()
// CHECK:         return

// CPU-LABEL: func.func @causal_f16
// CPU:         scf.forall
// CPU:           memref.alloca() {alignment = 64 : i64} : memref<1x4x4xf16>
// CPU:           memref.alloca() {alignment = 64 : i64} : memref<4x4xf32>
// CPU:           memref.alloca() {alignment = 64 : i64} : memref<4x4xf16>
// CPU:           memref.alloca() {alignment = 64 : i64} : memref<1x4x2xf32>
// CPU:           memref.alloca() {alignment = 64 : i64} : memref<1x4x4xf16>
// CPU:           memref.alloca() {alignment = 64 : i64} : memref<1x4x2xf16>
// CPU:           arith.truncf {{.*}} : f32 to f16
// CPU:           arith.truncf {{.*}} : f32 to f16
// CPU:           arith.truncf {{.*}} : f32 to f16

#row = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @causal_f16(%q: tensor<1x4x4xf16>, %k: tensor<1x8x4xf16>, %v: tensor<1x8x2xf16>) -> tensor<1x4x2xf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f16
  %ninf16 = arith.constant 0xFC00 : f16
  %se = tensor.empty() : tensor<1x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x4xf16>, tensor<1x8x4xf16>) outs(%s0 : tensor<1x4x8xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %ab = arith.mulf %a32, %b32 : f32
    %sum = arith.addf %c, %ab : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x8xf32>
  %re = tensor.empty() : tensor<1x4x8xf16>
  %r = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x8xf32>) outs(%re : tensor<1x4x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x8xf16>
  %xe = tensor.empty() : tensor<1x4x8xf32>
  %x = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<1x4x8xf16>) outs(%xe : tensor<1x4x8xf32>) {
  ^bb0(%in: f16, %o: f32):
    %scaled = arith.mulf %in, %scale : f16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi sgt, %j, %i : index
    %masked = arith.select %later, %ninf16, %scaled : f16
    %wide = arith.extf %masked : f16 to f32
    linalg.yield %wide : f32
  } -> tensor<1x4x8xf32>
  %me = tensor.empty() : tensor<1x4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<1x4xf32>) -> tensor<1x4xf32>
  %m = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x4x8xf32>) outs(%m0 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %y = arith.maximumf %in, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %ee = tensor.empty() : tensor<1x4x8xf32>
  %e = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<1x4x8xf32>, tensor<1x4xf32>) outs(%ee : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %o: f32):
    %d = arith.subf %in, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %le = tensor.empty() : tensor<1x4xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<1x4xf32>) -> tensor<1x4xf32>
  %l = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<1x4x8xf32>) outs(%l0 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %y = arith.addf %in, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %pe = tensor.empty() : tensor<1x4x8xf16>
  %p = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x4x8xf32>, tensor<1x4xf32>) outs(%pe : tensor<1x4x8xf16>) {
  ^bb0(%in: f32, %sum: f32, %o: f16):
    %y = arith.divf %in, %sum : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<1x4x8xf16>
  %oe = tensor.empty() : tensor<1x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4x8xf16>, tensor<1x8x2xf16>) outs(%o0 : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %he = tensor.empty() : tensor<1x4x2xf16>
  %h = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<1x4x2xf32>) outs(%he : tensor<1x4x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x2xf16>
  return %h : tensor<1x4x2xf16>
}

// -----

// Rejected: the numerators are rounded to f16 before the row sum and the
// division. An online softmax computes them against the running max, not
// the final one, and rescales them afterwards: `round(exp(x - m))` at the
// final max `m` cannot be reproduced, so the chain stays unfused (the
// exp's body is not `exp(x - m)` alone).

// CHECK-LABEL: func.func @numerators_rounded
// CHECK-NOT:     scf.forall
// CHECK:         return
// CPU-LABEL:   func.func @numerators_rounded
// CPU-NOT:       scf.forall
// CPU:           return

#row = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @numerators_rounded(%q: tensor<1x4x4xf16>, %k: tensor<1x8x4xf16>, %v: tensor<1x8x2xf16>) -> tensor<1x4x2xf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f16
  %ninf16 = arith.constant 0xFC00 : f16
  %se = tensor.empty() : tensor<1x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x4xf16>, tensor<1x8x4xf16>) outs(%s0 : tensor<1x4x8xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %ab = arith.mulf %a32, %b32 : f32
    %sum = arith.addf %c, %ab : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x8xf32>
  %re = tensor.empty() : tensor<1x4x8xf16>
  %r = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x8xf32>) outs(%re : tensor<1x4x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x8xf16>
  %xe = tensor.empty() : tensor<1x4x8xf32>
  %x = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<1x4x8xf16>) outs(%xe : tensor<1x4x8xf32>) {
  ^bb0(%in: f16, %o: f32):
    %scaled = arith.mulf %in, %scale : f16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi sgt, %j, %i : index
    %masked = arith.select %later, %ninf16, %scaled : f16
    %wide = arith.extf %masked : f16 to f32
    linalg.yield %wide : f32
  } -> tensor<1x4x8xf32>
  %me = tensor.empty() : tensor<1x4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<1x4xf32>) -> tensor<1x4xf32>
  %m = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x4x8xf32>) outs(%m0 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %y = arith.maximumf %in, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %ee = tensor.empty() : tensor<1x4x8xf16>
  %e = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<1x4x8xf32>, tensor<1x4xf32>) outs(%ee : tensor<1x4x8xf16>) {
  ^bb0(%in: f32, %mx: f32, %o: f16):
    %d = arith.subf %in, %mx : f32
    %y = math.exp %d : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<1x4x8xf16>
  %le = tensor.empty() : tensor<1x4xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<1x4xf32>) -> tensor<1x4xf32>
  %l = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<1x4x8xf16>) outs(%l0 : tensor<1x4xf32>) {
  ^bb0(%in: f16, %acc: f32):
    %in32 = arith.extf %in : f16 to f32
    %y = arith.addf %in32, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %pe = tensor.empty() : tensor<1x4x8xf16>
  %p = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x4x8xf16>, tensor<1x4xf32>) outs(%pe : tensor<1x4x8xf16>) {
  ^bb0(%in: f16, %sum: f32, %o: f16):
    %in32 = arith.extf %in : f16 to f32
    %y = arith.divf %in32, %sum : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<1x4x8xf16>
  %oe = tensor.empty() : tensor<1x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4x8xf16>, tensor<1x8x2xf16>) outs(%o0 : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %he = tensor.empty() : tensor<1x4x2xf16>
  %h = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<1x4x2xf32>) outs(%he : tensor<1x4x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x2xf16>
  return %h : tensor<1x4x2xf16>
}

// -----

// The output rounded to f16 through a transposition (LLaMA's head merge)
// is not the chain's: the kernel writes the values' f32 output, and the
// rounding stays after it, as it was.

// CHECK-LABEL: func.func @output_rounded_transposed
// CHECK:         %[[VALUES:.*]] = memref.alloc() : memref<1x4x2xf32>
// CHECK:         scf.forall
// CHECK:           linalg.generic {{.*}} outs(%{{.*}} : memref<1x4x2xf32, strided<[8, 2, 1], offset: ?>>)
// CHECK-NEXT:      ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:        arith.divf
// CHECK-NEXT:        linalg.yield
// CHECK:         linalg.generic {{.*}} ins(%[[VALUES]] : memref<1x4x2xf32>) outs(%out : memref<4x1x2xf16>)
// CHECK:           arith.truncf

#row = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @output_rounded_transposed(%q: tensor<1x4x4xf16>, %k: tensor<1x8x4xf16>, %v: tensor<1x8x2xf16>) -> tensor<4x1x2xf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f16
  %ninf16 = arith.constant 0xFC00 : f16
  %se = tensor.empty() : tensor<1x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x4xf16>, tensor<1x8x4xf16>) outs(%s0 : tensor<1x4x8xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %ab = arith.mulf %a32, %b32 : f32
    %sum = arith.addf %c, %ab : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x8xf32>
  %re = tensor.empty() : tensor<1x4x8xf16>
  %r = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x8xf32>) outs(%re : tensor<1x4x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x8xf16>
  %xe = tensor.empty() : tensor<1x4x8xf32>
  %x = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<1x4x8xf16>) outs(%xe : tensor<1x4x8xf32>) {
  ^bb0(%in: f16, %o: f32):
    %scaled = arith.mulf %in, %scale : f16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi sgt, %j, %i : index
    %masked = arith.select %later, %ninf16, %scaled : f16
    %wide = arith.extf %masked : f16 to f32
    linalg.yield %wide : f32
  } -> tensor<1x4x8xf32>
  %me = tensor.empty() : tensor<1x4xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<1x4xf32>) -> tensor<1x4xf32>
  %m = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x4x8xf32>) outs(%m0 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %y = arith.maximumf %in, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %ee = tensor.empty() : tensor<1x4x8xf32>
  %e = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<1x4x8xf32>, tensor<1x4xf32>) outs(%ee : tensor<1x4x8xf32>) {
  ^bb0(%in: f32, %mx: f32, %o: f32):
    %d = arith.subf %in, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<1x4x8xf32>
  %le = tensor.empty() : tensor<1x4xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<1x4xf32>) -> tensor<1x4xf32>
  %l = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<1x4x8xf32>) outs(%l0 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %y = arith.addf %in, %acc : f32
    linalg.yield %y : f32
  } -> tensor<1x4xf32>
  %pe = tensor.empty() : tensor<1x4x8xf16>
  %p = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x4x8xf32>, tensor<1x4xf32>) outs(%pe : tensor<1x4x8xf16>) {
  ^bb0(%in: f32, %sum: f32, %o: f16):
    %y = arith.divf %in, %sum : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<1x4x8xf16>
  %oe = tensor.empty() : tensor<1x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4x8xf16>, tensor<1x8x2xf16>) outs(%o0 : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %he = tensor.empty() : tensor<4x1x2xf16>
  %h = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1, d0, d2)>, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<1x4x2xf32>) outs(%he : tensor<4x1x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x1x2xf16>
  return %h : tensor<4x1x2xf16>
}

// -----

// The softmax itself in f16, reading the scores rounded by an op of their
// own: the running max, sum and factors stay f16 (the program's types), the
// product with v accumulates in f32, the factor widened to scale it, and
// the final division widens the f16 sum.

// CHECK-LABEL: func.func @softmax_in_f16
// CHECK:         scf.forall
// CHECK:           %[[SUM:sum]] = memref.alloc() : memref<4xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[ALPHA:alpha]] = memref.alloc() : memref<4xf16, #gpu.address_space<workgroup>>
// CHECK:           scf.for
// CHECK:             arith.maximumf {{.*}} : f16
// CHECK:             math.exp {{.*}} : f16
// CHECK:             ins(%[[ALPHA]] : {{.*}}) outs(%{{.*}} : memref<1x4x2xf32
// CHECK-NEXT:        ^bb0(%[[FACTOR:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:          %[[WIDE:.*]] = arith.extf %[[FACTOR]] : f16 to f32
// CHECK-NEXT:          arith.mulf %[[ACC]], %[[WIDE]] : f32
// CHECK:           ins(%{{.*}}, %[[SUM]] : {{.*}}) outs(%{{.*}} : memref<1x4x2xf16
// CHECK-NEXT:      ^bb0(%[[OUT:.*]]: f32, %[[TOTAL:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:        %[[WIDE_SUM:.*]] = arith.extf %[[TOTAL]] : f16 to f32
// CHECK-NEXT:        %[[O:.*]] = arith.divf %[[OUT]], %[[WIDE_SUM]] : f32
// CHECK-NEXT:        arith.truncf %[[O]] : f32 to f16

#row = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @softmax_in_f16(%q: tensor<1x4x4xf16>, %k: tensor<1x8x4xf16>, %v: tensor<1x8x2xf16>) -> tensor<1x4x2xf16> {
  %zero = arith.constant 0.0 : f32
  %zero16 = arith.constant 0.0 : f16
  %ninf16 = arith.constant 0xFC00 : f16
  %se = tensor.empty() : tensor<1x4x8xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<1x4x4xf16>, tensor<1x8x4xf16>) outs(%s0 : tensor<1x4x8xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %ab = arith.mulf %a32, %b32 : f32
    %sum = arith.addf %c, %ab : f32
    linalg.yield %sum : f32
  } -> tensor<1x4x8xf32>
  %re = tensor.empty() : tensor<1x4x8xf16>
  %x = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x4x8xf32>) outs(%re : tensor<1x4x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x8xf16>
  %me = tensor.empty() : tensor<1x4xf16>
  %m0 = linalg.fill ins(%ninf16 : f16) outs(%me : tensor<1x4xf16>) -> tensor<1x4xf16>
  %m = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<1x4x8xf16>) outs(%m0 : tensor<1x4xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %y = arith.maximumf %in, %acc : f16
    linalg.yield %y : f16
  } -> tensor<1x4xf16>
  %ee = tensor.empty() : tensor<1x4x8xf16>
  %e = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<1x4x8xf16>, tensor<1x4xf16>) outs(%ee : tensor<1x4x8xf16>) {
  ^bb0(%in: f16, %mx: f16, %o: f16):
    %d = arith.subf %in, %mx : f16
    %y = math.exp %d : f16
    linalg.yield %y : f16
  } -> tensor<1x4x8xf16>
  %le = tensor.empty() : tensor<1x4xf16>
  %l0 = linalg.fill ins(%zero16 : f16) outs(%le : tensor<1x4xf16>) -> tensor<1x4xf16>
  %l = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<1x4x8xf16>) outs(%l0 : tensor<1x4xf16>) {
  ^bb0(%in: f16, %acc: f16):
    %y = arith.addf %in, %acc : f16
    linalg.yield %y : f16
  } -> tensor<1x4xf16>
  %pe = tensor.empty() : tensor<1x4x8xf16>
  %p = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<1x4x8xf16>, tensor<1x4xf16>) outs(%pe : tensor<1x4x8xf16>) {
  ^bb0(%in: f16, %sum: f16, %o: f16):
    %y = arith.divf %in, %sum : f16
    linalg.yield %y : f16
  } -> tensor<1x4x8xf16>
  %oe = tensor.empty() : tensor<1x4x2xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<1x4x8xf16>, tensor<1x8x2xf16>) outs(%o0 : tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %he = tensor.empty() : tensor<1x4x2xf16>
  %h = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<1x4x2xf32>) outs(%he : tensor<1x4x2xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x4x2xf16>
  return %h : tensor<1x4x2xf16>
}
