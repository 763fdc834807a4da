// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// A box's rows are the swizzled layout's 128 bytes: 64 f16, not 32.
func.func @rows_not_128_bytes(%src: memref<256x64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%tile : memref<128x64xf16, #gpu.address_space<workgroup>>, %bars : memref<1xi64, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{box rows must be 128 bytes (the swizzled layout's rows), got 32 elements of f16}}
    mma.tma_load %src[%c0, %c0], %tile[%c0, %c0], %bars[%c0] {box = array<i64: 128, 32>} : memref<256x64xf16>, memref<128x64xf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// At most 256 rows a box.
func.func @box_too_tall(%src: memref<512x64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%tile : memref<512x64xf16, #gpu.address_space<workgroup>>, %bars : memref<1xi64, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{box must be rows x columns of at most 256 each (leading sizes 1), got [512, 64]}}
    mma.tma_load %src[%c0, %c0], %tile[%c0, %c0], %bars[%c0] {box = array<i64: 512, 64>} : memref<512x64xf16>, memref<512x64xf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// The tile has room for the box's rows.
func.func @tile_too_short(%src: memref<256x64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%tile : memref<64x64xf16, #gpu.address_space<workgroup>>, %bars : memref<1xi64, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{destination must be rows of 64 elements, at least 128 of them, got memref<64x64xf16, #gpu.address_space<workgroup>>}}
    mma.tma_load %src[%c0, %c0], %tile[%c0, %c0], %bars[%c0] {box = array<i64: 128, 64>} : memref<256x64xf16>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<1xi64, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// Mbarriers are i64s of workgroup memory.
func.func @barrier_not_i64() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%bars : memref<2xi32, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{barrier must hold i64 mbarriers, got memref<2xi32, #gpu.address_space<workgroup>>}}
    mma.mbarrier_init %bars[%c0] {count = 1 : i64} : memref<2xi32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

// An mbarrier counts at most 2^20 - 1 arrivals.
func.func @count_too_large() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%bars : memref<2xi64, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{count must be in [1, 1048575] (PTX's mbarrier), got 1048576}}
    mma.mbarrier_init %bars[%c0] {count = 1048576 : i64} : memref<2xi64, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}
