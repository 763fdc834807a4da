// RUN: irkit-opt %s -p 'lower-to-cuda{allow-tf32=true max-dynamic-shared-bytes=232448 multiprocessors=132}' -t cuda -o %t.cu
// RUN: nvcc -arch=sm_80 -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.sm80.cubin %t.cu
// RUN: nvcc -arch=sm_90 -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.sm90.cubin %t.cu
// REQUIRES: nvcc

// The TF32 kernel's CUDA compiles for Ampere and Hopper (m16n8k8 tf32 is
// sm_80's) without warnings and without spilling registers (ptxas's spill
// warnings are errors here), with the H100's dynamic shared memory budget:
// 128x128 blocks of 2 x 2 warps, four stages of 32-deep tiles (140 KiB),
// 128 accumulators a thread (ptxas 13.0: 240 registers, no spills).
func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
