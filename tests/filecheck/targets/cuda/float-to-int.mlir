// RUN: irkit-opt %s -t cuda | filecheck %s
// RUN: irkit-opt %s -t cuda -o %t.cu && nvcc -arch=sm_90 -cubin -Werror all-warnings -o %t.cubin %t.cu
// REQUIRES: nvcc

// Float-to-integer conversions saturate, as the interpreter and the C target
// do (MLIR says poison): NaN gives 0, a value beyond the range its minimum or
// maximum, else the value truncated toward zero (what cvt.rzi.sat computes).
// i1 holds -1 or 0 signed, 0 or 1 unsigned.

// CHECK-LABEL: int32_t irkit_fptosi_f32_i32(float a) {
// CHECK-NEXT:    float x = (float)a;
// CHECK-NEXT:    if (isnan(x)) return 0;
// CHECK-NEXT:    if (x <= -0x1p31) return INT32_MIN;
// CHECK-NEXT:    if (x >= 0x1p31) return INT32_MAX;
// CHECK-NEXT:    return (int32_t)x;
// CHECK-LABEL: int8_t irkit_fptoui_f32_i8(float a) {
// CHECK-NEXT:    float x = (float)a;
// CHECK-NEXT:    if (isnan(x)) return 0;
// CHECK-NEXT:    if (x <= 0) return 0;
// CHECK-NEXT:    if (x >= 0x1p8) return (int8_t)UINT8_MAX;
// CHECK-NEXT:    return (int8_t)(uint8_t)x;
// CHECK-LABEL: int16_t irkit_fptosi_f64_i16(double a) {
// CHECK:         if (x <= -0x1p15) return INT16_MIN;
// CHECK-NEXT:    if (x >= 0x1p15) return INT16_MAX;
// CHECK:       bool irkit_fptosi_f32_i1(float a) { return (float)a <= -1; }
// CHECK:       bool irkit_fptoui_f64_i1(double a) { return (double)a >= 1; }
// CHECK-LABEL: __global__ void __launch_bounds__(32) convert_kernel(
// CHECK:         int32_t si = irkit_fptosi_f32_i32(x);
// CHECK-NEXT:    int8_t ui = irkit_fptoui_f32_i8(x);
// CHECK-NEXT:    int16_t wi = irkit_fptosi_f64_i16(y);
// CHECK-NEXT:    bool bs = irkit_fptosi_f32_i1(x);
// CHECK-NEXT:    bool bu = irkit_fptoui_f64_i1(y);

module attributes {gpu.container_module} {
  func.func @convert(%a: memref<64xf32>, %w: memref<64xf64>, %s: memref<64xi32> {irkit.output}, %u: memref<64xi8> {irkit.output}, %t: memref<64xi16> {irkit.output}, %b: memref<64xi1> {irkit.output}, %c: memref<64xi1> {irkit.output}) {
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    gpu.launch_func @convert_kernel::@convert_kernel blocks in (%c2, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<64xf32>, %w : memref<64xf64>, %s : memref<64xi32>, %u : memref<64xi8>, %t : memref<64xi16>, %b : memref<64xi1>, %c : memref<64xi1>)
    return
  }
  gpu.module @convert_kernel {
    gpu.func @convert_kernel(%a: memref<64xf32>, %w: memref<64xf64>, %s: memref<64xi32>, %u: memref<64xi8>, %t: memref<64xi16>, %b: memref<64xi1>, %c: memref<64xi1>) kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>} {
      %c32 = arith.constant 32 : index
      %bx = gpu.block_id x
      %tx = gpu.thread_id x
      %o = arith.muli %bx, %c32 : index
      %i = arith.addi %o, %tx : index
      %x = memref.load %a[%i] : memref<64xf32>
      %y = memref.load %w[%i] : memref<64xf64>
      %si = arith.fptosi %x : f32 to i32
      %ui = arith.fptoui %x : f32 to i8
      %wi = arith.fptosi %y : f64 to i16
      %bs = arith.fptosi %x : f32 to i1
      %bu = arith.fptoui %y : f64 to i1
      memref.store %si, %s[%i] : memref<64xi32>
      memref.store %ui, %u[%i] : memref<64xi8>
      memref.store %wi, %t[%i] : memref<64xi16>
      memref.store %bs, %b[%i] : memref<64xi1>
      memref.store %bu, %c[%i] : memref<64xi1>
      gpu.return
    }
  }
}
