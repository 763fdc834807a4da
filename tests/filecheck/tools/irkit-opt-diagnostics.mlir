// RUN: irkit-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: not irkit-opt %s --split-input-file 2>&1 | filecheck %s --check-prefix=LOC

// The first chunk is valid and printed; later chunks check located errors.
// CHECK-LABEL: func.func @valid
// CHECK-NEXT:    func.return %{{.*}} : tensor<2xf32>
func.func @valid(%a: tensor<2xf32>) -> tensor<2xf32> {
  return %a : tensor<2xf32>
}

// -----

func.func @wrong_return(%a: tensor<2xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'func.return' op Expected arguments to have the same types as the function output types}}
  return %a : tensor<2xf32>
}

// LOC: irkit-opt-diagnostics.mlir:15:3: error: 'func.return' op Expected arguments
// LOC-NEXT: {{^}}  return %a : tensor<2xf32>
// LOC-NEXT: {{^}}  ^
