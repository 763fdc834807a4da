// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// The mma dialect's verifiers: where each operand must live, its element
// type, the room a fragment needs, and that the ops run in kernels.

func.func @on_host(%t: memref<16x24xf16, #gpu.address_space<workgroup>>, %a: memref<8xf16, #gpu.address_space<private>>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{'mma.ldmatrix' op must be nested in a 'gpu.launch' body or a 'gpu.func'}}
  mma.ldmatrix %t[%c0, %c0], %a[%c0] {tiles = 4 : i64} : memref<16x24xf16, #gpu.address_space<workgroup>>, memref<8xf16, #gpu.address_space<private>>
  return
}

// -----

func.func @source_not_shared(%g: memref<16x24xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) private(%a : memref<8xf16, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{source must be in workgroup memory, got memref<16x24xf16>}}
    mma.ldmatrix %g[%c0, %c0], %a[%c0] {tiles = 4 : i64} : memref<16x24xf16>, memref<8xf16, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

func.func @fragment_too_short() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%t : memref<16x24xf16, #gpu.address_space<workgroup>>) private(%a : memref<4xf16, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{fragment needs 8 contiguous elements along its last dimension, got memref<4xf16, #gpu.address_space<private>>}}
    mma.ldmatrix %t[%c0, %c0], %a[%c0] {tiles = 4 : i64} : memref<16x24xf16, #gpu.address_space<workgroup>>, memref<4xf16, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

func.func @three_tiles() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%t : memref<16x24xf16, #gpu.address_space<workgroup>>) private(%a : memref<8xf16, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{tiles must be 1, 2 or 4, got 3}}
    mma.ldmatrix %t[%c0, %c0], %a[%c0] {tiles = 3 : i64} : memref<16x24xf16, #gpu.address_space<workgroup>>, memref<8xf16, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

func.func @f32_operands() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) private(%a : memref<8xf32, #gpu.address_space<private>>, %b : memref<4xf32, #gpu.address_space<private>>, %c : memref<4xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a and b must hold one element type, f16 or bf16; got f32 and f32 (f32 operands take tf32)}}
    mma.sync %a[%c0], %b[%c0], %c[%c0] : memref<8xf32, #gpu.address_space<private>>, memref<4xf32, #gpu.address_space<private>>, memref<4xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

func.func @f16_accumulator() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) private(%a : memref<8xf16, #gpu.address_space<private>>, %b : memref<4xf16, #gpu.address_space<private>>, %c : memref<4xf16, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{c must hold f32, got f16}}
    mma.sync %a[%c0], %b[%c0], %c[%c0] : memref<8xf16, #gpu.address_space<private>>, memref<4xf16, #gpu.address_space<private>>, memref<4xf16, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

func.func @copy_into_global(%g: memref<64xf16>, %h: memref<64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{destination must be in workgroup memory, got memref<64xf16>}}
    mma.cp_async %g[%c0], %h[%c0] : memref<64xf16>, memref<64xf16>
    gpu.terminator
  }
  return
}

// -----

func.func @copy_of_two_bytes(%g: memref<64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%h : memref<64xf16, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{bytes must be 4, 8 or 16 (PTX's cp.async sizes), got 2}}
    mma.cp_async %g[%c0], %h[%c0] {bytes = 2 : i64} : memref<64xf16>, memref<64xf16, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @copy_valid_past_the_copy(%g: memref<64xf16>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%h : memref<64xf16, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %c18 = arith.constant 18 : index
    // expected-error @+1 {{valid_bytes must be whole elements of 2 bytes from 0 to the 16 copied, got 18}}
    mma.cp_async %g[%c0], %h[%c0] valid_bytes %c18 : memref<64xf16>, memref<64xf16, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @copy_valid_half_an_element(%g: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) workgroup(%h : memref<64xf32, #gpu.address_space<workgroup>>) {
    %c0 = arith.constant 0 : index
    %c6 = arith.constant 6 : index
    // expected-error @+1 {{valid_bytes must be whole elements of 4 bytes from 0 to the 16 copied, got 6}}
    mma.cp_async %g[%c0], %h[%c0] valid_bytes %c6 : memref<64xf32>, memref<64xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  return
}

// -----

func.func @wait_too_many() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{pending must be in [0, 7] (PTX's cp.async.wait_group), got 9}}
    mma.cp_async_wait {pending = 9 : i64}
    gpu.terminator
  }
  return
}

// -----

func.func @tf32_of_halves() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) private(%a : memref<8xf16, #gpu.address_space<private>>, %b : memref<4xf16, #gpu.address_space<private>>, %c : memref<4xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a and b of a tf32 product must hold f32; got f16 and f16}}
    mma.sync %a[%c0], %b[%c0], %c[%c0] {tf32} : memref<8xf16, #gpu.address_space<private>>, memref<4xf16, #gpu.address_space<private>>, memref<4xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}

// -----

// A TF32 product (m16n8k8) reads 4 elements of A, 2 of B, 4 of C.
func.func @tf32_fragment_too_short() {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) private(%a : memref<3xf32, #gpu.address_space<private>>, %b : memref<2xf32, #gpu.address_space<private>>, %c : memref<4xf32, #gpu.address_space<private>>) {
    %c0 = arith.constant 0 : index
    // expected-error @+1 {{a needs 4 contiguous elements along its last dimension, got memref<3xf32, #gpu.address_space<private>>}}
    mma.sync %a[%c0], %b[%c0], %c[%c0] {tf32} : memref<3xf32, #gpu.address_space<private>>, memref<2xf32, #gpu.address_space<private>>, memref<4xf32, #gpu.address_space<private>>
    gpu.terminator
  }
  return
}
