// RUN: irkit-opt %s -t cuda | filecheck %s

// Which kernel parameters are __restrict__: a buffer the kernel only reads
// (const) or only writes, not one it reads and writes. A block's threads
// read what thread 0 wrote before the barrier (a row's maximum, as a row
// group with a global intermediate does); with __restrict__ on that buffer
// NVRTC and nvcc kept the initial value for every other thread on the H100.

// CHECK: extern "C" __global__ void __launch_bounds__(4) row_max(const float *__restrict__ x, float * maximum, float *__restrict__ out) {
module attributes {gpu.container_module} {
  func.func @main(%x: memref<4xf32>, %maximum: memref<1xf32> {irkit.output}, %out: memref<4xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @row_max::@row_max blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%x : memref<4xf32>, %maximum : memref<1xf32>, %out : memref<4xf32>)
    return
  }
  gpu.module @row_max {
    gpu.func @row_max(%x: memref<4xf32>, %maximum: memref<1xf32>, %out: memref<4xf32>) kernel attributes {gpu.known_block_size = array<i32: 4, 1, 1>} {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        %v = memref.load %x[%c0] : memref<4xf32>
        memref.store %v, %maximum[%c0] : memref<1xf32>
      }
      gpu.barrier
      %m = memref.load %maximum[%c0] : memref<1xf32>
      %v = memref.load %x[%t] : memref<4xf32>
      %d = arith.subf %v, %m : f32
      memref.store %d, %out[%t] : memref<4xf32>
      gpu.return
    }
  }
}
