// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// The vector ops irkit emits round trip in MLIR's syntax.

// CHECK-LABEL: func.func @micro_kernel_step
func.func @micro_kernel_step(%m: memref<4x32xf32, strided<[64, 1], offset: ?>>, %s: f32, %i: index, %m2: memref<8xf64, strided<[2]>>) {
  // CHECK: %[[V:.*]] = vector.load %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
  %v = vector.load %m[%i, %i] : memref<4x32xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
  // CHECK-NEXT: %[[B:.*]] = vector.broadcast %{{.*}} : f32 to vector<16xf32>
  %b = vector.broadcast %s : f32 to vector<16xf32>
  // CHECK-NEXT: %[[R:.*]] = vector.fma %[[B]], %[[V]], %[[V]] : vector<16xf32>
  %r = vector.fma %b, %v, %v : vector<16xf32>
  // CHECK-NEXT: vector.store %[[R]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<4x32xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
  vector.store %r, %m[%i, %i] : memref<4x32xf32, strided<[64, 1], offset: ?>>, vector<16xf32>
  // A strided memref may be read one element at a time.
  // CHECK: vector.load %{{.*}} : memref<8xf64, strided<[2]>>, vector<1xf64>
  %one = vector.load %m2[%i] : memref<8xf64, strided<[2]>>, vector<1xf64>
  return
}
