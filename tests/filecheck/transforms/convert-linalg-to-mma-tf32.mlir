// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{tf32=true}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma' | filecheck %s --check-prefix=OFF

// With `tf32`, an f32 matmul runs on tensor cores as m16n8k8 TF32 products:
// 16-byte copies of 4 floats, A's rows padded by 4 floats and a k-major
// B's by 8 (a warp's plain fragment loads fall in 32 distinct banks), no
// ldmatrix (PTX has none for 32-bit elements), and `mma.sync {tf32}`.
// Without the option (the default) the matmul is left to the exact SIMT
// kernels.

// On 2 x 4 warps a warp owns 64x32 outputs: 4 x 4 products, A fragments of
// 4 floats each, B fragments of 2. Two stages of 128x(32+4) and 32x(128+8)
// floats would pass the 48 KiB budget: K steps of 16 (two slices of 8) fit.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.generic
// CHECK: gpu.launch {{.*}} workgroup(%a_tiles : memref<2x128x20xf32, #gpu.address_space<workgroup>>, %b_tiles : memref<2x16x136xf32, #gpu.address_space<workgroup>>) private(%a_fragments : memref<16xf32, #gpu.address_space<private>>, %b_fragments : memref<8xf32, #gpu.address_space<private>>, %acc : memref<64xf32, #gpu.address_space<private>>)
// CHECK: memref.store %zero, %acc
// CHECK: mma.cp_async %a[{{.*}}], %a_tiles[{{.*}}] : memref<128x32xf32>, memref<2x128x20xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for %step = %c0 to %c2 step %c1
// CHECK: mma.cp_async_wait {pending = 0 : i64}
// CHECK-NEXT: gpu.barrier
// CHECK: %[[A0:.*]] = memref.load %a_tiles[
// CHECK-NEXT: memref.store %[[A0]], %a_fragments[%c0]
// CHECK: %[[B0:.*]] = memref.load %b_tiles[
// CHECK-NEXT: memref.store %[[B0]], %b_fragments[%c0]
// CHECK: mma.sync %a_fragments[%c0], %b_fragments[%c0], %acc[%c0] {tf32} : memref<16xf32, #gpu.address_space<private>>, memref<8xf32, #gpu.address_space<private>>, memref<64xf32, #gpu.address_space<private>>
// CHECK-COUNT-31: mma.sync {{.*}} {tf32}
// CHECK-NOT: mma.sync
// CHECK: gpu.terminator
// CHECK-NOT: mma.ldmatrix
// OFF-LABEL: func.func @matmul
// OFF-NOT: gpu.launch
// OFF-NOT: mma.
// OFF: linalg.generic {{.*}}"reduction"
func.func @matmul(%a: tensor<128x32xf32>, %b: tensor<32x128xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x32xf32>, tensor<32x128xf32>) outs(%f : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// B stored n-major (an nn.Linear weight): its rows are padded by 4 floats
// like A's; K = 24 takes steps of 8, one product slice each.

// CHECK-LABEL: func.func @linear
// CHECK: workgroup(%a_tiles : memref<2x128x12xf32, #gpu.address_space<workgroup>>, %b_tiles : memref<2x64x12xf32, #gpu.address_space<workgroup>>)
// CHECK: scf.for %step = %c0 to %c3 step %c1
// CHECK: mma.sync {{.*}} {tf32}
// OFF-LABEL: func.func @linear
// OFF-NOT: mma.
func.func @linear(%x: tensor<128x24xf32>, %w: tensor<64x24xf32>, %init: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %r = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<128x24xf32>, tensor<64x24xf32>) outs(%init : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %r : tensor<128x64xf32>
}

// -----

// Left alone even with tf32: f64 (TF32 is for f32 only), an f32 matmul no
// tile divides (K = 20: not a multiple of the instruction's 8), and f16
// operands accumulated in f16.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: gpu.launch
// CHECK-COUNT-3: linalg.generic {{.*}}"reduction"
// CHECK-NOT: mma.
func.func @left_alone(%a: tensor<64x64xf64>, %b: tensor<64x64xf64>, %c: tensor<64x20xf32>, %d: tensor<20x64xf32>, %x: tensor<64x64xf16>, %y: tensor<64x64xf16>, %i: tensor<64x64xf64>, %j: tensor<64x64xf32>, %k: tensor<64x64xf16>) -> (tensor<64x64xf64>, tensor<64x64xf32>, tensor<64x64xf16>) {
  %r = linalg.matmul ins(%a, %b : tensor<64x64xf64>, tensor<64x64xf64>) outs(%i : tensor<64x64xf64>) -> tensor<64x64xf64>
  %r2 = linalg.matmul ins(%c, %d : tensor<64x20xf32>, tensor<20x64xf32>) outs(%j : tensor<64x64xf32>) -> tensor<64x64xf32>
  %r3 = linalg.matmul ins(%x, %y : tensor<64x64xf16>, tensor<64x64xf16>) outs(%k : tensor<64x64xf16>) -> tensor<64x64xf16>
  return %r, %r2, %r3 : tensor<64x64xf64>, tensor<64x64xf32>, tensor<64x64xf16>
}
