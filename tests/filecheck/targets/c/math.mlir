// RUN: irkit-opt %s -t c | filecheck %s
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -c %t.c -o %t.o
// REQUIRES: cc

// libm's float functions for f32, double ones for f64; f16 is computed in
// float and rounded back. No bf16 here: no bf16 helpers either. f32 exp,
// tanh and erf are printed helpers (polynomials the C compiler vectorises),
// each once, exp first: tanh and erf call it.
// CHECK-NOT:   irkit_widen_bf16
// CHECK:       static inline float irkit_exp_f32(float x) {
// CHECK:           float n = clamped * 0x1.715476p+0f + 0x1.8p23f;
// CHECK:           return x != x ? x + x : result;
// CHECK-NEXT:  }
// CHECK:       static inline float irkit_tanh_f32(float x) {
// CHECK:           float e = irkit_exp_f32(2.0f * fabsf(x));
// CHECK:       static inline float irkit_erf_f32(float x) {
// CHECK:           float large = 1.0f - irkit_exp_f32(-tail_x * tail_x) * q;
// CHECK-NOT:   static inline float irkit_exp_f32
// CHECK-LABEL: int f32_math({{.*}}) {
// CHECK:         float e = irkit_exp_f32(x);
// CHECK:         float r = 1.0f / sqrtf(e);
// CHECK:         float m = fmaxf(r, x);
// CHECK:         float p = powf(m, e);
func.func @f32_math(%a: memref<4xf32>, %out: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  %e = math.exp %x : f32
  %r = math.rsqrt %e : f32
  %m = arith.maxnumf %r, %x : f32
  %p = math.powf %m, %e : f32
  memref.store %p, %out[%c0] : memref<4xf32>
  return
}

// CHECK-LABEL: int f32_transcendentals({{.*}}) {
// CHECK:         float t = irkit_tanh_f32(x);
// CHECK:         float r = irkit_erf_f32(t);
// CHECK:         float e = irkit_exp_f32(r);
func.func @f32_transcendentals(%a: memref<4xf32>, %out: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf32>
  %t = math.tanh %x : f32
  %r = math.erf %t : f32
  %e = math.exp %r : f32
  memref.store %e, %out[%c0] : memref<4xf32>
  return
}

// f64 keeps libm.
// CHECK-LABEL: int f64_math({{.*}}) {
// CHECK:         double e = exp(x);
// CHECK:         double r = 1.0 / sqrt(e);
// CHECK:         double m = fmax(r, x);
// CHECK:         double p = pow(m, e);
// CHECK:         double th = tanh(p);
// CHECK:         double er = erf(th);
func.func @f64_math(%a: memref<4xf64>, %out: memref<4xf64> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf64>
  %e = math.exp %x : f64
  %r = math.rsqrt %e : f64
  %m = arith.maxnumf %r, %x : f64
  %p = math.powf %m, %e : f64
  %th = math.tanh %p : f64
  %er = math.erf %th : f64
  memref.store %er, %out[%c0] : memref<4xf64>
  return
}

// CHECK-LABEL: int f16_math({{.*}}) {
// CHECK:         _Float16 e = (_Float16)(irkit_exp_f32((float)x));
// CHECK:         _Float16 s = (_Float16)((float)e + (float)x);
func.func @f16_math(%a: memref<4xf16>, %out: memref<4xf16> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %x = memref.load %a[%c0] : memref<4xf16>
  %e = math.exp %x : f16
  %s = arith.addf %e, %x : f16
  memref.store %s, %out[%c0] : memref<4xf16>
  return
}

// Constants are exact: hex floats, NaN and infinities from math.h.
// CHECK-LABEL: int constants({{.*}}) {
// CHECK:         float third = 0x1.555556p-2f;
// CHECK:         float nan = NAN;
// CHECK:         double minus_inf = -INFINITY;
// Integer constants are used as literals where they are needed.
// CHECK:         int32_t wide = (int32_t)(uint32_t)((-1));
// CHECK:         int32_t total = {{.*}}INT32_MIN{{.*}};
func.func @constants(%out: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %third = arith.constant 0.333333343 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %minus_inf = arith.constant 0xFFF0000000000000 : f64
  %byte = arith.constant 255 : i8
  %smallest = arith.constant -2147483648 : i32
  %sum = arith.addf %third, %nan : f32
  memref.store %sum, %out[%c0] : memref<4xf32>
  %wide = arith.extsi %byte : i8 to i32
  %total = arith.addi %wide, %smallest : i32
  %as_float = arith.sitofp %total : i32 to f32
  memref.store %as_float, %out[%c0] : memref<4xf32>
  return
}
