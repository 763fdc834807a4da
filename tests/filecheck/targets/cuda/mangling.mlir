// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// Symbols are mangled exactly as the C target mangles them: a quoted symbol
// cannot inject code, a CUDA built-in name gets a suffix, and the launch plan
// names the mangled kernel.

// CHECK:       extern "C" __global__ void a_x20_b_x28__x29__x3B_(float *__restrict__ out) {
// CHECK:       extern "C" __global__ void threadIdx_fn(float *__restrict__ out) {
// CHECK:       // launch plan for @"main entry"(out out: float32[4]):
// CHECK-NEXT:  //   launch a_x20_b_x28__x29__x3B_<<<(1, 1, 1), (4, 1, 1), 0>>>(out)
// CHECK-NEXT:  //   launch threadIdx_fn<<<(1, 1, 1), (4, 1, 1), 0>>>(out)

module attributes {gpu.container_module} {
  func.func @"main entry"(%out: memref<4xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @"a b();"::@"a b();" blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    gpu.launch_func @threadIdx::@threadIdx blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
  gpu.module @"a b();" {
    gpu.func @"a b();"(%out: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%tx] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @threadIdx {
    gpu.func @threadIdx(%out: memref<4xf32>) kernel {
      %tx = gpu.thread_id x
      %two = arith.constant 2.0 : f32
      memref.store %two, %out[%tx] : memref<4xf32>
      gpu.return
    }
  }
}
