// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// The warpgroup ops round trip: operands in 128-byte swizzled workgroup
// tiles (rows of 64 16-bit elements; a k-major B in panels), the m64nN
// accumulators a private run, fences, groups and waits.

// CHECK-LABEL: func.func @warpgroup_product
func.func @warpgroup_product() {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) workgroup(%a : memref<2x64x64xf16, #gpu.address_space<workgroup>>, %b : memref<2x128x64xf16, #gpu.address_space<workgroup>>, %bt : memref<2x2x64x64xbf16, #gpu.address_space<workgroup>>, %at : memref<64x64xbf16, #gpu.address_space<workgroup>>, %fa : memref<64x32xf32, #gpu.address_space<workgroup>>) private(%acc : memref<64xf32, #gpu.address_space<private>>, %facc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    // CHECK: mma.fence_proxy_async
    mma.fence_proxy_async
    // CHECK-NEXT: mma.warpgroup_fence
    mma.warpgroup_fence
    // CHECK-NEXT: mma.warpgroup_mma %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}] {n = 128 : i64} : memref<2x64x64xf16, #gpu.address_space<workgroup>>, memref<2x128x64xf16, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<private>>
    mma.warpgroup_mma %a[%c1, %c0, %c16], %b[%c1, %c0, %c16], %acc[%c0] {n = 128 : i64} : memref<2x64x64xf16, #gpu.address_space<workgroup>>, memref<2x128x64xf16, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<private>>
    // CHECK-NEXT: mma.warpgroup_mma %{{.*}} {n = 128 : i64, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<2x2x64x64xbf16, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<private>>
    mma.warpgroup_mma %at[%c0, %c0], %bt[%c0, %c0, %c16, %c0], %acc[%c0] {n = 128 : i64, transpose_b} : memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<2x2x64x64xbf16, #gpu.address_space<workgroup>>, memref<64xf32, #gpu.address_space<private>>
    // A TF32 product: f32 tiles of 32-element (128-byte) rows, m64nNk8.
    // CHECK-NEXT: mma.warpgroup_mma %{{.*}} {n = 64 : i64, tf32} : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    mma.warpgroup_mma %fa[%c0, %c8], %fa[%c0, %c8], %facc[%c0] {n = 64 : i64, tf32} : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    // CHECK-NEXT: mma.warpgroup_commit
    mma.warpgroup_commit
    // CHECK-NEXT: mma.warpgroup_wait %{{.*}} {pending = 1 : i64} : memref<64xf32, #gpu.address_space<private>>
    mma.warpgroup_wait %acc {pending = 1 : i64} : memref<64xf32, #gpu.address_space<private>>
    // CHECK-NEXT: mma.warpgroup_wait {pending = 0 : i64}
    mma.warpgroup_wait {pending = 0 : i64}
    gpu.terminator
  }
  return
}
