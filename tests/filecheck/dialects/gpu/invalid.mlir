// RUN: irkit-opt %s --split-input-file --verify-diagnostics

// The verifiers of irkit's gpu dialect: MLIR's, and the checks xDSL lacks
// (ids and barriers outside a kernel, launch_func's kernel lookup).

func.func @thread_id_on_host() -> index {
  // expected-error @+1 {{'gpu.thread_id' op must be nested in a 'gpu.launch' body or a 'gpu.func'}}
  %t = gpu.thread_id x
  return %t : index
}

// -----

func.func @block_dim_on_host() -> index {
  // expected-error @+1 {{'gpu.block_dim' op must be nested in a 'gpu.launch' body or a 'gpu.func'}}
  %t = gpu.block_dim y
  return %t : index
}

// -----

func.func @lane_id_on_host() -> index {
  // expected-error @+1 {{'gpu.lane_id' op must be nested in a 'gpu.launch' body or a 'gpu.func'}}
  %l = gpu.lane_id
  return %l : index
}

// -----

func.func @barrier_on_host() {
  // expected-error @+1 {{'gpu.barrier' op must be nested in a 'gpu.launch' body or a 'gpu.func'}}
  gpu.barrier
  return
}

// -----

func.func @shuffle_on_host(%v: f32, %o: i32) {
  // expected-error @+1 {{'gpu.shuffle' op must be nested in a 'gpu.launch' body or a 'gpu.func'}}
  %r, %valid = gpu.shuffle xor %v, %o, %o : f32
  return
}

// -----

func.func @shuffle_bad_type(%v: f16, %o: i32, %n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    // expected-error @+1 {{'gpu.shuffle' op operand #0 must be i32, i64, f32 or f64, got f16}}
    %r, %valid = gpu.shuffle xor %v, %o, %o : f16
    gpu.terminator
  }
  return
}

// -----

func.func @launch_wrong_terminator(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected 'gpu.terminator' or a terminator with successors}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.yield
  }
  return
}

// -----

func.func @launch_attribution_not_memref(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected memref type in attribution}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)
             workgroup(%w : f32) {
    gpu.terminator
  }
  return
}

// -----

func.func @launch_workgroup_in_private_space(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected memory space workgroup in attribution, got memref<4xf32, #gpu.address_space<private>>}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)
             workgroup(%w : memref<4xf32, #gpu.address_space<private>>) {
    gpu.terminator
  }
  return
}

// -----

func.func @launch_private_in_default_space(%n: index) {
  // expected-error @+1 {{'gpu.launch' op expected memory space private in attribution, got memref<4xf32>}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)
             private(%p : memref<4xf32>) {
    gpu.terminator
  }
  return
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op expected void return type for kernel function}}
  gpu.func @k(%x: f32) -> f32 kernel {
    gpu.return %x : f32
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op expected memory space workgroup in attribution, got memref<4xf32>}}
  gpu.func @k() workgroup(%w : memref<4xf32>) kernel {
    gpu.return
  }
}

// -----

gpu.module @kernels {
  // expected-error @+1 {{'gpu.func' op expects its body to end in 'gpu.return'}}
  gpu.func @k() kernel {
    gpu.yield
  }
}

// -----

gpu.module @kernels {
  gpu.func @k(%x: f32) -> f32 {
    // expected-error @+1 {{'gpu.return' op expected 1 result operands but found 0}}
    gpu.return
  }
}

// -----

gpu.module @kernels {
  gpu.func @k(%x: f32) -> i32 {
    // expected-error @+1 {{'gpu.return' op unexpected type `f32' for operand #0}}
    gpu.return %x : f32
  }
}

// -----

func.func @func_outside_gpu_module() {
  return
}
// expected-error @+1 {{'gpu.func' expects parent op 'gpu.module'}}
gpu.func @k() kernel {
  gpu.return
}

// -----

func.func @func_is_isolated(%x: f32) {
  gpu.module @kernels {
    // expected-error @+1 {{'gpu.func' op Operation using value defined out of its IsolatedFromAbove parent}}
    gpu.func @k() kernel {
      %y = arith.addf %x, %x : f32
      gpu.return
    }
  }
  return
}

// -----

module {
  func.func @host(%n: index) {
    // expected-error @+1 {{'gpu.launch_func' op expected the closest surrounding module to have the 'gpu.container_module' attribute}}
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
  gpu.module @kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%n: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel module 'missing' is undefined}}
    gpu.launch_func @missing::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%n: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel function '@kernels::@missing' is undefined}}
    gpu.launch_func @kernels::@missing blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
  gpu.module @kernels {
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%n: index) {
    // expected-error @+1 {{'gpu.launch_func' op kernel function is missing the 'gpu.kernel' attribute}}
    gpu.launch_func @kernels::@f blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
  gpu.module @kernels {
    gpu.func @f() {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%n: index, %m: memref<4xf32>) {
    // expected-error @+1 {{'gpu.launch_func' op got 1 kernel operands but expected 2}}
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<4xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>, %b: index) kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%n: index, %m: memref<8xf32>) {
    // expected-error @+1 {{'gpu.launch_func' op type of function argument 0 does not match: expected memref<4xf32>, got memref<8xf32>}}
    gpu.launch_func @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%m : memref<8xf32>)
    return
  }
  gpu.module @kernels {
    gpu.func @k(%a: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

func.func @launch_clusters(%n: index) {
  // expected-error @+1 {{thread block clusters are not supported by irkit}}
  gpu.launch clusters(%cx, %cy, %cz) in (%a = %n, %b = %n, %c = %n) blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    gpu.terminator
  }
  return
}

// -----

// LLVM 24's twelfth operand segment, a launch on an async object (a
// stream), reads but is refused: irkit's launch plans run on the caller's
// stream.
func.func @launch_on_async_object(%n: index, %stream: i64) {
  // expected-error @+1 {{launches on an async object (a stream) are not supported by irkit}}
  "gpu.launch"(%n, %n, %n, %n, %n, %n, %stream) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1>}> ({
  ^bb0(%bx: index, %by: index, %bz: index, %tx: index, %ty: index, %tz: index, %gx: index, %gy: index, %gz: index, %sx: index, %sy: index, %sz: index):
    "gpu.terminator"() : () -> ()
  }) : (index, index, index, index, index, index, i64) -> ()
  return
}
