// RUN: irkit-opt %s -p 'lower-to-cuda' -t cuda -o %t.cu
// RUN: nvcc -arch=sm_90 -cubin -Werror all-warnings -Xptxas -warn-spills -o %t.sm90.cubin %t.cu
// REQUIRES: nvcc

// A 4096^2 f32 transpose and a ragged 3000 x 1000 one with a scale fused,
// as linalg-tile-transposes-for-gpu tiles them (32 x 33 workgroup tiles,
// 32 x 8 threads; the ragged one's loads and stores predicated), compile
// for sm_90 without warnings or spills.
func.func @main(%x: tensor<4096x4096xf32>, %r: tensor<3000x1000xf32>) -> (tensor<4096x4096xf32>, tensor<1000x3000xf32>) {
  %t = nn.transpose %x perm [1, 0] : tensor<4096x4096xf32> -> tensor<4096x4096xf32>
  %u = nn.transpose %r perm [1, 0] : tensor<3000x1000xf32> -> tensor<1000x3000xf32>
  %v = nn.add %u, %u : tensor<1000x3000xf32>, tensor<1000x3000xf32> -> tensor<1000x3000xf32>
  return %t, %v : tensor<4096x4096xf32>, tensor<1000x3000xf32>
}
