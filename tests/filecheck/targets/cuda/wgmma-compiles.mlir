// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true max-dynamic-shared-bytes=232448 multiprocessors=132}' -t cuda -o %t.cu
// RUN: nvcc -arch=sm_90a -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.sm90a.cubin %t.cu
// RUN: not nvcc -arch=sm_90 -cubin -o %t.sm90.cubin %t.cu 2>&1 | filecheck %s
// REQUIRES: nvcc

// The warpgroup kernel's CUDA compiles for sm_90a without warnings and
// without spilling registers (ptxas's spill warnings are errors here), with
// the H100's dynamic shared memory: 128x256 blocks of two warpgroups, four
// stages of 64-deep tiles (192 KiB), 128 accumulators a thread (ptxas
// 13.0: 202 registers, no spills). Plain sm_90 has no wgmma.
// CHECK: not supported on .target 'sm_90'
func.func @main(%a: tensor<4096x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
