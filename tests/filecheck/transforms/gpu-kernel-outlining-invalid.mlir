// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p gpu-kernel-outlining

// Host code that is not a launch-plan step would have to run on the host.

func.func @host_load(%a: memref<4xf32>, %o: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'memref.load' op gpu-kernel-outlining: a host function may hold only arith.constant, memref.alloc, memref.dealloc, gpu.launch_func and func.return once its kernels are outlined (this op would run on the host)}}
  %x = memref.load %a[%c0] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %x, %o[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @async_launch(%o: memref<4xf32> {irkit.output}) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'gpu.launch' op gpu-kernel-outlining does not outline async launches}}
  %t = gpu.launch async blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    gpu.terminator
  }
  return
}
