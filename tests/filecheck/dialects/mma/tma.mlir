// RUN: irkit-opt %s | filecheck %s
// RUN: irkit-opt %s | irkit-opt | filecheck %s

// The TMA copy and mbarrier ops round-trip.
// CHECK-LABEL: func.func @copy_a_tile
// CHECK: mma.mbarrier_init %bars[%c0] {count = 1 : i64} : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK: mma.mbarrier_arrive_expect_tx %bars[%c0] {bytes = 16384 : i64} : memref<2xi64, #gpu.address_space<workgroup>>
// CHECK: mma.tma_load %src[%c0, %c0], %tile[%c0, %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>} : memref<256x64xf16>, memref<2x128x64xf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
// CHECK: mma.mbarrier_wait %bars[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
func.func @copy_a_tile(%src: memref<256x64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%tile : memref<2x128x64xf16, #gpu.address_space<workgroup>>, %bars : memref<2xi64, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    mma.mbarrier_init %bars[%c0] {count = 1 : i64} : memref<2xi64, #gpu.address_space<workgroup>>
    mma.mbarrier_arrive_expect_tx %bars[%c0] {bytes = 16384 : i64} : memref<2xi64, #gpu.address_space<workgroup>>
    mma.tma_load %src[%c0, %c0], %tile[%c0, %c0, %c0], %bars[%c0] {box = array<i64: 128, 64>} : memref<256x64xf16>, memref<2x128x64xf16, #gpu.address_space<workgroup>>, memref<2xi64, #gpu.address_space<workgroup>>
    mma.mbarrier_wait %bars[%c0], %c0 : memref<2xi64, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
