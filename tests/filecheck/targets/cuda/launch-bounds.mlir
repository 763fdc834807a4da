// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// A kernel's known block size is __launch_bounds__'s first argument;
// nvvm.minctasm (the blocks a multiprocessor should hold) its second.

// CHECK: extern "C" __global__ void __launch_bounds__(64, 2) resident_kernel(float *__restrict__ out) {
// CHECK: extern "C" __global__ void __launch_bounds__(64) plain_kernel(float *__restrict__ out) {

module attributes {gpu.container_module} {
  func.func @main(%out: memref<64xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @resident_kernel::@resident_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    gpu.launch_func @plain_kernel::@plain_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<64xf32>)
    return
  }
  gpu.module @resident_kernel {
    gpu.func @resident_kernel(%out: memref<64xf32>) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>, nvvm.minctasm = 2 : i32} {
      %tx = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
  gpu.module @plain_kernel {
    gpu.func @plain_kernel(%out: memref<64xf32>) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tx = gpu.thread_id x
      %two = arith.constant 2.0 : f32
      memref.store %two, %out[%tx] : memref<64xf32>
      gpu.return
    }
  }
}
