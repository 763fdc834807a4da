// RUN: irkit-opt %s -p 'lower-to-cuda{matmul-block=32,32,4 matmul-thread=4,4 conv-block=8,8,4 conv-thread=2,2 elementwise-block=32}' -t cuda | filecheck %s
// RUN: irkit-opt %s -p 'lower-to-cuda{matmul-block=32,32,4 matmul-thread=4,4 conv-block=32,32,4 conv-thread=4,4 elementwise-block=32}' -t cuda | filecheck %s --check-prefix=SAME

// A convolution's implicit GEMM (its operand gathered by the im2col while
// it is staged: `has_gathered_operand`) takes `conv-block` and
// `conv-thread` (`linalg-tile-for-gpu{gather-block gather-thread}`); the
// plain matmul beside it keeps `matmul-block` and `matmul-thread`. The
// im2col pads the gathered columns to `conv-block`'s multiples
// (`linalg-conv-to-im2col{gather-multiples}`): with 8x8 tiles of 2x2
// threads the 36 pixels (padded to 40) of 8 filters make 5 blocks of 4x4
// threads; with 32x32 tiles (36 padded to 64), 2 blocks.
// CHECK: launch conv_kernel<<<(5, 1, 1), (4, 4, 1), 0>>>(buffer, x, w)
// CHECK-NEXT: launch conv_kernel_0<<<(2, 2, 1), (8, 8, 1), 0>>>(out_1, a, b)
// SAME: launch conv_kernel<<<(2, 1, 1), (8, 2, 1), 0>>>(buffer, x, w)
// SAME-NEXT: launch conv_kernel_0<<<(2, 2, 1), (8, 8, 1), 0>>>(out_1, a, b)

func.func @conv(%x: tensor<1x4x8x8xf32>, %w: tensor<8x4x3x3xf32>, %a: tensor<64x64xf32>, %b: tensor<64x64xf32>) -> (tensor<1x8x6x6xf32>, tensor<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x8x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x4x8x8xf32>, tensor<8x4x3x3xf32>) outs(%f : tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %me = tensor.empty() : tensor<64x64xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<64x64xf32>) -> tensor<64x64xf32>
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%mf : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %y, %m : tensor<1x8x6x6xf32>, tensor<64x64xf32>
}
