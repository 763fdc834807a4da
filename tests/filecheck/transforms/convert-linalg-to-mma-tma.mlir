// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true wgmma-block=128,128 stages=3 max-shared-bytes=232448}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true wgmma-block=128,128 stages=3 max-shared-bytes=232448 tma=false}' | filecheck %s --check-prefix=OFF
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true tf32=true tf32-transpose-b=false wgmma-block=128,128 stages=3 max-shared-bytes=232448}' | filecheck %s --check-prefix=TF32

// Warpgroup kernels copy their tiles with the Tensor Memory Accelerator
// (`tma`, the default): an mbarrier a stage, made by thread 0 and published
// by a barrier; thread 0 expects a step's bytes (A's 128x64 box and B's two
// 64x64 panels, 2 bytes each: 32768) and starts its copies, the first
// `stages - 2` steps before the loop. A step waits for its stage's phase
// (the parity of its round through the stages), then the barrier, the
// products, and thread 0's copies of the step after next.
// CHECK-LABEL: func.func @matmul
// CHECK: workgroup(%a_tiles : memref<3x128x64xf16, #gpu.address_space<workgroup>>, %b_tiles : memref<3x2x64x64xf16, #gpu.address_space<workgroup>>, %barriers : memref<3xi64, #gpu.address_space<workgroup>>)
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %tid, %c0 : index
// CHECK-NEXT: scf.if %[[FIRST]] {
// CHECK-NEXT: mma.mbarrier_init %barriers[%c0] {count = 1 : i64}
// CHECK-NEXT: mma.mbarrier_init %barriers[%c1] {count = 1 : i64}
// CHECK-NEXT: mma.mbarrier_init %barriers[%c2] {count = 1 : i64}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK-NEXT: mma.mbarrier_arrive_expect_tx %barriers[%c0] {bytes = 32768 : i64}
// CHECK-NEXT: mma.tma_load %a[%{{.*}}, %c0], %a_tiles[%c0, %c0, %c0], %barriers[%c0] {box = array<i64: 128, 64>}
// CHECK-NEXT: mma.tma_load %b[%c0, %{{.*}}], %b_tiles[%c0, %c0, %c0, %c0], %barriers[%c0] {box = array<i64: 64, 64>}
// CHECK: mma.tma_load %b[%c0, %{{.*}}], %b_tiles[%c0, %c1, %c0, %c0], %barriers[%c0] {box = array<i64: 64, 64>}
// CHECK-NOT: mma.tma_load
// CHECK: scf.for %step = %c0 to %c4 step %c1 {
// CHECK-NEXT: %[[STAGE:.*]] = arith.remui %step, %c3 : index
// CHECK-NEXT: %[[ROUND:.*]] = arith.divui %step, %c3 : index
// CHECK-NEXT: %[[PARITY:.*]] = arith.remui %[[ROUND]], %c2 : index
// CHECK-NEXT: mma.mbarrier_wait %barriers[%[[STAGE]]], %[[PARITY]]
// CHECK-NEXT: gpu.barrier
// CHECK: mma.warpgroup_wait %acc {pending = 1 : i64}
// CHECK: scf.if
// CHECK: scf.if
// CHECK-NEXT: mma.mbarrier_arrive_expect_tx
// CHECK-NEXT: mma.tma_load %a
// CHECK-NOT: mma.cp_async
// OFF-LABEL: func.func @matmul
// OFF-NOT: mma.tma_load
// OFF: mma.cp_async
func.func @matmul(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// B stored n-major: one 128x64 box of B a step, as A's; a batch of
// matmuls: the boxes take size 1 along the batch.
// CHECK-LABEL: func.func @batched_linear
// CHECK: mma.tma_load %a[%{{.*}}, %{{.*}}, %c0], %a_tiles[%c0, %c0, %c0], %barriers[%c0] {box = array<i64: 1, 128, 64>}
// CHECK-NEXT: mma.tma_load %w[%{{.*}}, %c0], %b_tiles[%c0, %c0, %c0], %barriers[%c0] {box = array<i64: 128, 64>}
func.func @batched_linear(%a: tensor<2x128x128xbf16>, %w: tensor<128x128xbf16>, %init: tensor<2x128x128xf32>) -> tensor<2x128x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%a, %w : tensor<2x128x128xbf16>, tensor<128x128xbf16>) outs(%init : tensor<2x128x128xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %p = arith.mulf %xf, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<2x128x128xf32>
  return %r : tensor<2x128x128xf32>
}

// -----

// TF32 warpgroup kernels keep cp.async (their B is copied transposed).
// TF32-LABEL: func.func @tf32
// TF32-NOT: mma.tma_load
// TF32: mma.cp_async
// TF32-NOT: mma.tma_load
// TF32: mma.warpgroup_mma {{.*}}tf32
func.func @tf32(%a: tensor<128x64xf32>, %b: tensor<64x128xf32>, %init: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
