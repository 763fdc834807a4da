// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// Two stores of adjacent elements (the second's last index the first's plus
// one, equal leading indices even when recomputed) print as one vector
// store where the address is aligned to the pair, the two stores otherwise
// (irkit/targets/cuda_stores.py): f32 by st.v2.f32, f16 by st.b32 of both
// elements' bits. Left alone: a load of the stored buffer between the two
// (it could read the first element), elements two apart, and i32 elements.

// CHECK-LABEL: pairs_kernel(
// CHECK: float *pair = &out[
// CHECK-NEXT: if (((unsigned long long)pair & 7) == 0) {
// CHECK-NEXT: asm volatile("st.v2.f32 [%0], {%1, %2};" :: "l"(pair), "f"(x), "f"(y) : "memory");
// CHECK: __half *pair_1 = &half_out[
// CHECK-NEXT: if (((unsigned long long)pair_1 & 3) == 0) {
// CHECK-NEXT: asm volatile("st.b32 [%0], %1;" :: "l"(pair_1), "r"((unsigned)__half_as_ushort(hx) | ((unsigned)__half_as_ushort(hy) << 16)) : "memory");
// CHECK-NOT: pair_2
// CHECK: out[row * 64 + far] = x;
// CHECK-NEXT: float again = out[
// CHECK-NOT: pair_2
// CHECK: out[row * 64 + far1] = y;
// CHECK-NEXT: ints[row * 64 + col] = 7;
// CHECK-NOT: pair_2
// CHECK: ints[row * 64 + plus2] = 7;

module attributes {gpu.container_module} {
  func.func @pairs(%out: memref<8x64xf32> {irkit.output}, %half_out: memref<8x64xf16> {irkit.output}, %ints: memref<8x64xi32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    gpu.launch_func @pairs_kernel::@pairs_kernel blocks in (%c1, %c1, %c1) threads in (%c8, %c1, %c1) args(%out : memref<8x64xf32>, %half_out : memref<8x64xf16>, %ints : memref<8x64xi32>)
    return
  }
  gpu.module @pairs_kernel {
    gpu.func @pairs_kernel(%out: memref<8x64xf32>, %half_out: memref<8x64xf16>, %ints: memref<8x64xi32>) kernel attributes {gpu.known_block_size = array<i32: 8, 1, 1>} {
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %row = gpu.thread_id x
      %col = arith.muli %row, %c4 : index
      %x = arith.constant 1.0 : f32
      %y = arith.constant 2.0 : f32
      %hx = arith.constant 1.0 : f16
      %hy = arith.constant 2.0 : f16
      %k = arith.constant 7 : i32
      // A pair: the row recomputed, the column plus one.
      %row2 = arith.addi %row, %c1 : index
      memref.store %x, %out[%row2, %col] : memref<8x64xf32>
      %row3 = arith.addi %row, %c1 : index
      %next = arith.addi %col, %c1 : index
      memref.store %y, %out[%row3, %next] : memref<8x64xf32>
      // f16: a 4-byte pair.
      memref.store %hx, %half_out[%row, %col] : memref<8x64xf16>
      %hnext = arith.addi %col, %c1 : index
      memref.store %hy, %half_out[%row, %hnext] : memref<8x64xf16>
      // A load of the stored buffer between the two: left alone.
      %far = arith.addi %col, %c4 : index
      memref.store %x, %out[%row, %far] : memref<8x64xf32>
      %again = memref.load %out[%row, %far] : memref<8x64xf32>
      %far1 = arith.addi %far, %c1 : index
      memref.store %y, %out[%row, %far1] : memref<8x64xf32>
      // Two apart, and i32 elements: left alone.
      memref.store %k, %ints[%row, %col] : memref<8x64xi32>
      %plus2 = arith.addi %col, %c2 : index
      memref.store %k, %ints[%row, %plus2] : memref<8x64xi32>
      %last = arith.constant 63 : index
      memref.store %again, %out[%row, %last] : memref<8x64xf32>
      gpu.return
    }
  }
}
