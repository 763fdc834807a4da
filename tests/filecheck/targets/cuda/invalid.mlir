// RUN: irkit-opt %s -t cuda --split-input-file --verify-diagnostics
// RUN: not irkit-opt %s -t cuda 2>&1 | filecheck %s --check-prefix=LOC

// A host function runs as a launch plan: it can only allocate and free
// device buffers and launch kernels.
func.func @copy(%a: memref<4xf32>, %out: memref<4xf32> {irkit.output}) {
  // expected-error @+1 {{CUDA target: host function '@copy' can only hold gpu.launch_func, memref.alloc/dealloc and constants, not 'memref.copy'}}
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  return
}

// LOC: invalid.mlir:8:3: error: CUDA target: host function '@copy' can only hold
// LOC-NEXT: {{^}}  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
// LOC-NEXT: {{^}}  ^

// -----

module attributes {gpu.container_module} {
  func.func @dynamic(%out: memref<4xf32> {irkit.output}, %n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{CUDA target: grid and block sizes must be constants}}
    gpu.launch_func @k::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<4xf32>)
    return
  }
  gpu.module @k {
    gpu.func @k(%out: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

func.func @strided(%out: memref<4xf32> {irkit.output}) {
  // expected-error @+1 {{CUDA target: device buffers need a static shape and identity layout}}
  %b = memref.alloc() : memref<4xf32, strided<[2]>>
  memref.dealloc %b : memref<4xf32, strided<[2]>>
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%out: memref<4xf32>) kernel {
      // expected-error @+1 {{CUDA target: 'memref.alloc' cannot run inside a kernel}}
      %b = memref.alloc() : memref<4xf32>
      gpu.return
    }
  }
}

// -----

// f80 has no CUDA C type (f16 is `__half`, bf16 `__nv_bfloat16`).
module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @+1 {{CUDA target: unsupported type f80}}
    gpu.func @k(%out: memref<4xf80>) kernel {
      %c0 = arith.constant 0 : index
      %x = memref.load %out[%c0] : memref<4xf80>
      gpu.return
    }
  }
}


// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    // expected-error @+1 {{CUDA target: only kernel gpu.funcs can be printed}}
    gpu.func @helper(%x: f32) {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @k(%out: memref<4xf32>) kernel {
      // expected-error @+1 {{CUDA target cannot print op 'tensor.empty'}}
      %t = tensor.empty() : tensor<4xf32>
      gpu.return
    }
  }
}
