// RUN: irkit-opt %s -t c --split-input-file --verify-diagnostics

// What the C target does not print in vectors: 16-bit floats (C computes
// them in float), vectors of more than one dimension, a vector broadcast.

func.func @half(%a: memref<16xf16>, %out: memref<16xf16> {irkit.output}) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{C target: cannot hold f16 elements in a vector (vector<16xf16>)}}
  %v = vector.load %a[%c0] : memref<16xf16>, vector<16xf16>
  vector.store %v, %out[%c0] : memref<16xf16>, vector<16xf16>
  return
}

// -----

func.func @two_dimensional(%a: memref<2x16xf32>, %out: memref<2x16xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{C target: prints 1-D fixed-size vectors only, not vector<2x16xf32>}}
  %v = vector.load %a[%c0, %c0] : memref<2x16xf32>, vector<2x16xf32>
  vector.store %v, %out[%c0, %c0] : memref<2x16xf32>, vector<2x16xf32>
  return
}

// -----

func.func @input(%a: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %a[%c0] : memref<16xf32>, vector<16xf32>
  // expected-error @+1 {{C target: stores to a read-only buffer (an input or a constant)}}
  vector.store %v, %a[%c0] : memref<16xf32>, vector<16xf32>
  return
}
