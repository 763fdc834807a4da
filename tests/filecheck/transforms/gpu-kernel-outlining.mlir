// RUN: irkit-opt %s --split-input-file -p gpu-kernel-outlining | filecheck %s
// RUN: irkit-opt %s --split-input-file -p 'gpu-kernel-outlining{min-blocks-per-sm=2}' | filecheck %s --check-prefix=RESIDENT

// With min-blocks-per-sm, every kernel carries MLIR's NVVM residency hint.
// RESIDENT: gpu.func @scale_kernel(%{{.*}}) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>, gpu.known_grid_size = array<i32: 4, 1, 1>, nvvm.minctasm = 2 : i32}

// One launch: the memref and the scalar it uses from above become kernel
// arguments in first-use order, the constant is cloned in, the ids and sizes
// the body uses become gpu ops, constant sizes become known sizes.

// CHECK:       module attributes {gpu.container_module}
// CHECK-LABEL: func.func @scale
// CHECK-SAME:    (%[[M:.*]]: memref<128xf32>, %[[F:.*]]: f32)
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT:    gpu.launch_func @scale_kernel::@scale_kernel blocks in (%[[C4]], %[[C1]], %[[C1]]) threads in (%[[C32]], %[[C1]], %[[C1]]) args(%[[M]] : memref<128xf32>, %[[F]] : f32)
// CHECK-NEXT:    func.return
// CHECK:       gpu.module @scale_kernel {
// CHECK-NEXT:    gpu.func @scale_kernel(%[[KM:.*]]: memref<128xf32>, %[[KF:.*]]: f32) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>, gpu.known_grid_size = array<i32: 4, 1, 1>} {
// CHECK-NEXT:      %[[K32:.*]] = arith.constant 32 : index
// CHECK-NEXT:      %[[BX:.*]] = gpu.block_id x
// CHECK-NEXT:      %[[TX:.*]] = gpu.thread_id x
// CHECK-NEXT:      %[[B:.*]] = arith.muli %[[BX]], %[[K32]] : index
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[B]], %[[TX]] : index
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[KM]][%[[I]]] : memref<128xf32>
// CHECK-NEXT:      %[[Y:.*]] = arith.mulf %[[X]], %[[KF]] : f32
// CHECK-NEXT:      memref.store %[[Y]], %[[KM]][%[[I]]] : memref<128xf32>
// CHECK-NEXT:      gpu.return

func.func @scale(%m: memref<128xf32>, %f: f32) {
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    %b = arith.muli %bx, %c32 : index
    %i = arith.addi %b, %tx : index
    %x = memref.load %m[%i] : memref<128xf32>
    %y = arith.mulf %x, %f : f32
    memref.store %y, %m[%i] : memref<128xf32>
    gpu.terminator
  }
  return
}

// -----

// Two launches of one function: MLIR's names (@f_kernel, then @f_kernel_0,
// each module holding @f_kernel), modules right after the function in launch
// order; the workgroup attribution moves to the kernel; a view of a buffer
// is cloned into the kernel, which takes the whole buffer.

// CHECK-LABEL: func.func @two
// CHECK-NOT:     memref.subview
// CHECK:         gpu.launch_func @two_kernel::@two_kernel
// CHECK-SAME:      args(%{{.*}} : memref<8x8xf32>)
// CHECK:         gpu.launch_func @two_kernel_0::@two_kernel
// CHECK-SAME:      args(%{{.*}} : memref<8x8xf32>, %{{.*}} : memref<8x8xf32>)
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
// CHECK-NEXT:  gpu.module @two_kernel {
// CHECK-NEXT:    gpu.func @two_kernel(%[[A:.*]]: memref<8x8xf32>) workgroup(%[[W:.*]] : memref<8xf32, #gpu.address_space<workgroup>>) kernel
// CHECK:           memref.store %{{.*}}, %[[W]][%{{.*}}] : memref<8xf32, #gpu.address_space<workgroup>>
// CHECK:       gpu.module @two_kernel_0 {
// CHECK-NEXT:    gpu.func @two_kernel(%[[A2:.*]]: memref<8x8xf32>, %[[O:.*]]: memref<8x8xf32>) kernel
// CHECK:           %[[ROW:.*]] = memref.subview %[[A2]][1, 0] [1, 8] [1, 1]
// CHECK:           memref.load %[[ROW]]

func.func @two(%a: memref<8x8xf32>, %o: memref<8x8xf32> {irkit.output}) {
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c0 = arith.constant 0 : index
  %row = memref.subview %a[1, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<1x8xf32, strided<[8, 1], offset: 8>>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) workgroup(%w : memref<8xf32, #gpu.address_space<workgroup>>) {
    %x = memref.load %a[%c0, %tx] : memref<8x8xf32>
    memref.store %x, %w[%tx] : memref<8xf32, #gpu.address_space<workgroup>>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c8, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %x = memref.load %row[%c0, %tx] : memref<1x8xf32, strided<[8, 1], offset: 8>>
    memref.store %x, %o[%bx, %tx] : memref<8x8xf32>
    gpu.terminator
  }
  return
}

// -----

// A kernel that reads a global gets its own copy of it; the host one, now
// unused, goes.

// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @table
// CHECK-NOT:     memref.get_global
// CHECK:         gpu.launch_func @table_kernel::@table_kernel
// CHECK:       gpu.module @table_kernel {
// CHECK-NEXT:    memref.global "private" constant @weights : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-NEXT:    gpu.func @table_kernel
// CHECK:           memref.get_global @weights : memref<4xf32>

memref.global "private" constant @weights : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @table(%o: memref<4xf32> {irkit.output}) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %g = memref.get_global @weights : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
    %x = memref.load %g[%tx] : memref<4xf32>
    memref.store %x, %o[%tx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A grid size that is not a constant gives no known grid size.

// CHECK-LABEL: func.func @dynamic
// CHECK:         gpu.launch_func @dynamic_kernel::@dynamic_kernel blocks in (%[[N:.*]], %{{.*}}, %{{.*}}) threads in
// CHECK:       gpu.func @dynamic_kernel
// CHECK-NOT:     known_grid_size
// CHECK-SAME:    kernel attributes {gpu.known_block_size = array<i32: 1, 1, 1>} {

func.func @dynamic(%o: memref<4xf32> {irkit.output}, %n: index) {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    memref.store %z, %o[%bx] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// A launch carrying its own residency hint (its builder knows the registers
// it needs: `convert-linalg-to-mma` asks for one block of its widest tiles)
// keeps it over the pass option's; without the option it is kept too.

// CHECK-LABEL: func.func @own_hint
// CHECK: gpu.func @own_hint_kernel(%{{.*}}) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 1 : i32}
// RESIDENT: gpu.func @own_hint_kernel(%{{.*}}) kernel attributes {gpu.known_block_size = array<i32: 64, 1, 1>, gpu.known_grid_size = array<i32: 1, 1, 1>, nvvm.minctasm = 1 : i32}
func.func @own_hint(%out: memref<64xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c64, %sy = %c1, %sz = %c1) {
    %one = arith.constant 1.0 : f32
    memref.store %one, %out[%tx] : memref<64xf32>
    gpu.terminator
  } {nvvm.minctasm = 1 : i32}
  return
}
