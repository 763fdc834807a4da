// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{warps=2,2 stages=4 max-shared-bytes=100000}' | filecheck %s --check-prefix=DEEP
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{warps=2,2 stages=4 max-shared-bytes=60000}' | filecheck %s --check-prefix=BUDGET
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{block=256,128,32 warps=2,4}' | filecheck %s --check-prefix=WIDE

// A half-precision matmul into f32 with a zero fill: one launch of 256
// threads per 128x128 tile, tiles copied by cp.async two buffers deep
// (rows padded by 8), fragments by ldmatrix (B stored k-major: transposed),
// products by mma.sync; the fill initialises the accumulators.

// With 2 x 2 warps (128 threads) each warp owns a 64x64 tile: 32 products
// of 16x8, 128 accumulators, so the launch asks for one resident block
// (`nvvm.minctasm`, the full register file per thread). Four stages of
// 128x40 and 32x136 halves take 75776 bytes: within a budget of 100000; a
// budget of 60000 keeps three (56832 bytes). 256x128 tiles on 2 x 4 warps
// are 128x32 per warp: 128 accumulators as well.
// DEEP-LABEL: func.func @matmul
// DEEP: threads(%tid, %{{.*}}, %{{.*}}) in (%{{.*}} = %threads, {{.*}} workgroup(%a_tiles : memref<4x128x40xf16, #gpu.address_space<workgroup>>, %b_tiles : memref<4x32x136xf16, #gpu.address_space<workgroup>>) private(%a_fragments : memref<32xf16, #gpu.address_space<private>>, %b_fragments : memref<32xf16, #gpu.address_space<private>>, %acc : memref<128xf32, #gpu.address_space<private>>)
// DEEP: mma.cp_async_wait {pending = 2 : i64}
// DEEP: } {nvvm.minctasm = 1 : i32}
// BUDGET-LABEL: func.func @matmul
// BUDGET: workgroup(%a_tiles : memref<3x128x40xf16, #gpu.address_space<workgroup>>, %b_tiles : memref<3x32x136xf16, #gpu.address_space<workgroup>>)
// WIDE-LABEL: func.func @matmul
// WIDE: private(%a_fragments : memref<64xf16, #gpu.address_space<private>>, %b_fragments : memref<16xf16, #gpu.address_space<private>>, %acc : memref<128xf32, #gpu.address_space<private>>)
// WIDE: } {nvvm.minctasm = 1 : i32}

// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch blocks(%bx, %by, %{{.*}}) in (%{{.*}} = %blocks_x, %{{.*}} = %blocks_y, %{{.*}} = %blocks_z) threads(%tid, %{{.*}}, %{{.*}}) in (%{{.*}} = %threads, {{.*}} workgroup(%a_tiles : memref<2x128x40xf16, #gpu.address_space<workgroup>>, %b_tiles : memref<2x32x136xf16, #gpu.address_space<workgroup>>) private(%a_fragments : memref<32xf16, #gpu.address_space<private>>, %b_fragments : memref<16xf16, #gpu.address_space<private>>, %acc : memref<64xf32, #gpu.address_space<private>>)
// CHECK: memref.store %zero, %acc
// CHECK: mma.cp_async %a[
// CHECK: mma.cp_async %b[
// CHECK: mma.cp_async_commit
// CHECK: scf.for %step = %c0 to %c2 step %c1 {
// CHECK-NEXT: mma.cp_async_wait {pending = 0 : i64}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: mma.cp_async %a[
// CHECK: mma.cp_async_commit
// CHECK: mma.ldmatrix %a_tiles[{{.*}}], %a_fragments[%c0] {tiles = 4 : i64}
// CHECK: mma.ldmatrix %b_tiles[{{.*}}], %b_fragments[%c0] {tiles = 4 : i64, transpose}
// CHECK: mma.sync %a_fragments[%c0], %b_fragments[%c0], %acc[%c0]
// CHECK: memref.load %acc
// CHECK: memref.store %{{.*}}, %out[
// CHECK: gpu.terminator
func.func @matmul(%a: tensor<256x64xf16>, %b: tensor<64x128xf16>) -> tensor<256x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x128xf32>) -> tensor<256x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x64xf16>, tensor<64x128xf16>) outs(%f : tensor<256x128xf32>) -> tensor<256x128xf32>
  return %r : tensor<256x128xf32>
}

// -----

// B stored n-major (torch's nn.Linear weight, read through the transposed
// map): ldmatrix without transpose; no fill, so the accumulators start from
// the output; bf16 operands; K = 48 takes K steps of 16.

// CHECK-LABEL: func.func @linear
// CHECK: gpu.launch
// CHECK-SAME: workgroup(%a_tiles : memref<2x64x24xbf16, #gpu.address_space<workgroup>>, %b_tiles : memref<2x64x24xbf16, #gpu.address_space<workgroup>>)
// CHECK: memref.load %out[
// CHECK: scf.for %step = %c0 to %c3 step %c1 {
// CHECK: mma.ldmatrix %b_tiles[{{.*}}], %b_fragments[%c0] {tiles = 4 : i64} :
// CHECK: mma.sync
func.func @linear(%x: tensor<64x48xbf16>, %w: tensor<64x48xbf16>, %init: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%x, %w : tensor<64x48xbf16>, tensor<64x48xbf16>) outs(%init : tensor<64x64xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %af = arith.extf %a : bf16 to f32
    %bf = arith.extf %b : bf16 to f32
    %p = arith.mulf %af, %bf : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// A batch matmul: the batch runs along z, and B (shared by the batch) has no
// batch dimension.

// CHECK-LABEL: func.func @batched
// CHECK: %blocks_x = arith.constant 1 : index
// CHECK: %blocks_y = arith.constant 1 : index
// CHECK: %blocks_z = arith.constant 6 : index
// CHECK: gpu.launch blocks(%bx, %by, %{{.*}}) in (%{{.*}} = %blocks_x, %{{.*}} = %blocks_y, %{{.*}} = %blocks_z)
// CHECK: mma.cp_async %a[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}], %a_tiles
// CHECK: mma.cp_async %b[%{{.*}}, %{{.*}}], %b_tiles
func.func @batched(%a: tensor<2x3x64x32xf16>, %b: tensor<32x64xf16>, %init: tensor<2x3x64x64xf32>) -> tensor<2x3x64x64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%a, %b : tensor<2x3x64x32xf16>, tensor<32x64xf16>) outs(%init : tensor<2x3x64x64xf32>) {
  ^bb0(%x: f16, %y: f16, %c: f32):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x3x64x64xf32>
  return %r : tensor<2x3x64x64xf32>
}

// -----

// Left alone for the SIMT kernels: extents no tile divides (K = 24, M = 96),
// and f32 operands.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: gpu.launch
// CHECK-COUNT-3: linalg.generic {{.*}}"reduction"
// CHECK-NOT: mma.
func.func @left_alone(%a: tensor<64x24xf16>, %b: tensor<24x64xf16>, %c: tensor<96x64xf16>, %d: tensor<64x64xf16>, %x: tensor<64x64xf32>, %y: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<96x64xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x24xf16>, tensor<24x64xf16>) outs(%f : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e2 = tensor.empty() : tensor<96x64xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<96x64xf32>) -> tensor<96x64xf32>
  %r2 = linalg.matmul ins(%c, %d : tensor<96x64xf16>, tensor<64x64xf16>) outs(%f2 : tensor<96x64xf32>) -> tensor<96x64xf32>
  %e3 = tensor.empty() : tensor<64x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r3 = linalg.matmul ins(%x, %y : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f3 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %r, %r2, %r3 : tensor<64x64xf32>, tensor<96x64xf32>, tensor<64x64xf32>
}
