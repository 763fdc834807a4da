// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// A workgroup attribution is a __shared__ array of its static size (the
// padding column kept), a private one a local array; gpu.barrier is
// __syncthreads(). Elements are addressed row-major through the padded shape.

// CHECK-LABEL: extern "C" __global__ void transpose_kernel(const float *__restrict__ a, float *__restrict__ out) {
// CHECK-NEXT:    __shared__ __align__(16) float tile[272];
// CHECK-NEXT:    float scratch[2];
// CHECK:         tile[ty * 17 + tx] = x;
// CHECK-NEXT:    __syncthreads();
// CHECK:         float t = tile[tx * 17 + ty];
// CHECK:         scratch[0] = t;
// CHECK:       // launch plan for @transpose(a: float32[16, 16], out out: float32[16, 16]):
// CHECK-NEXT:  //   launch transpose_kernel<<<(1, 1, 1), (16, 16, 1), 0>>>(a, out)

module attributes {gpu.container_module} {
  func.func @transpose(%a: memref<16x16xf32>, %out: memref<16x16xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @transpose_kernel::@transpose_kernel blocks in (%c1, %c1, %c1) threads in (%c16, %c16, %c1) args(%a : memref<16x16xf32>, %out : memref<16x16xf32>)
    return
  }
  gpu.module @transpose_kernel {
    gpu.func @transpose_kernel(%a: memref<16x16xf32>, %out: memref<16x16xf32>) workgroup(%tile : memref<16x17xf32, #gpu.address_space<workgroup>>) private(%scratch : memref<2xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %x = memref.load %a[%ty, %tx] : memref<16x16xf32>
      memref.store %x, %tile[%ty, %tx] : memref<16x17xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %t = memref.load %tile[%tx, %ty] : memref<16x17xf32, #gpu.address_space<workgroup>>
      memref.store %t, %scratch[%c0] : memref<2xf32, #gpu.address_space<private>>
      %s = memref.load %scratch[%c0] : memref<2xf32, #gpu.address_space<private>>
      memref.store %s, %out[%ty, %tx] : memref<16x16xf32>
      gpu.return
    }
  }
}
