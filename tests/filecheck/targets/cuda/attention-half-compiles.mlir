// RUN: irkit-opt %s -p 'lower-to-cuda{max-dynamic-shared-bytes=232448 multiprocessors=132 tensor-cores=false}' -t cuda -o %t.cu
// RUN: filecheck %s --input-file=%t.cu
// RUN: nvcc -arch=sm_90 -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.sm90.cubin %t.cu
// REQUIRES: nvcc

// The fused half attention (`linalg-fuse-attention` on torch-mlir's f16
// chain: 96 heads x 512 queries x 64, causal; without tensor cores, which
// would take its products unfused) is one kernel whose q, keys,
// values and rounded scores are `__half` tiles in dynamic shared memory
// beside the f32 scores and accumulator; it compiles for Hopper without
// warnings or spilled registers (ptxas's spill warnings are errors here;
// ptxas 13.0: 95 registers; tiles of 128 rows x 128 keys, 215 KB of shared
// memory).

// CHECK-COUNT-1: __global__
// CHECK-NOT:     __global__
// CHECK:         __half *__restrict__ {{q.*}} = reinterpret_cast<__half *>(irkit_dynamic_shared
// CHECK-NEXT:    float *__restrict__ scores = reinterpret_cast<float *>(irkit_dynamic_shared
// CHECK-NEXT:    __half *__restrict__ scores_1 = reinterpret_cast<__half *>(irkit_dynamic_shared
// CHECK:         float *__restrict__ {{out.*}} = reinterpret_cast<float *>(irkit_dynamic_shared
// CHECK-NEXT:    __half *__restrict__ staged = reinterpret_cast<__half *>(irkit_dynamic_shared
// CHECK-NEXT:    __half *__restrict__ staged_1 = reinterpret_cast<__half *>(irkit_dynamic_shared

#row = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#rows = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @attention(%q: tensor<96x512x64xf16>, %k: tensor<96x512x64xf16>, %v: tensor<96x512x64xf16>) -> tensor<96x512x64xf16> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %scale = arith.constant 0.5 : f16
  %ninf16 = arith.constant 0xFC00 : f16
  %se = tensor.empty() : tensor<96x512x512xf32>
  %s0 = linalg.fill ins(%zero : f32) outs(%se : tensor<96x512x512xf32>) -> tensor<96x512x512xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<96x512x64xf16>, tensor<96x512x64xf16>) outs(%s0 : tensor<96x512x512xf32>) {
  ^bb0(%a: f16, %b: f16, %c: f32):
    %a32 = arith.extf %a : f16 to f32
    %b32 = arith.extf %b : f16 to f32
    %ab = arith.mulf %a32, %b32 : f32
    %sum = arith.addf %c, %ab : f32
    linalg.yield %sum : f32
  } -> tensor<96x512x512xf32>
  %re = tensor.empty() : tensor<96x512x512xf16>
  %r = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<96x512x512xf32>) outs(%re : tensor<96x512x512xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<96x512x512xf16>
  %xe = tensor.empty() : tensor<96x512x512xf32>
  %x = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%r : tensor<96x512x512xf16>) outs(%xe : tensor<96x512x512xf32>) {
  ^bb0(%in: f16, %o: f32):
    %scaled = arith.mulf %in, %scale : f16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %later = arith.cmpi sgt, %j, %i : index
    %masked = arith.select %later, %ninf16, %scaled : f16
    %wide = arith.extf %masked : f16 to f32
    linalg.yield %wide : f32
  } -> tensor<96x512x512xf32>
  %me = tensor.empty() : tensor<96x512xf32>
  %m0 = linalg.fill ins(%ninf : f32) outs(%me : tensor<96x512xf32>) -> tensor<96x512xf32>
  %m = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x : tensor<96x512x512xf32>) outs(%m0 : tensor<96x512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %y = arith.maximumf %in, %acc : f32
    linalg.yield %y : f32
  } -> tensor<96x512xf32>
  %ee = tensor.empty() : tensor<96x512x512xf32>
  %e = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %m : tensor<96x512x512xf32>, tensor<96x512xf32>) outs(%ee : tensor<96x512x512xf32>) {
  ^bb0(%in: f32, %mx: f32, %o: f32):
    %d = arith.subf %in, %mx : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<96x512x512xf32>
  %le = tensor.empty() : tensor<96x512xf32>
  %l0 = linalg.fill ins(%zero : f32) outs(%le : tensor<96x512xf32>) -> tensor<96x512xf32>
  %l = linalg.generic {indexing_maps = [#row, #rows], iterator_types = ["parallel", "parallel", "reduction"]} ins(%e : tensor<96x512x512xf32>) outs(%l0 : tensor<96x512xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %y = arith.addf %in, %acc : f32
    linalg.yield %y : f32
  } -> tensor<96x512xf32>
  %pe = tensor.empty() : tensor<96x512x512xf16>
  %p = linalg.generic {indexing_maps = [#row, #rows, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%e, %l : tensor<96x512x512xf32>, tensor<96x512xf32>) outs(%pe : tensor<96x512x512xf16>) {
  ^bb0(%in: f32, %sum: f32, %o: f16):
    %y = arith.divf %in, %sum : f32
    %y16 = arith.truncf %y : f32 to f16
    linalg.yield %y16 : f16
  } -> tensor<96x512x512xf16>
  %oe = tensor.empty() : tensor<96x512x64xf32>
  %o0 = linalg.fill ins(%zero : f32) outs(%oe : tensor<96x512x64xf32>) -> tensor<96x512x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<96x512x512xf16>, tensor<96x512x64xf16>) outs(%o0 : tensor<96x512x64xf32>) -> tensor<96x512x64xf32>
  %he = tensor.empty() : tensor<96x512x64xf16>
  %h = linalg.generic {indexing_maps = [#row, #row], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<96x512x64xf32>) outs(%he : tensor<96x512x64xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<96x512x64xf16>
  return %h : tensor<96x512x64xf16>
}
