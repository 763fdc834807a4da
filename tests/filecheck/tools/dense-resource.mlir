// RUN: irkit-opt %s | filecheck %s
// RUN: irkit-opt %s | irkit-opt | filecheck %s

// torch-mlir keeps large weights in a resource section: it must survive a round trip.
// CHECK: arith.constant dense_resource<blob1> : tensor<2xf32>
// CHECK: dialect_resources: {
// CHECK: blob1: "0x040000000000803F00000040"
func.func @main() -> tensor<2xf32> {
  %c = arith.constant dense_resource<blob1> : tensor<2xf32>
  return %c : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F00000040"
    }
  }
#-}
