// RUN: irkit-opt %s --split-input-file --verify-diagnostics -p 'convert-parallel-loops-to-gpu'

// A store between the block and thread levels would run in every thread.

func.func @store_outside_threads(%a: memref<4xf32>, %x: f32) {
  scf.forall (%blk) in (1) {
    // expected-error @+1 {{'memref.store' op convert-parallel-loops-to-gpu: would run in every thread of a block (it is outside thread-mapped loops): only index math, loads, views and loops may run there}}
    memref.store %x, %a[%blk] : memref<4xf32>
    scf.forall (%t) in (4) {
      memref.store %x, %a[%t] : memref<4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @threads_without_blocks(%a: memref<4xf32>, %x: f32) {
  // expected-error @+1 {{'scf.forall' op convert-parallel-loops-to-gpu: a thread-mapped forall outside a block-mapped one}}
  scf.forall (%t) in (4) {
    memref.store %x, %a[%t] : memref<4xf32>
  } {mapping = [#gpu.thread<x>]}
  return
}

// -----

// The grid size must be known.

func.func @dynamic_grid(%a: memref<?xf32>, %n: index, %x: f32) {
  // expected-error @+1 {{'scf.forall' op convert-parallel-loops-to-gpu needs a static bound on each upper bound}}
  scf.forall (%blk) in (%n) {
    scf.forall (%t) in (1) {
      memref.store %x, %a[%blk] : memref<?xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

// A thread loop needs a bound on its trip count for the block size.

func.func @unbounded_threads(%a: memref<?xf32>, %n: index, %x: f32) {
  scf.forall (%blk) in (1) {
    // expected-error @+1 {{'scf.forall' op convert-parallel-loops-to-gpu needs a static bound on each upper bound}}
    scf.forall (%t) in (%n) {
      memref.store %x, %a[%t] : memref<?xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}

// -----

func.func @dimension_twice(%a: memref<4x4xf32>, %x: f32) {
  // expected-error @+1 {{'scf.forall' op convert-parallel-loops-to-gpu: the mapping names a dimension twice}}
  scf.forall (%i, %j) in (4, 4) {
    scf.forall (%t) in (1) {
      memref.store %x, %a[%i, %j] : memref<4x4xf32>
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>, #gpu.block<x>]}
  return
}

// -----

func.func @nested_threads(%a: memref<4x4xf32>, %x: f32) {
  scf.forall (%blk) in (1) {
    scf.forall (%i) in (4) {
      // expected-error @+1 {{'scf.forall' op convert-parallel-loops-to-gpu: nested thread foralls}}
      scf.forall (%j) in (4) {
        memref.store %x, %a[%i, %j] : memref<4x4xf32>
      } {mapping = [#gpu.thread<y>]}
    } {mapping = [#gpu.thread<x>]}
  } {mapping = [#gpu.block<x>]}
  return
}
