// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true allow-tf32=true tf32-transpose-b=false max-dynamic-shared-bytes=232448 multiprocessors=132}' -t cuda -o %t.cu
// RUN: nvcc -arch=sm_90a -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.sm90a.cubin %t.cu
// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true allow-tf32=true max-dynamic-shared-bytes=232448 multiprocessors=132}' -t cuda -o %t.transposed.cu
// RUN: nvcc -arch=sm_90a -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.transposed.sm90a.cubin %t.transposed.cu
// REQUIRES: nvcc

// The TF32 warpgroup kernel's CUDA (f32 4096^3 with allow-tf32, B stored
// k-major: 32 four-byte transposing copies a thread a step) compiles for
// sm_90a without warnings and without spilling registers: 128x256 blocks
// of two warpgroups, four stages of 32-deep f32 tiles (192 KiB), 128
// accumulators a thread (ptxas 13.0: 200 registers, no spills). By
// default (`tf32-transpose-b`), B is transposed once by a tiled transpose
// kernel and the products' kernel copies its rows 16 bytes at a time: both
// kernels compile too.
func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
