// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// A kernel is an extern "C" __global__ function: buffers it only reads are
// const __restrict__ pointers, scalars come by value, thread and block ids
// are int64_t index values, libm's IEEE float functions are kept. The host
// function becomes a launch plan, printed as a comment block.

// CHECK:       extern "C" __global__ void __launch_bounds__(32) scale_kernel(const float *__restrict__ a, float *__restrict__ out, float factor) {
// CHECK:         int64_t bx = (int64_t)blockIdx.x;
// CHECK-NEXT:    int64_t tx = (int64_t)threadIdx.x;
// CHECK:         float e = expf(x);
// CHECK:         float m = fmaxf(e, factor);
// CHECK:         out[i] = m;
// CHECK:       // launch plan for @scale(a: float32[128], out out: float32[128]):
// CHECK-NEXT:  //   launch scale_kernel<<<(4, 1, 1), (32, 1, 1), 0>>>(a, out, 2.5)

module attributes {gpu.container_module} {
  func.func @scale(%a: memref<128xf32>, %out: memref<128xf32> {irkit.output}) {
    %c4 = arith.constant 4 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %factor = arith.constant 2.5 : f32
    gpu.launch_func @scale_kernel::@scale_kernel blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<128xf32>, %out : memref<128xf32>, %factor : f32)
    return
  }
  gpu.module @scale_kernel {
    gpu.func @scale_kernel(%a: memref<128xf32>, %out: memref<128xf32>, %factor: f32) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %b = arith.muli %bx, %c32 : index
      %i = arith.addi %b, %tx : index
      %x = memref.load %a[%i] : memref<128xf32>
      %e = math.exp %x : f32
      %m = arith.maxnumf %e, %factor : f32
      memref.store %m, %out[%i] : memref<128xf32>
      gpu.return
    }
  }
}
