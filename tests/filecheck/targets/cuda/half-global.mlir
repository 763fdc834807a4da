// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// A __device__ global may not be initialised by a call, and `__half` and
// `__nv_bfloat16` convert from float by calls: their values are printed as
// bit patterns through the headers' constexpr raw-bits constructors
// (1.5, NaN, -inf, 1e-3 rounded to each type).

// CHECK:       #include <cuda_fp16.h>
// CHECK-NEXT:  #include <cuda_bf16.h>
// CHECK:       __device__ static const __half halves[4] = {
// CHECK-NEXT:      __half(__half_raw{0x3e00}), __half(__half_raw{0x7e00}), __half(__half_raw{0xfc00}), __half(__half_raw{0x1419}),
// CHECK:       __device__ static const __nv_bfloat16 brains[4] = {
// CHECK-NEXT:      __nv_bfloat16(__nv_bfloat16_raw{0x3fc0}), __nv_bfloat16(__nv_bfloat16_raw{0x7fc0}), __nv_bfloat16(__nv_bfloat16_raw{0xff80}), __nv_bfloat16(__nv_bfloat16_raw{0x3a83}),
// CHECK-LABEL: extern "C" __global__ void table_kernel(float *__restrict__ out) {
// CHECK:         __half h = halves[tx];
// CHECK:         __nv_bfloat16 b = brains[tx];

module attributes {gpu.container_module} {
  func.func @table(%out: memref<4xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @table_kernel::@table_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
  gpu.module @table_kernel {
    memref.global "private" constant @halves : memref<4xf16> = dense<[1.5, 0x7E00, 0xFC00, 1.0e-3]>
    memref.global "private" constant @brains : memref<4xbf16> = dense<[1.5, 0x7FC0, 0xFF80, 1.0e-3]>
    gpu.func @table_kernel(%out: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %hs = memref.get_global @halves : memref<4xf16>
      %h = memref.load %hs[%tx] : memref<4xf16>
      %bs = memref.get_global @brains : memref<4xbf16>
      %b = memref.load %bs[%tx] : memref<4xbf16>
      %hf = arith.extf %h : f16 to f32
      %bf = arith.extf %b : bf16 to f32
      %y = arith.addf %hf, %bf : f32
      memref.store %y, %out[%tx] : memref<4xf32>
      gpu.return
    }
  }
}
