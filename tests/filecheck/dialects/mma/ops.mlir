// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// The mma dialect round trips: fragments in private memory, tiles in
// workgroup memory, copies from global memory.

// CHECK-LABEL: func.func @warp_product
func.func @warp_product(%g: memref<64x64xf16>, %h: memref<64x64xbf16>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) workgroup(%tile : memref<2x16x24xf16, #gpu.address_space<workgroup>>, %btile : memref<16x8xbf16, #gpu.address_space<workgroup>>) private(%a : memref<16xf16, #gpu.address_space<private>>, %b : memref<4xf16, #gpu.address_space<private>>, %acc : memref<2x4xf32, #gpu.address_space<private>>, %bb : memref<8xbf16, #gpu.address_space<private>>, %fa : memref<4xf32, #gpu.address_space<private>>, %fb : memref<2xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    // CHECK: mma.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    mma.cp_async %g[%tx, %c0], %tile[%c1, %c0, %c8] : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    // A 4-byte copy (cp.async.ca): two f16 elements.
    // CHECK-NEXT: mma.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] {bytes = 4 : i64} : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    mma.cp_async %g[%tx, %c0], %tile[%c1, %c0, %c8] {bytes = 4 : i64} : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    // The zero-filling form: bytes past valid_bytes written as zeros.
    // CHECK-NEXT: mma.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] valid_bytes %{{.*}} : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    mma.cp_async %g[%tx, %c0], %tile[%c1, %c0, %c8] valid_bytes %c8 : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    // CHECK-NEXT: mma.cp_async %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}] valid_bytes %{{.*}} {bytes = 4 : i64} : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    mma.cp_async %g[%tx, %c0], %tile[%c1, %c0, %c8] valid_bytes %tx {bytes = 4 : i64} : memref<64x64xf16>, memref<2x16x24xf16, #gpu.address_space<workgroup>>
    // CHECK-NEXT: mma.cp_async_commit
    mma.cp_async_commit
    // CHECK-NEXT: mma.cp_async_wait {pending = 1 : i64}
    mma.cp_async_wait {pending = 1 : i64}
    // CHECK: mma.ldmatrix %{{.*}} {tiles = 4 : i64} : memref<2x16x24xf16, #gpu.address_space<workgroup>>, memref<16xf16, #gpu.address_space<private>>
    mma.ldmatrix %tile[%c0, %c0, %c0], %a[%c8] {tiles = 4 : i64} : memref<2x16x24xf16, #gpu.address_space<workgroup>>, memref<16xf16, #gpu.address_space<private>>
    // CHECK: mma.ldmatrix %{{.*}} {tiles = 2 : i64, transpose} : memref<2x16x24xf16, #gpu.address_space<workgroup>>, memref<4xf16, #gpu.address_space<private>>
    mma.ldmatrix %tile[%c0, %c0, %c0], %b[%c0] {tiles = 2 : i64, transpose} : memref<2x16x24xf16, #gpu.address_space<workgroup>>, memref<4xf16, #gpu.address_space<private>>
    // CHECK: mma.sync %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] : memref<16xf16, #gpu.address_space<private>>, memref<4xf16, #gpu.address_space<private>>, memref<2x4xf32, #gpu.address_space<private>>
    mma.sync %a[%c8], %b[%c0], %acc[%c1, %c0] : memref<16xf16, #gpu.address_space<private>>, memref<4xf16, #gpu.address_space<private>>, memref<2x4xf32, #gpu.address_space<private>>
    // CHECK: mma.ldmatrix %{{.*}} : memref<16x8xbf16, #gpu.address_space<workgroup>>, memref<8xbf16, #gpu.address_space<private>>
    mma.ldmatrix %btile[%c0, %c0], %bb[%c0] {tiles = 4 : i64, transpose} : memref<16x8xbf16, #gpu.address_space<workgroup>>, memref<8xbf16, #gpu.address_space<private>>
    // A TF32 product (m16n8k8) of f32 fragments: 4 elements of A, 2 of B.
    // CHECK: mma.sync %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}] {tf32} : memref<4xf32, #gpu.address_space<private>>, memref<2xf32, #gpu.address_space<private>>, memref<2x4xf32, #gpu.address_space<private>>
    mma.sync %fa[%c0], %fb[%c0], %acc[%c1, %c0] {tf32} : memref<4xf32, #gpu.address_space<private>>, memref<2xf32, #gpu.address_space<private>>, memref<2x4xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}
