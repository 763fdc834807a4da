// RUN: irkit-opt %s -t cuda --verify-diagnostics

// CUDA C has no vector types in irkit's printer: a vector op in a kernel
// is refused where it stands.
module attributes {gpu.container_module} {
  func.func @f(%a: memref<16xf32>, %out: memref<16xf32> {irkit.output}) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>, %out : memref<16xf32>)
    return
  }
  gpu.module @k {
    gpu.func @k(%a: memref<16xf32>, %out: memref<16xf32>) kernel {
      %c0 = arith.constant 0 : index
      // expected-error @+1 {{CUDA target: has no vector types (vector<16xf32>)}}
      %v = vector.load %a[%c0] : memref<16xf32>, vector<16xf32>
      vector.store %v, %out[%c0] : memref<16xf32>, vector<16xf32>
      gpu.return
    }
  }
}
