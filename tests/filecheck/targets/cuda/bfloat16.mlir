// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// bf16 is cuda_bf16.h's __nv_bfloat16, included only by a source that uses
// it, and computed in float: its conversion operator widens, its conversion
// constructors (from float, double and the integers) round once to nearest
// even, as the interpreter and the C target's helpers do. Constants are bit
// patterns through the header's constexpr raw-bits constructor.

// CHECK-NOT:   cuda_fp16.h
// CHECK:       #include <cuda_bf16.h>
// CHECK-LABEL: extern "C" __global__ void {{.*}}scale_kernel(__nv_bfloat16 *__restrict__ out, const __nv_bfloat16 *__restrict__ x, float *__restrict__ wide) {
// CHECK:         __nv_bfloat16 v = x[tx];
// CHECK:         __nv_bfloat16 half = __nv_bfloat16(__nv_bfloat16_raw{0x3f00});
// CHECK:         __nv_bfloat16 e = (__nv_bfloat16)(expf((float)v));
// CHECK:         __nv_bfloat16 p = (__nv_bfloat16)((float)e * (float)half);
// CHECK:         float w = (float)p;
// CHECK:         double d = (double)p;
// CHECK:         __nv_bfloat16 n = (__nv_bfloat16)d;
// CHECK:         int32_t i = irkit_fptosi_bf16_i32(n);
// CHECK:         __nv_bfloat16 back = (__nv_bfloat16)i;

module attributes {gpu.container_module} {
  func.func @scale(%out: memref<32xbf16> {irkit.output}, %x: memref<32xbf16>, %wide: memref<32xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @scale_kernel::@scale_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%out : memref<32xbf16>, %x : memref<32xbf16>, %wide : memref<32xf32>)
    return
  }
  gpu.module @scale_kernel {
    gpu.func @scale_kernel(%out: memref<32xbf16>, %x: memref<32xbf16>, %wide: memref<32xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %x[%tx] : memref<32xbf16>
      %half = arith.constant 0.5 : bf16
      %e = math.exp %v : bf16
      %p = arith.mulf %e, %half : bf16
      %w = arith.extf %p : bf16 to f32
      %d = arith.extf %p : bf16 to f64
      %n = arith.truncf %d : f64 to bf16
      %i = arith.fptosi %n : bf16 to i32
      %back = arith.sitofp %i : i32 to bf16
      %s = arith.addf %back, %p : bf16
      memref.store %s, %out[%tx] : memref<32xbf16>
      memref.store %w, %wide[%tx] : memref<32xf32>
      gpu.return
    }
  }
}
