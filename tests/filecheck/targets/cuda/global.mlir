// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// A memref.global of a gpu.module is a __device__ array (const when the
// global is), with exact values: NaN and infinity as constant expressions.
// The host copy of the global is not printed.

// CHECK-NOT:   host_only
// CHECK:       __device__ static const float weights[4] = {
// CHECK-NEXT:      0x1.8p+0f, IRKIT_NAN, -IRKIT_INFINITY, 0x1p-149f,
// CHECK-NEXT:  };
// CHECK:       __device__ static int32_t counters[2] = {
// CHECK-NEXT:      7, 7,
// CHECK-NEXT:  };
// CHECK-LABEL: extern "C" __global__ void table_kernel(float *__restrict__ out) {
// CHECK:         float w = weights[tx];
// CHECK:         int32_t n = counters[0];

module attributes {gpu.container_module} {
  memref.global "private" constant @host_only : memref<2xf32> = dense<1.0>
  func.func @table(%out: memref<4xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @table_kernel::@table_kernel blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
  gpu.module @table_kernel {
    memref.global "private" constant @weights : memref<4xf32> = dense<[1.5, 0x7FC00000, 0xFF800000, 1.0e-45]>
    memref.global "private" @counters : memref<2xi32> = dense<7>
    gpu.func @table_kernel(%out: memref<4xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %g = memref.get_global @weights : memref<4xf32>
      %w = memref.load %g[%tx] : memref<4xf32>
      %cs = memref.get_global @counters : memref<2xi32>
      %n = memref.load %cs[%c0] : memref<2xi32>
      %nf = arith.sitofp %n : i32 to f32
      %y = arith.addf %w, %nf : f32
      memref.store %y, %out[%tx] : memref<4xf32>
      gpu.return
    }
  }
}
