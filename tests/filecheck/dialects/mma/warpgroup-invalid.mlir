// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// N must be a multiple of 8 up to 256.
func.func @n_out_of_range() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x64xf16, #gpu.address_space<workgroup>>) private(%acc : memref<256xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{n must be a multiple of 8 in [8, 256], got 260}}
    mma.warpgroup_mma %a[%c0, %c0], %a[%c0, %c0], %acc[%c0] {n = 260 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<256xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// Operand rows are the 128 bytes of the swizzled layout: 64 f16, not 72.
func.func @rows_not_128_bytes() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x72xf16, #gpu.address_space<workgroup>>) private(%acc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a must be a tile of 128-byte rows (the 128-byte swizzled layout), got memref<64x72xf16, #gpu.address_space<workgroup>>}}
    mma.warpgroup_mma %a[%c0, %c0], %a[%c0, %c0], %acc[%c0] {n = 64 : i64} : memref<64x72xf16, #gpu.address_space<workgroup>>, memref<64x72xf16, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// A transposed B is stored in panels: rank 3 at least.
func.func @transposed_b_without_panels() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x64xf16, #gpu.address_space<workgroup>>) private(%acc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{b must be a tile of 128-byte rows in panels (the 128-byte swizzled layout), got memref<64x64xf16, #gpu.address_space<workgroup>>}}
    mma.warpgroup_mma %a[%c0, %c0], %a[%c0, %c0], %acc[%c0] {n = 64 : i64, transpose_b} : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// An m64n64 product's accumulators: 32 f32 a thread.
func.func @accumulators_too_short() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x64xf16, #gpu.address_space<workgroup>>) private(%acc : memref<16xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{d needs 32 contiguous elements along its last dimension, got memref<16xf32, #gpu.address_space<private>>}}
    mma.warpgroup_mma %a[%c0, %c0], %a[%c0, %c0], %acc[%c0] {n = 64 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<16xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// A and B hold one element type.
func.func @mixed_operands() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x64xf16, #gpu.address_space<workgroup>>, %b : memref<64x64xbf16, #gpu.address_space<workgroup>>) private(%acc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a and b must hold one element type; got f16 and bf16}}
    mma.warpgroup_mma %a[%c0, %c0], %b[%c0, %c0], %acc[%c0] {n = 64 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xbf16, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// Operands live in workgroup memory.
func.func @operand_in_private_memory() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) private(%a : memref<64x64xf16, #gpu.address_space<private>>, %acc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a must be in workgroup memory, got memref<64x64xf16, #gpu.address_space<private>>}}
    mma.warpgroup_mma %a[%c0, %c0], %a[%c0, %c0], %acc[%c0] {n = 64 : i64} : memref<64x64xf16, #gpu.address_space<private>>, memref<64x64xf16, #gpu.address_space<private>>, memref<32xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

func.func @wait_too_deep() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{pending must be in [0, 7] (PTX's wgmma.wait_group), got 8}}
    mma.warpgroup_wait {pending = 8 : i64}
    gpu.terminator
  }
  return
}

// -----

// The accumulators a wait orders are private f32 buffers.
func.func @wait_on_workgroup_buffer() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%w : memref<64xf32, #gpu.address_space<workgroup>>) {
    // expected-error @+1 {{accumulators must be static private f32 buffers, got memref<64xf32, #gpu.address_space<workgroup>>}}
    mma.warpgroup_wait %w {pending = 0 : i64} : memref<64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @fence_outside_a_kernel() {
  // expected-error @+1 {{must be nested in a 'gpu.launch' body or a 'gpu.func'}}
  mma.warpgroup_fence
  return
}

// -----

// PTX transposes only 16-bit operands: a TF32 B must be K-major.
func.func @tf32_transposed_b() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x32xf32, #gpu.address_space<workgroup>>, %b : memref<2x32x32xf32, #gpu.address_space<workgroup>>) private(%acc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a tf32 product takes no transpose_b: PTX transposes only 16-bit operands, so B must be K-major}}
    mma.warpgroup_mma %a[%c0, %c0], %b[%c0, %c0, %c0], %acc[%c0] {n = 64 : i64, transpose_b, tf32} : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<2x32x32xf32, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// f32 operands are multiplied only as TF32, which the op must say.
func.func @f32_without_tf32() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x32xf32, #gpu.address_space<workgroup>>) private(%acc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a must hold f16 or bf16, got memref<64x32xf32, #gpu.address_space<workgroup>> (f32 operands take tf32)}}
    mma.warpgroup_mma %a[%c0, %c0], %a[%c0, %c0], %acc[%c0] {n = 64 : i64} : memref<64x32xf32, #gpu.address_space<workgroup>>, memref<64x32xf32, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// A TF32 product takes f32 tiles.
func.func @tf32_of_halves() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%a : memref<64x64xf16, #gpu.address_space<workgroup>>) private(%acc : memref<32xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a of a tf32 product must hold f32, got memref<64x64xf16, #gpu.address_space<workgroup>>}}
    mma.warpgroup_mma %a[%c0, %c0], %a[%c0, %c0], %acc[%c0] {n = 64 : i64, tf32} : memref<64x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<workgroup>>, memref<32xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}
