// RUN: irkit-opt %s --print-op-generic | filecheck %s
// RUN: irkit-opt %s --print-op-generic | irkit-opt | filecheck %s --check-prefix=CUSTOM

// The id ops' dimension and gpu.shuffle's mode print in MLIR's generic form
// (`#gpu.dim<x>`, `#gpu.shuffle_mode<xor>`: what mlir-opt and iree-opt read),
// and the opaque form irkit printed before (`#gpu<dim y>`) is still read.
// gpu.launch's generic form has LLVM 24's twelve operand segments (the last,
// an async object, always empty here).

// CHECK-LABEL: "func.func"
// CHECK:         "gpu.launch"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0>}>
// CHECK:         "gpu.thread_id"() <{dimension = #gpu.dim<x>}> : () -> index
// CHECK:         "gpu.block_id"() <{dimension = #gpu.dim<y>}> : () -> index
// CHECK:         "gpu.shuffle"(%{{.*}}, %{{.*}}, %{{.*}}) <{mode = #gpu.shuffle_mode<xor>}> : (f32, i32, i32) -> (f32, i1)
// CUSTOM:        gpu.thread_id x
// CUSTOM:        gpu.block_id y
// CUSTOM:        gpu.shuffle xor
func.func @ids(%n: index) {
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n) threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
    %t = gpu.thread_id x
    %b = "gpu.block_id"() <{dimension = #gpu<dim y>}> : () -> index
    %v = arith.constant 1.0 : f32
    %w = arith.constant 1 : i32
    %s, %ok = "gpu.shuffle"(%v, %w, %w) <{mode = #gpu<shuffle_mode xor>}> : (f32, i32, i32) -> (f32, i1)
    gpu.terminator
  }
  return
}
