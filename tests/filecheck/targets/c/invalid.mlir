// RUN: irkit-opt %s -t c --split-input-file --verify-diagnostics
// RUN: not irkit-opt %s -t c 2>&1 | filecheck %s --check-prefix=LOC

func.func @f(%out: memref<4xf32> {irkit.output}) {
  // expected-error @+1 {{C target cannot print op 'tensor.empty'}}
  %t = tensor.empty() : tensor<4xf32>
  return
}

// LOC: invalid.mlir:6:3: error: C target cannot print op 'tensor.empty'
// LOC-NEXT: {{^}}  %t = tensor.empty() : tensor<4xf32>
// LOC-NEXT: {{^}}  ^

// -----

// expected-error @+1 {{C target: functions return through output buffers}}
func.func @g(%a: f32) -> f32 {
  return %a : f32
}

// -----

func.func @h(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant 1.0 : f32
  // expected-error @+1 {{C target: stores to a read-only buffer (an input or a constant)}}
  memref.store %x, %a[%c0] : memref<4xf32>
  return
}

// -----

func.func @k(%a: memref<4xf32>, %out: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{C target: memref values cannot be carried by loops or ifs}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%m = %a) -> (memref<4xf32>) {
    scf.yield %m : memref<4xf32>
  }
  return
}
