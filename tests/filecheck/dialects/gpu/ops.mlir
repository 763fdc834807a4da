// RUN: irkit-opt %s | irkit-opt | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s

// gpu ops in MLIR's custom syntax (xDSL 0.74 has only the generic form, no
// attributions, no gpu.shuffle and no #gpu.address_space): a host function
// launching an inline kernel, and a gpu.module whose kernel gpu.launch_func runs.

// CHECK: builtin.module attributes {gpu.container_module} {
module attributes {gpu.container_module} {

  // CHECK-LABEL: func.func @host
  // CHECK:         gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>) private(%acc : memref<1xf32, #gpu.address_space<private>>) {
  // CHECK-NEXT:      %t = gpu.thread_id x
  // CHECK-NEXT:      %b = gpu.block_id x upper_bound 4
  // CHECK-NEXT:      %d = gpu.block_dim x
  // CHECK-NEXT:      %g = gpu.grid_dim y
  // CHECK-NEXT:      %i = gpu.global_id z
  // CHECK-NEXT:      %l = gpu.lane_id
  // CHECK-NEXT:      %lb = gpu.lane_id upper_bound 32
  // CHECK-NEXT:      scf.for %k = %c0 to %c4 step %c1 {
  // CHECK-NEXT:        %v = memref.load %buf[%t] : memref<128xf32>
  // CHECK-NEXT:        memref.store %v, %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
  // CHECK-NEXT:        gpu.barrier
  // CHECK-NEXT:      }
  // CHECK-NEXT:      %x = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
  // CHECK:           %r, %valid = gpu.shuffle xor %x, %off, %width : f32
  // CHECK-NEXT:      %r2, %valid2 = gpu.shuffle down %x, %off, %width : f32
  // CHECK-NEXT:      %r3, %valid3 = gpu.shuffle idx %ti, %off, %width : i32
  // CHECK-NEXT:      gpu.terminator
  // CHECK-NEXT:    } {tag}
  // CHECK:         %token = gpu.launch async [%dep] blocks(%bx_1, %by_1, %bz_1) in (%gx_1 = %c1, %gy_1 = %c1, %gz_1 = %c1) threads(%tx_1, %ty_1, %tz_1) in (%sx_1 = %c1, %sy_1 = %c1, %sz_1 = %c1) dynamic_shared_memory_size %shm {
  // CHECK:         gpu.launch_func @kernels::@scale blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%buf : memref<128xf32>, %n : index)
  // CHECK-NEXT:    gpu.launch_func @kernels::@scale blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) dynamic_shared_memory_size %shm args(%buf : memref<128xf32>, %n : index)
  // CHECK-NEXT:    gpu.launch_func @kernels::@nothing blocks in (%i64, %i64, %i64) threads in (%i64, %i64, %i64) : i64
  func.func @host(%buf: memref<128xf32>, %n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %i64 = arith.constant 1 : i64
    %shm = arith.constant 0 : i32
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1)
               workgroup(%tile : memref<32xf32, #gpu.address_space<workgroup>>)
               private(%acc : memref<1xf32, #gpu.address_space<private>>) {
      %t = gpu.thread_id x
      %b = gpu.block_id x upper_bound 4
      %d = gpu.block_dim x
      %g = gpu.grid_dim y
      %i = gpu.global_id z
      %l = gpu.lane_id
      %lb = gpu.lane_id upper_bound 32
      scf.for %k = %c0 to %c4 step %c1 {
        %v = memref.load %buf[%t] : memref<128xf32>
        memref.store %v, %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
        gpu.barrier
      }
      %x = memref.load %tile[%tx] : memref<32xf32, #gpu.address_space<workgroup>>
      %off = arith.constant 1 : i32
      %width = arith.constant 32 : i32
      %ti = arith.constant 7 : i32
      %r, %valid = gpu.shuffle xor %x, %off, %width : f32
      %r2, %valid2 = gpu.shuffle down %x, %off, %width : f32
      %r3, %valid3 = gpu.shuffle idx %ti, %off, %width : i32
      gpu.terminator
    } {tag}
    %dep = "gpu.wait"() : () -> !gpu.async.token
    %token = gpu.launch async [%dep] blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1)
               dynamic_shared_memory_size %shm {
      gpu.terminator
    }
    gpu.launch_func @kernels::@scale blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) args(%buf : memref<128xf32>, %n : index)
    gpu.launch_func @kernels::@scale blocks in (%c4, %c1, %c1) threads in (%c32, %c1, %c1) dynamic_shared_memory_size %shm args(%buf : memref<128xf32>, %n : index)
    gpu.launch_func @kernels::@nothing blocks in (%i64, %i64, %i64) threads in (%i64, %i64, %i64) : i64
    return
  }

  // CHECK-LABEL: gpu.module @kernels {
  // CHECK-NEXT:    gpu.func @scale(%m: memref<128xf32>, %n: index) workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>) private(%p : memref<4xf32, #gpu.address_space<private>>) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
  // CHECK-NEXT:      %i = gpu.global_id x
  // CHECK-NEXT:      %in = arith.cmpi ult, %i, %n : index
  // CHECK-NEXT:      scf.if %in {
  // CHECK-NEXT:        %v = memref.load %m[%i] : memref<128xf32>
  // CHECK-NEXT:        %twice = arith.addf %v, %v : f32
  // CHECK-NEXT:        memref.store %twice, %m[%i] : memref<128xf32>
  // CHECK-NEXT:      }
  // CHECK-NEXT:      gpu.return
  // CHECK-NEXT:    }
  // CHECK-NEXT:    gpu.func @nothing() kernel {
  // CHECK-NEXT:      gpu.return
  // CHECK-NEXT:    }
  // CHECK-NEXT:    gpu.func @helper(%x: f32, %y: f32) -> (f32, f32) {
  // CHECK-NEXT:      gpu.return %y, %x : f32, f32
  // CHECK-NEXT:    }
  // CHECK-NEXT:  }
  gpu.module @kernels {
    gpu.func @scale(%m: memref<128xf32>, %n: index)
        workgroup(%w : memref<32xf32, #gpu.address_space<workgroup>>)
        private(%p : memref<4xf32, #gpu.address_space<private>>)
        kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
      %i = gpu.global_id x
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %m[%i] : memref<128xf32>
        %twice = arith.addf %v, %v : f32
        memref.store %twice, %m[%i] : memref<128xf32>
      }
      gpu.return
    }
    gpu.func @nothing() kernel {
      gpu.return
    }
    gpu.func @helper(%x: f32, %y: f32) -> (f32, f32) {
      gpu.return %y, %x : f32, f32
    }
  }

  // CHECK-LABEL: gpu.module @empty attributes {tag} {
  // CHECK-NEXT:  }
  gpu.module @empty attributes {tag} {
  }

  // CHECK-LABEL: func.func @mapping
  // CHECK:         } {mapping = [#gpu.block<y>, #gpu.thread<x>]}
  func.func @mapping(%m: memref<4x8xf32>, %v: f32) {
    scf.forall (%i, %j) in (4, 8) {
      memref.store %v, %m[%i, %j] : memref<4x8xf32>
    } {mapping = [#gpu.block<y>, #gpu.thread<x>]}
    return
  }

  // CHECK-LABEL: func.func @global_memory
  // CHECK-SAME:    memref<4xf32, #gpu.address_space<global>>
  func.func @global_memory(%m: memref<4xf32, #gpu.address_space<global>>) {
    return
  }
}
