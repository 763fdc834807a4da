// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// Index arithmetic is printed in 32 bits in a kernel that divides an index
// by other than a power of two on every step of a loop through workgroup
// tiles (`divides_indices`: an implicit GEMM's gather) and whose every
// index fits (`indices_fit_32_bits`, as PyTorch's `canUse32BitIndexMath`
// and Triton's offsets): buffers of static shapes under 2^31 elements, no
// index argument, index constants under 2^31. Otherwise in 64 bits: a
// division outside such a loop (computed once), by a power of two, a
// buffer of 2^31 elements, an index passed in, a constant past 2^31.

// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) small_kernel(
// CHECK:         int32_t tx = (int32_t)threadIdx.x;
// CHECK:         int32_t q = irkit_divui_i32(s, 3);
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) huge_kernel(
// CHECK:         int64_t tx = (int64_t)threadIdx.x;
// CHECK:         int64_t q = irkit_divui_index(s, 3);
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) index_argument_kernel(
// CHECK:         int64_t tx = (int64_t)threadIdx.x;
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) large_constant_kernel(
// CHECK:         int64_t tx = (int64_t)threadIdx.x;
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) once_kernel(
// CHECK:         int64_t tx = (int64_t)threadIdx.x;
// CHECK-LABEL: extern "C" __global__ void __launch_bounds__(64) power_of_two_kernel(
// CHECK:         int64_t tx = (int64_t)threadIdx.x;

module attributes {gpu.container_module} {
  func.func @main(%small: memref<64xf32> {irkit.output}, %huge: memref<65536x32768xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %n = arith.constant 5 : index
    gpu.launch_func @small_kernel::@small_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%small : memref<64xf32>)
    gpu.launch_func @huge_kernel::@huge_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%huge : memref<65536x32768xf32>)
    gpu.launch_func @index_argument_kernel::@index_argument_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%small : memref<64xf32>, %n : index)
    gpu.launch_func @large_constant_kernel::@large_constant_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%small : memref<64xf32>)
    gpu.launch_func @once_kernel::@once_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%small : memref<64xf32>)
    gpu.launch_func @power_of_two_kernel::@power_of_two_kernel blocks in (%c1, %c1, %c1) threads in (%c64, %c1, %c1) args(%small : memref<64xf32>)
    return
  }
  gpu.module @small_kernel {
    gpu.func @small_kernel(%out: memref<64xf32>) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.addi %tx, %k : index
        %q = arith.divui %s, %c3 : index
        %f = arith.index_cast %q : index to i32
        %v = arith.sitofp %f : i32 to f32
        memref.store %v, %out[%tx] : memref<64xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
  gpu.module @huge_kernel {
    gpu.func @huge_kernel(%out: memref<65536x32768xf32>) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.addi %tx, %k : index
        %q = arith.divui %s, %c3 : index
        %f = arith.index_cast %q : index to i32
        %v = arith.sitofp %f : i32 to f32
        memref.store %v, %out[%tx, %tx] : memref<65536x32768xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
  gpu.module @index_argument_kernel {
    gpu.func @index_argument_kernel(%out: memref<64xf32>, %n_arg: index) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.addi %tx, %k : index
        %q = arith.divui %s, %n_arg : index
        %f = arith.index_cast %q : index to i32
        %v = arith.sitofp %f : i32 to f32
        memref.store %v, %out[%tx] : memref<64xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
  gpu.module @large_constant_kernel {
    gpu.func @large_constant_kernel(%out: memref<64xf32>) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %big = arith.constant 4294967297 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.addi %tx, %k : index
        %q = arith.divui %s, %big : index
        %f = arith.index_cast %q : index to i32
        %v = arith.sitofp %f : i32 to f32
        memref.store %v, %out[%tx] : memref<64xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
  gpu.module @once_kernel {
    gpu.func @once_kernel(%out: memref<64xf32>) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %q = arith.divui %tx, %c3 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %f = arith.index_cast %q : index to i32
        %v = arith.sitofp %f : i32 to f32
        memref.store %v, %out[%tx] : memref<64xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
  gpu.module @power_of_two_kernel {
    gpu.func @power_of_two_kernel(%out: memref<64xf32>) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>} {
      %tx = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      scf.for %k = %c0 to %c4 step %c1 {
        %s = arith.addi %tx, %k : index
        %q = arith.divui %s, %c8 : index
        %f = arith.index_cast %q : index to i32
        %v = arith.sitofp %f : i32 to f32
        memref.store %v, %out[%tx] : memref<64xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}
