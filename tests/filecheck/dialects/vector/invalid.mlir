// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// MLIR's verification of the vector ops irkit emits.

func.func @strided_load(%m: memref<4x32xf32, strided<[64, 2]>>, %i: index) {
  // expected-error @+1 {{'vector.load' op most minor memref dim must have unit stride}}
  %v = vector.load %m[%i, %i] : memref<4x32xf32, strided<[64, 2]>>, vector<16xf32>
  return
}

// -----

func.func @element_type(%m: memref<32xf64>, %v: vector<16xf32>, %i: index) {
  // expected-error @+1 {{'vector.store' op base and result element types should match: f64 and f32}}
  vector.store %v, %m[%i] : memref<32xf64>, vector<16xf32>
  return
}

// -----

func.func @rank(%m: memref<32xf32>, %i: index) {
  // expected-error @+1 {{'vector.load' op the vector's rank may not exceed the memref's (2 > 1)}}
  %v = vector.load %m[%i] : memref<32xf32>, vector<2x16xf32>
  return
}

// -----

func.func @broadcast_scalar(%s: f64) {
  // expected-error @+1 {{'vector.broadcast' op source type f64 is not the result's element type f32}}
  %b = vector.broadcast %s : f64 to vector<16xf32>
  return
}

// -----

func.func @broadcast_vector(%v: vector<4xf32>) {
  // expected-error @+1 {{'vector.broadcast' op source vector<4xf32> is not broadcastable to vector<2x16xf32>}}
  %b = vector.broadcast %v : vector<4xf32> to vector<2x16xf32>
  return
}
