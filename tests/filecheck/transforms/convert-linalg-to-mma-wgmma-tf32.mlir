// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true tf32=true tf32-transpose-b=false wgmma-block=128,128 stages=3 max-shared-bytes=232448}' | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true tf32=true tf32-transpose-b=false stages=4 max-shared-bytes=232448}' | filecheck %s --check-prefix=WIDE
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true tf32=true tf32-transpose-b=false wgmma-block=128,128 stages=4}' | filecheck %s --check-prefix=BUDGET
// RUN: irkit-opt %s --split-input-file -p 'linalg-generalize-named-ops,bufferize,convert-linalg-to-mma{wgmma=true tf32=true wgmma-block=128,128 stages=3 max-shared-bytes=232448}' | filecheck %s --check-prefix=TRANSPOSED

// An f32 matmul with `tf32` as warpgroup products: tiles of 32-element
// (128-byte) rows, A's rows copied 16 bytes at a time to their swizzled
// chunks as for f16; B, stored k-major, copied one element (4 bytes) at a
// time into a K-major tile (row n, column k: PTX has no transposed 32-bit
// operand): a warp copies 4 k by 8 n, lane l k `l % 4`, n `l / 4`, into
// chunk `k / 4 ^ n % 8` of row n. Per K step of 32: four m64nNk8 products
// 8 elements (32 bytes) apart along both operands' rows, no transpose_b.
// CHECK-LABEL: func.func @matmul
// CHECK-NOT: linalg.generic
// CHECK: workgroup(%a_tiles : memref<3x128x32xf32, #gpu.address_space<workgroup>>, %b_tiles : memref<3x128x32xf32, #gpu.address_space<workgroup>>) private(%acc : memref<64xf32, #gpu.address_space<private>>)
// CHECK: mma.cp_async %a[%{{.*}}, %{{.*}}], %a_tiles[%c0, %{{.*}}, %{{.*}}] : memref<256x256xf32>
// CHECK: %[[WARP:.*]] = arith.divui %tid, %c32 : index
// CHECK-NEXT: %[[LANE:.*]] = arith.remui %tid, %c32 : index
// CHECK-NEXT: %[[K_IN:.*]] = arith.remui %[[LANE]], %c4 : index
// CHECK-NEXT: %[[N_IN:.*]] = arith.divui %[[LANE]], %c4 : index
// CHECK-NEXT: %[[K_GROUP:.*]] = arith.remui %[[WARP]], %c8 : index
// CHECK-NEXT: %[[N_BLOCK:.*]] = arith.divui %[[WARP]], %c8 : index
// CHECK-NEXT: %[[K4:.*]] = arith.muli %[[K_GROUP]], %c4 : index
// CHECK-NEXT: %[[K:.*]] = arith.addi %[[K4]], %[[K_IN]] : index
// CHECK-NEXT: %[[N8:.*]] = arith.muli %[[N_BLOCK]], %c8 : index
// CHECK-NEXT: %[[N:.*]] = arith.addi %[[N8]], %[[N_IN]] : index
// CHECK-NEXT: %[[CHUNK:.*]] = arith.divui %[[K]], %c4 : index
// CHECK-NEXT: %[[PERMUTE:.*]] = arith.remui %[[N]], %c8 : index
// CHECK-NEXT: %[[STORED:.*]] = arith.xori %[[CHUNK]], %[[PERMUTE]] : index
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %[[STORED]], %c4 : index
// CHECK-NEXT: %[[IN_CHUNK:.*]] = arith.remui %[[K]], %c4 : index
// CHECK-NEXT: %[[COLUMN:.*]] = arith.addi %[[BASE]], %[[IN_CHUNK]] : index
// CHECK-NEXT: %[[GN:.*]] = arith.addi %{{.*}}, %[[N]] : index
// CHECK-NEXT: mma.cp_async %b[%[[K]], %[[GN]]], %b_tiles[%c0, %[[N]], %[[COLUMN]]] {bytes = 4 : i64} : memref<256x256xf32>, memref<3x128x32xf32, #gpu.address_space<workgroup>>
// The next round: the next 8 rows n (8 warps, 8 k groups of a row).
// CHECK-NEXT: %{{.*}} = arith.addi %[[N_BLOCK]], %c1 : index
// CHECK: scf.for %step = %c0 to %c8 step %c1 {
// CHECK-NEXT: mma.cp_async_wait {pending = 0 : i64}
// CHECK-NEXT: mma.fence_proxy_async
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: %[[STAGE:.*]] = arith.remui %step, %c3 : index
// CHECK-NEXT: mma.warpgroup_fence
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG:.*]], %c0], %b_tiles[%[[STAGE]], %c0, %c0], %acc[%c0] {n = 128 : i64, tf32}
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG]], %c8], %b_tiles[%[[STAGE]], %c0, %c8], %acc[%c0] {n = 128 : i64, tf32}
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG]], %c16], %b_tiles[%[[STAGE]], %c0, %c16], %acc[%c0] {n = 128 : i64, tf32}
// CHECK-NEXT: mma.warpgroup_mma %a_tiles[%[[STAGE]], %[[WG]], %c24], %b_tiles[%[[STAGE]], %c0, %c24], %acc[%c0] {n = 128 : i64, tf32}
// CHECK-NEXT: mma.warpgroup_commit
// CHECK-NEXT: mma.warpgroup_wait %acc {pending = 1 : i64}
// CHECK-NOT: mma.sync

// The default 128x256 block: four stages of (128 + 256) rows of 128 bytes
// (192 KiB, as for f16: f32 halves the K of a step, not its bytes); a
// budget of 48 KiB fits no 128x128 pipeline of two stages (64 KiB): the
// mma.sync kernel takes the matmul, its operands rounded to TF32.
// WIDE-LABEL: func.func @matmul
// WIDE: workgroup(%a_tiles : memref<4x128x32xf32, #gpu.address_space<workgroup>>, %b_tiles : memref<4x256x32xf32, #gpu.address_space<workgroup>>) private(%acc : memref<128xf32, #gpu.address_space<private>>)
// WIDE: mma.warpgroup_mma {{.*}} {n = 256 : i64, tf32}
// By default (`tf32-transpose-b`), B is transposed once into an N x K
// buffer before the kernel (a linalg.generic for
// linalg-tile-transposes-for-gpu), which then copies its rows 16 bytes at
// a time as A's (no element copies); the buffer is freed after the kernel,
// and the fill is still the kernel's.
// TRANSPOSED-LABEL: func.func @matmul
// TRANSPOSED-NOT: linalg.fill
// TRANSPOSED: %[[BT:.*]] = memref.alloc() : memref<256x256xf32>
// TRANSPOSED-NEXT: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%b : memref<256x256xf32>) outs(%[[BT]] : memref<256x256xf32>)
// TRANSPOSED: gpu.launch
// TRANSPOSED-NOT: bytes = 4
// TRANSPOSED: mma.cp_async %[[BT]][%{{.*}}, %{{.*}}], %b_tiles[%c0, %{{.*}}, %{{.*}}] : memref<256x256xf32>
// TRANSPOSED-NOT: bytes = 4
// TRANSPOSED: mma.warpgroup_mma {{.*}} {n = 128 : i64, tf32}
// TRANSPOSED-NOT: bytes = 4
// TRANSPOSED: memref.dealloc %[[BT]] : memref<256x256xf32>
// TRANSPOSED-NEXT: func.return
// BUDGET-LABEL: func.func @matmul
// BUDGET-NOT: mma.warpgroup_mma
// BUDGET: mma.sync {{.*}} {tf32}
func.func @matmul(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// B stored n-major (`x @ W^T`, nn.Linear's weight through a transposed
// map): already K-major, copied as rows like A with 16-byte copies, no
// element copies, no transpose anywhere.
// CHECK-LABEL: func.func @linear
// CHECK: workgroup(%a_tiles : memref<3x128x32xf32, #gpu.address_space<workgroup>>, %b_tiles : memref<3x128x32xf32, #gpu.address_space<workgroup>>)
// CHECK-NOT: bytes = 4
// CHECK: mma.cp_async %w[%{{.*}}, %{{.*}}], %b_tiles[%c0, %{{.*}}, %{{.*}}] : memref<128x64xf32>
// CHECK-NOT: bytes = 4
// CHECK: mma.warpgroup_mma %a_tiles[%{{.*}}, %{{.*}}, %c8], %b_tiles[%{{.*}}, %c0, %c8], %acc[%c0] {n = 128 : i64, tf32} :
// CHECK-NOT: bytes = 4
// CHECK-LABEL: return
func.func @linear(%a: tensor<128x64xf32>, %w: tensor<128x64xf32>, %init: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %w : tensor<128x64xf32>, tensor<128x64xf32>) outs(%init : tensor<128x128xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// A batch of rectangular products: B (2 x K x N) transposed to 2 x N x K,
// the batch loop kept outermost.
// TRANSPOSED-LABEL: func.func @batched
// TRANSPOSED: %[[BT:.*]] = memref.alloc() : memref<2x192x64xf32>
// TRANSPOSED-NEXT: linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%b : memref<2x64x192xf32>) outs(%[[BT]] : memref<2x192x64xf32>)
// TRANSPOSED: mma.warpgroup_mma
// TRANSPOSED: memref.dealloc %[[BT]]
func.func @batched(%a: tensor<2x128x64xf32>, %b: tensor<2x64x192xf32>, %init: tensor<2x128x192xf32>) -> tensor<2x128x192xf32> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x128x64xf32>, tensor<2x64x192xf32>) outs(%init : tensor<2x128x192xf32>) -> tensor<2x128x192xf32>
  return %r : tensor<2x128x192xf32>
}

// -----

// A K that one 128-byte row of f32 (32 elements) does not divide falls
// back to the mma.sync kernel's TF32 products (K steps of 8).
// CHECK-LABEL: func.func @short_k
// CHECK-NOT: mma.warpgroup_mma
// The mma.sync kernel reads B k-major as it is: no transposed copy.
// TRANSPOSED-LABEL: func.func @short_k
// TRANSPOSED-NOT: memref.alloc
// TRANSPOSED: mma.sync {{.*}} {tf32}
// CHECK: mma.sync {{.*}} {tf32}
func.func @short_k(%a: tensor<128x40xf32>, %b: tensor<40x128xf32>, %init: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<128x40xf32>, tensor<40x128xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}

// -----

// Mixed operands (f32 x f16) are no TF32 matmul: left alone.
// CHECK-LABEL: func.func @mixed
// CHECK-NOT: mma.
// CHECK: linalg.generic
func.func @mixed(%a: tensor<128x64xf32>, %b: tensor<64x128xf16>, %init: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : tensor<128x64xf32>, tensor<64x128xf16>) outs(%init : tensor<128x128xf32>) {
  ^bb0(%x: f32, %y: f16, %acc: f32):
    %yf = arith.extf %y : f16 to f32
    %p = arith.mulf %x, %yf : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<128x128xf32>
  return %r : tensor<128x128xf32>
}
