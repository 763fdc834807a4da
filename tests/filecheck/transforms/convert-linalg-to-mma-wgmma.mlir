// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true wgmma-block=128,128 stages=3 max-shared-bytes=232448 tma=false}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true stages=4 max-shared-bytes=232448}' | filecheck %s --check-prefix=WIDE
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true wgmma-block=128,128 stages=4}' | filecheck %s --check-prefix=BUDGET

// A half-precision matmul as warpgroup products: one launch of 256 threads
// (two warpgroups, 64 rows each) per 128x128 tile, tiles of 64-element
// (128-byte) rows copied by cp.async to their swizzled chunks (chunk c of
// row r at c ^ (r % 8)), three buffers deep; B stored k-major is copied in
// panels of 64 columns and multiplied transposed (`transpose_b`). Per K
// step: the copies' wait, the proxy fence and the barrier, then four
// m64n128k16 products 16 elements (32 bytes) apart along the rows,
// committed as one group; the previous step's group retires (this one runs
// on into the next step), and the copies of the step after next are issued
// while it runs: one step ahead, one buffer each for the copies, the
// products and the products still running. The last group retires after
// the loop.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.generic
// CHECK: threads(%tid, %{{.*}}, %{{.*}}) in (%{{.*}} = %threads, {{.*}} workgroup(%a_tiles : memref<3x128x64xf16, #gpu.address_space<workgroup>>, %b_tiles : memref<3x2x64x64xf16, #gpu.address_space<workgroup>>) private(%acc : memref<64xf32, #gpu.address_space<private>>)
// CHECK: %warpgroup = arith.divui %tid, %c128 : index
// CHECK: memref.store %zero, %acc
// CHECK: %[[ROW:.*]] = arith.divui %tid, %c8 : index
// CHECK-NEXT: %[[CHUNK:.*]] = arith.remui %tid, %c8 : index
// CHECK: %[[PERMUTE:.*]] = arith.remui %[[ROW]], %c8 : index
// CHECK-NEXT: %[[STORED:.*]] = arith.xori %[[CHUNK]], %[[PERMUTE]] : index
// CHECK-NEXT: %[[COLUMN:.*]] = arith.muli %[[STORED]], %c8 : index
// CHECK-NEXT: mma.cp_async %a[%{{.*}}, %{{.*}}], %a_tiles[%c0, %[[ROW]], %[[COLUMN]]]
// CHECK: mma.cp_async %b[%{{.*}}, %{{.*}}], %b_tiles[%c0, %{{.*}}, %{{.*}}, %{{.*}}]
// CHECK: mma.cp_async_commit
// CHECK-NOT: mma.cp_async
// CHECK: scf.for %step = %c0 to %c4 step %c1 {
// CHECK-NEXT: mma.cp_async_wait {pending = 0 : i64}
// CHECK-NEXT: mma.fence_proxy_async
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[STAGE:.*]] = arith.remui %step, %c3 : index
// CHECK-NEXT: mma.warpgroup_fence
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG:.*]], %c0], %b_tiles[%[[STAGE]], %c0, %c0, %c0], %acc[%c0] {n = 128 : i64, transpose_b}
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG]], %c16], %b_tiles[%[[STAGE]], %c0, %c16, %c0], %acc[%c0] {n = 128 : i64, transpose_b}
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG]], %c32], %b_tiles[%[[STAGE]], %c0, %c32, %c0], %acc[%c0] {n = 128 : i64, transpose_b}
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG]], %c48], %b_tiles[%[[STAGE]], %c0, %c48, %c0], %acc[%c0] {n = 128 : i64, transpose_b}
// CHECK-NEXT: mma.warpgroup_commit
// CHECK-NEXT: mma.warpgroup_wait %acc {pending = 1 : i64}
// CHECK: scf.if
// CHECK: mma.cp_async %a[
// CHECK: mma.cp_async_commit
// CHECK-NEXT: }
// CHECK-NEXT: mma.warpgroup_wait %acc {pending = 0 : i64}
// CHECK: memref.load %acc[%c63]
// CHECK-NOT: mma.sync

// The default 128x256 tile: 128 accumulators a thread, one resident block
// (four stages of 48 KiB, copied by TMA: an mbarrier a stage); a budget of 48 KiB fits no 128x128 pipeline of
// two stages (64 KiB): the mma.sync kernel takes the matmul.
// WIDE-LABEL: func.func @matmul
// WIDE: workgroup(%a_tiles : memref<4x128x64xf16, #gpu.address_space<workgroup>>, %b_tiles : memref<4x4x64x64xf16, #gpu.address_space<workgroup>>, %barriers : memref<4xi64, #gpu.address_space<workgroup>>) private(%acc : memref<128xf32, #gpu.address_space<private>>)
// WIDE: mma.warpgroup_mma {{.*}} {n = 256 : i64, transpose_b}
// WIDE: } {nvvm.minctasm = 1 : i32}
// BUDGET-LABEL: func.func @matmul
// BUDGET-NOT: mma.warpgroup_mma
// BUDGET: mma.sync
func.func @matmul(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// B stored n-major (a transposed nn.Linear weight): K-major for the
// instruction, copied as rows like A, multiplied without `transpose_b`.
// CHECK-LABEL: func.func @linear
// CHECK: workgroup(%a_tiles : memref<3x128x64xbf16, #gpu.address_space<workgroup>>, %b_tiles : memref<3x128x64xbf16, #gpu.address_space<workgroup>>)
// CHECK: mma.warpgroup_mma %a_tiles[%{{.*}}, %{{.*}}, %c16], %b_tiles[%{{.*}}, %c0, %c16], %acc[%c0] {n = 128 : i64} :
func.func @linear(%a: tensor<128x128xbf16>, %w: tensor<128x128xbf16>, %init: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%init : tensor<128x128xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// A K that a 128-byte row (64 elements) does not divide falls back to the
// mma.sync kernel; so does a matmul of f32 operands (none taken without
// tf32).
// CHECK-LABEL: func.func @short_k
// CHECK-NOT: mma.warpgroup_mma
// CHECK: mma.sync
func.func @short_k(%a: tensor<128x48xf16>, %b: tensor<48x128xf16>, %init: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x48xf16>, tensor<48x128xf16>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// CHECK-LABEL: func.func @f32_matmul
// CHECK-NOT: mma.
// CHECK: linalg.generic
func.func @f32_matmul(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %init: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
