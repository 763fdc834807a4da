// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// gpu.shuffle follows MLIR's semantics: lane k below `width` reads lane
// k ^ offset (xor), k + offset (down), k - offset (up) or offset (idx);
// `valid` when that lane is in [0, width), and an invalid lane keeps its own
// value. The lanes below `width` run the intrinsic, masked to those lanes; a
// constant offset in [0, 32) uses the mode's intrinsic, any other offset reads
// the computed source lane through __shfl_sync.

// CHECK:       static __device__ __forceinline__ int32_t irkit_lane_id(void) {
// CHECK:       static __device__ __forceinline__ uint32_t irkit_lane_mask(int32_t width) {

// CHECK-LABEL: extern "C" __global__ void warp_sum_kernel(const float *__restrict__ a, float *__restrict__ out, int32_t offset) {
// CHECK:         int32_t lane = irkit_lane_id();
// CHECK-NEXT:    int64_t source = (int64_t)lane ^ 16;
// CHECK-NEXT:    float shuffled = x;
// CHECK-NEXT:    if (lane < 32) {
// CHECK-NEXT:      shuffled = __shfl_xor_sync(irkit_lane_mask(32), x, 16);
// CHECK-NEXT:    }
// CHECK-NEXT:    bool valid = lane < 32 && source >= 0 && source < 32;
// CHECK-NEXT:    float r = valid ? shuffled : x;
// CHECK:         __shfl_down_sync(irkit_lane_mask(32), s, 8);
// CHECK:         int64_t [[UP:source_[0-9]+]] = (int64_t)lane_{{[0-9]+}} - 1;
// CHECK:         if (lane_{{[0-9]+}} < 16) {
// CHECK-NEXT:      {{.*}} = __shfl_up_sync(irkit_lane_mask(16), s2, 1);
// CHECK:         bool v3 = lane_{{[0-9]+}} < 16 && [[UP]] >= 0 && [[UP]] < 16;
// CHECK:         int64_t [[IDX:source_[0-9]+]] = (int64_t)offset;
// CHECK:         __shfl_sync(irkit_lane_mask(32), s3, (int32_t)[[IDX]]);
// CHECK:         int64_t [[DOWN:source_[0-9]+]] = (int64_t)lane_{{[0-9]+}} + offset;
// CHECK:         __shfl_sync(irkit_lane_mask(32), s4, (int32_t)[[DOWN]]);
// CHECK:         int64_t l = (int64_t)irkit_lane_id();

// A width that is not a constant also bounds the source lane by the warp.
// CHECK-LABEL: extern "C" __global__ void any_width_kernel(
// CHECK:         bool {{.*}} = lane < width && source >= 0 && source < width && source < 32;

module attributes {gpu.container_module} {
  func.func @warp_sum(%a: memref<32xf32>, %out: memref<32xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %offset = arith.constant 3 : i32
    gpu.launch_func @warp_sum_kernel::@warp_sum_kernel blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<32xf32>, %out : memref<32xf32>, %offset : i32)
    return
  }
  gpu.module @warp_sum_kernel {
    gpu.func @warp_sum_kernel(%a: memref<32xf32>, %out: memref<32xf32>, %offset: i32) kernel {
      %w32 = arith.constant 32 : i32
      %w16 = arith.constant 16 : i32
      %o16 = arith.constant 16 : i32
      %o8 = arith.constant 8 : i32
      %o1 = arith.constant 1 : i32
      %tx = gpu.thread_id x
      %x = memref.load %a[%tx] : memref<32xf32>
      %r, %valid = gpu.shuffle xor %x, %o16, %w32 : f32
      %s = arith.addf %x, %r : f32
      %r2, %v2 = gpu.shuffle down %s, %o8, %w32 : f32
      %s2 = arith.addf %s, %r2 : f32
      %r3, %v3 = gpu.shuffle up %s2, %o1, %w16 : f32
      %s3 = arith.addf %s2, %r3 : f32
      %r4, %v4 = gpu.shuffle idx %s3, %offset, %w32 : f32
      %s4 = arith.addf %s3, %r4 : f32
      %r5, %v5 = gpu.shuffle down %s4, %offset, %w32 : f32
      %l = gpu.lane_id
      %lf = arith.index_cast %l : index to i32
      %lx = arith.sitofp %lf : i32 to f32
      %s5 = arith.addf %r5, %lx : f32
      memref.store %s5, %out[%tx] : memref<32xf32>
      gpu.return
    }
  }
  gpu.module @any_width_kernel {
    gpu.func @any_width_kernel(%a: memref<32xi64>, %width: i32) kernel {
      %o = arith.constant 2 : i32
      %tx = gpu.thread_id x
      %x = memref.load %a[%tx] : memref<32xi64>
      %r, %valid = gpu.shuffle xor %x, %o, %width : i64
      %y = arith.select %valid, %r, %x : i64
      memref.store %y, %a[%tx] : memref<32xi64>
      gpu.return
    }
  }
}
