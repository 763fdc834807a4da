// RUN: irkit-opt %s -p 'lower-to-cuda{wgmma=true allow-tf32=true max-dynamic-shared-bytes=232448 multiprocessors=132}' -t cuda -o %t.cu
// RUN: nvcc -arch=sm_90a -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.sm90a.cubin %t.cu
// REQUIRES: nvcc

// The 3000^3 GEMMs on partial tiles (no padding) compile for sm_90a
// without warnings and without spilling: the f16 warpgroup kernel (128x256
// blocks, 24 x 12 of them, a partial last K step of 64, TMA boxes past the
// edges zero-filled; ptxas 13.0: 154 registers, 208 with tma=false's
// zero-filling cp.async) and the TF32 one on B transposed into its own
// 3000 x 3000 (225 registers), and that tiled transpose.
func.func @half(%a: tensor<3000x3000xf16>, %b: tensor<3000x3000xf16>) -> tensor<3000x3000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3000x3000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3000x3000xf32>) -> tensor<3000x3000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3000x3000xf16>, tensor<3000x3000xf16>) outs(%f : tensor<3000x3000xf32>) -> tensor<3000x3000xf32>
  return %r : tensor<3000x3000xf32>
}

func.func @tf32(%a: tensor<3000x3000xf32>, %b: tensor<3000x3000xf32>) -> tensor<3000x3000xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3000x3000xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3000x3000xf32>) -> tensor<3000x3000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3000x3000xf32>, tensor<3000x3000xf32>) outs(%f : tensor<3000x3000xf32>) -> tensor<3000x3000xf32>
  return %r : tensor<3000x3000xf32>
}
