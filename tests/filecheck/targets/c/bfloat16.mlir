// RUN: irkit-opt %s -t c | filecheck %s
// RUN: irkit-opt %s -t c -o %t.c && cc -std=c99 -O2 -Wall -Wextra -Werror -c %t.c -o %t.o
// REQUIRES: cc

// bf16 has no arithmetic type in gcc 12's C: it is stored as uint16_t bits,
// widened to float (the bits shifted up, exact) for every op and narrowed
// back with round to nearest even (NaN kept NaN), so each op rounds once to
// bf16 as the interpreter's does. The helpers are printed once, only into a
// unit that uses bf16.

// CHECK-LABEL: static inline float irkit_widen_bf16(uint16_t a) {
// CHECK-NEXT:    uint32_t bits = (uint32_t)a << 16;
// CHECK-NEXT:    float result;
// CHECK-NEXT:    memcpy(&result, &bits, sizeof result);
// CHECK-NEXT:    return result;
// CHECK-LABEL: static inline uint16_t irkit_narrow_bf16(float a) {
// CHECK-NEXT:    uint32_t bits;
// CHECK-NEXT:    memcpy(&bits, &a, sizeof bits);
// CHECK-NEXT:    if ((bits & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((bits >> 16) | 0x0040u);
// CHECK-NEXT:    bits += 0x7fffu + ((bits >> 16) & 1u);
// CHECK-NEXT:    return (uint16_t)(bits >> 16);
// From double, rounded to odd into float first: one rounding in all.
// CHECK-LABEL: static inline uint16_t irkit_narrow_bf16_f64(double a) {
// CHECK:           if (fabs((double)single) > fabs(a)) bits -= 1u;
// CHECK-NEXT:      bits |= 1u;
// CHECK-NOT:   irkit_widen_bf16(uint16_t

// A global's values are bit patterns: 1.5, -2, NaN, +inf.
// CHECK:       static const uint16_t table[4] = {
// CHECK-NEXT:      (uint16_t)0x3fc0, (uint16_t)0xc000, (uint16_t)0x7fc0, (uint16_t)0x7f80,

// CHECK-LABEL: int bf16_math(const uint16_t *restrict a, uint16_t *restrict out, float *restrict wide, uint16_t *restrict narrow, int32_t *restrict count) {
// CHECK:         uint16_t x = a[0];
// CHECK:         uint16_t e = irkit_narrow_bf16(irkit_exp_f32(irkit_widen_bf16(x)));
// CHECK:         uint16_t s = irkit_narrow_bf16(irkit_widen_bf16(e) + irkit_widen_bf16(x));
// CHECK:         uint16_t half = (uint16_t)0x3f00;
// CHECK:         uint16_t m = irkit_narrow_bf16(irkit_maximumf_f32(irkit_widen_bf16(s), irkit_widen_bf16(half)));
// CHECK:         bool lt = irkit_widen_bf16(m) < irkit_widen_bf16(x);
// CHECK:         float w = irkit_widen_bf16(m);
// CHECK:         double d = (double)irkit_widen_bf16(m);
// CHECK:         uint16_t n = irkit_narrow_bf16_f64(d);
// CHECK:         int32_t i = irkit_fptosi_f32_i32(irkit_widen_bf16(n));
// CHECK:         uint16_t back = irkit_narrow_bf16_f64(i);
// CHECK:         uint16_t g = table[1];
// CHECK:         out[0] = {{.*}};
func.func @bf16_math(%a: memref<4xbf16>, %out: memref<4xbf16> {irkit.output}, %wide: memref<4xf32> {irkit.output}, %narrow: memref<4xbf16> {irkit.output}, %count: memref<4xi32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = memref.load %a[%c0] : memref<4xbf16>
  %e = math.exp %x : bf16
  %s = arith.addf %e, %x : bf16
  %half = arith.constant 0.5 : bf16
  %m = arith.maximumf %s, %half : bf16
  %lt = arith.cmpf olt, %m, %x : bf16
  %w = arith.extf %m : bf16 to f32
  %d = arith.extf %m : bf16 to f64
  %n = arith.truncf %d : f64 to bf16
  %i = arith.fptosi %n : bf16 to i32
  %back = arith.sitofp %i : i32 to bf16
  %t = memref.get_global @table : memref<4xbf16>
  %g = memref.load %t[%c1] : memref<4xbf16>
  %sel = arith.select %lt, %back, %g : bf16
  memref.store %sel, %out[%c0] : memref<4xbf16>
  memref.store %w, %wide[%c0] : memref<4xf32>
  memref.store %n, %narrow[%c0] : memref<4xbf16>
  memref.store %i, %count[%c0] : memref<4xi32>
  return
}
memref.global "private" constant @table : memref<4xbf16> = dense<[1.5, -2.0, 0x7FC0, 0x7F80]>
