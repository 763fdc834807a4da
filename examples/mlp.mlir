// A two-layer perceptron in the nn dialect: 4 samples of 16 features ->
// 32 hidden units (relu) -> 10 class probabilities (softmax).
//
//   irkit-run examples/mlp.mlir --random-inputs 0   (on the interpreter)
func.func @main(%x: tensor<4x16xf32>, %w1: tensor<16x32xf32>, %b1: tensor<32xf32>,
                %w2: tensor<32x10xf32>, %b2: tensor<10xf32>) -> tensor<4x10xf32> {
  %h0 = nn.matmul %x, %w1 : tensor<4x16xf32>, tensor<16x32xf32> -> tensor<4x32xf32>
  %h1 = nn.add %h0, %b1 : tensor<4x32xf32>, tensor<32xf32> -> tensor<4x32xf32>
  %h = nn.relu %h1 : tensor<4x32xf32>
  %l0 = nn.matmul %h, %w2 : tensor<4x32xf32>, tensor<32x10xf32> -> tensor<4x10xf32>
  %logits = nn.add %l0, %b2 : tensor<4x10xf32>, tensor<10xf32> -> tensor<4x10xf32>
  %probabilities = nn.softmax %logits axis 1 : tensor<4x10xf32>
  return %probabilities : tensor<4x10xf32>
}
