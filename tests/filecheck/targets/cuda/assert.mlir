// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// A kernel with cf.assert takes the call's status word as its last
// parameter; a failing assertion stores its number there (the first failure
// wins) and the thread goes on, so no barrier waits for a thread that left.
// Assertions are numbered across the unit; the plan passes &status to the
// kernels that have them only.

// CHECK:      extern "C" __global__ void __launch_bounds__(4) checked(const float *__restrict__ x, float *__restrict__ out, int32_t *__restrict__ status) {
// CHECK:        bool [[OK:.*]] = v < limit;
// CHECK-NEXT:   if (![[OK]]) {
// CHECK-NEXT:     atomicCAS(status, 0, 1);
// CHECK-NEXT:   }
// CHECK:        __syncthreads();
// CHECK:        if (!{{.*}}) {
// CHECK-NEXT:     atomicCAS(status, 0, 2);
// CHECK-NEXT:   }
// A buffer the kernel reads and writes is not __restrict__ (threads may read
// what others wrote before a barrier; NVRTC kept stale values for one).
// CHECK:      extern "C" __global__ void __launch_bounds__(4) plain(float * out) {
// CHECK:      // launch plan for @main(x: float32[4], out out: float32[4]):
// CHECK-NEXT: //   launch checked<<<(1, 1, 1), (4, 1, 1), 0>>>(x, out, &status)
// CHECK-NEXT: //   launch plain<<<(1, 1, 1), (4, 1, 1), 0>>>(out)
module attributes {gpu.container_module} {
  func.func @main(%x: memref<4xf32>, %out: memref<4xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @checked::@checked blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>, %out : memref<4xf32>)
    gpu.launch_func @plain::@plain blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
  gpu.module @checked {
    gpu.func @checked(%x: memref<4xf32>, %out: memref<4xf32>) kernel attributes {gpu.known_block_size = array<i32: 4, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %x[%t] : memref<4xf32>
      %limit = arith.constant 100.0 : f32
      %ok = arith.cmpf olt, %v, %limit : f32
      cf.assert %ok, "x must be below 100"
      gpu.barrier
      %zero = arith.constant 0.0 : f32
      %positive = arith.cmpf oge, %v, %zero : f32
      cf.assert %positive, "x must not be negative"
      memref.store %v, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
  gpu.module @plain {
    gpu.func @plain(%out: memref<4xf32>) kernel attributes {gpu.known_block_size = array<i32: 4, 1, 1>} {
      %t = gpu.thread_id x
      %v = memref.load %out[%t] : memref<4xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
}
