// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// Workgroup buffers past CUDA's 48 KiB of static shared memory become
// slices of one `extern __shared__` array, each at a 16-byte aligned offset
// (an odd-sized first buffer pushes the second to the next boundary), and
// the launch asks for their bytes as dynamic shared memory. A kernel within
// the limit keeps static arrays and launches with 0.

// CHECK-LABEL: extern "C" __global__ void big_kernel(float *__restrict__ out) {
// CHECK-NEXT:    extern __shared__ __align__(16) unsigned char irkit_dynamic_shared[];
// CHECK-NEXT:    __half *__restrict__ halves = reinterpret_cast<__half *>(irkit_dynamic_shared + 0);
// CHECK-NEXT:    float *__restrict__ floats = reinterpret_cast<float *>(irkit_dynamic_shared + 16);
// CHECK:         floats[tx] = one;
// CHECK-LABEL: extern "C" __global__ void small_kernel(float *__restrict__ out) {
// CHECK-NEXT:    __shared__ __align__(16) float floats[256];
// CHECK:       //   launch big_kernel<<<(1, 1, 1), (64, 1, 1), 65552>>>(out)
// CHECK-NEXT:  //   launch small_kernel<<<(1, 1, 1), (64, 1, 1), 0>>>(out)

module attributes {gpu.container_module} {
  func.func @main(%out: memref<64xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @big_kernel::@big_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    gpu.launch_func @small_kernel::@small_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    return
  }
  gpu.module @big_kernel {
    gpu.func @big_kernel(%out: memref<64xf32>) workgroup(%halves : memref<3xf16, #gpu.address_space<workgroup>>, %floats : memref<16384xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      %c0 = arith.constant 0 : index
      %h = arith.constant 1.0 : f16
      memref.store %h, %halves[%c0] : memref<3xf16, #gpu.address_space<workgroup>>
      memref.store %one, %floats[%tx] : memref<16384xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %floats[%tx] : memref<16384xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @small_kernel {
    gpu.func @small_kernel(%out: memref<64xf32>) workgroup(%floats : memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %floats[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %x = memref.load %floats[%tx] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %x, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
}
