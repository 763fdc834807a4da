"""The C target's f32 `exp`, `tanh` and `erf`: polynomials the compiler vectorises.

libm's `expf`, `tanhf` and `erff` are calls the C compiler cannot vectorise
(gcc keeps `expf` scalar for `errno`; glibc's vector library, libmvec, is
used only under `-ffast-math` or with GCC's `simd` declarations, exists only
in glibc, and picks a different implementation per instruction set at run
time: docs/targets.md), so a softmax, a GELU or a SiLU row ran one element
at a time. These helpers are straight-line C (mul/add, selects, integer bit
moves, one division), printed `static inline` once per translation unit by
`CStyleEmitter.helper`, so `gcc -O3 -march=native` vectorises every loop
calling them (AVX-512: 16 lanes). They never branch: both sides of every
case are computed and one is selected, which the vectoriser needs.

Accuracy, against the float64 result rounded to f32 (NumPy's `exp` and
`tanh`, `irkit.interpreter.special.erf`; glibc's double functions in the
exhaustive check), counted in f32 ulps (the distance between the two f32
results in representable numbers), over all 2^32 f32 inputs
(`tests/targets/c_math_exhaustive.py`): `exp` and `tanh` at most 1 ulp,
`erf` at most 2 (just above x = 1; 3% of all inputs are 1 or 2 ulps off).
`tests/targets/test_c_math.py` asserts these bounds on a dense sweep of
all bit patterns, the edges and the ranges around each switch-over.
Evaluation is plain `*` and `+`: irkit compiles with `-std=c99`, under which
gcc does not contract into FMAs, so the result does not depend on the
instruction set. Denormal inputs and results are exact IEEE arithmetic (no
flush to zero).

- `exp(x)`: `x = n ln2 + r`, `n = round(x / ln2)`, `|r| <= ln2 / 2`, by
  Cody and Waite's two-part ln2 (`n * LN2_HI` is exact for |n| < 2^8);
  `e^r` by its degree-7 Taylor polynomial (truncation below 2^-27
  relative); `2^n` applied as two powers of two, `2^(n/2) * 2^(n - n/2)`,
  each a normal number, so results in the denormal range round once and
  `n = 128` (just below the overflow threshold) does not overflow early.
  Past ln(FLT_MAX) the result is +inf, below ln(2^-150) it is 0; NaN gives
  NaN; the clamp before the integer conversion keeps NaN and huge inputs
  out of it (C leaves those conversions undefined).
- `tanh(x)`: below |x| = 0.625 an odd polynomial `x + x^3 P(x^2)` (Cephes'
  `tanhf`, which avoids the cancellation of the formula below); above it
  `sign(x) (1 - 2 / (exp(2|x|) + 1))`, which is +-1 once `exp` overflows.
  -0 stays -0, NaN stays NaN.
- `erf(x)`: below |x| = 1 `x + x Q(x^2)` (Cephes' `erff` polynomial, its
  leading coefficient written as 1 + 0.1283..., so the product is exact
  near 0); from 1 to 3.9192 `1 - exp(-x^2) R(1/x)`, R a degree-8 polynomial
  in 1/x fitted (weighted least squares in float64 over Chebyshev points of
  [1, 4], then rounded to f32) to `erfc(x) exp(x^2)`, relative error
  2.6e-7 evaluated in f32 (about 0.7 ulp of erf at x = 1, erfc(1) < 0.16;
  with the rounding of `exp`, the product and the subtraction, 2 ulps at
  worst); from 3.9192 (where erfc falls below half an ulp of 1, 2^-25) it
  is +-1.

f64 keeps libm (`exp`, `tanh`, `erf`); f16 and bf16 are computed through
these f32 helpers and rounded once to their type, as every half op is.
"""

from __future__ import annotations

from collections.abc import Sequence

from irkit.targets.language import Language

__all__ = ["MATH_HELPER_DEPENDENCIES", "MATH_HELPER_KINDS", "math_helper_body"]

# The math ops these helpers compute for f32 (and the halves), by helper kind.
MATH_HELPER_KINDS = {"math.exp": "exp", "math.tanh": "tanh", "math.erf": "erf"}

# The helpers a helper's body calls, by the placeholder naming each
# (`{exp}`): printed before it.
MATH_HELPER_DEPENDENCIES: dict[str, tuple[str, ...]] = {
    "tanh": ("exp",),
    "erf": ("exp",),
}

# e^r = 1 + r + r^2 (1/2 + r/6 + ... + r^5/5040), Taylor's coefficients in f32.
_EXP_COEFFICIENTS = (
    "0x1.a01a02p-13f",
    "0x1.6c16c2p-10f",
    "0x1.111112p-7f",
    "0x1.555556p-5f",
    "0x1.555556p-3f",
    "0x1p-1f",
)
_LOG2_E = "0x1.715476p+0f"
# ln 2 = LN2_HI + LN2_LO; LN2_HI has 16 significant bits, so n * LN2_HI is
# exact for every n the clamped input gives.
_LN2_HI = "0x1.62e4p-1f"
_LN2_LO = "0x1.7f7d1cp-20f"
# 1.5 * 2^23: adding and subtracting it rounds a float below 2^22 in
# magnitude to the nearest integer (ties to even).
_ROUNDING_SHIFTER = "0x1.8p23f"
# The largest x with expf(x) finite, and the smallest with expf(x) > 0.
_EXP_OVERFLOW = "0x1.62e42ep+6f"
_EXP_UNDERFLOW = "-0x1.9fe368p+6f"
# Past these, the result is decided by the selects above: n stays in
# [-150, 129], so both halves of 2^n are normal.
_EXP_CLAMP_LOW = "-104.0f"
_EXP_CLAMP_HIGH = "89.0f"

# tanh(x) = x + x^3 P(x^2) for |x| < 0.625 (Cephes tanhf), highest first.
_TANH_COEFFICIENTS = (
    "-0x1.75e1d4p-8f",
    "0x1.52269cp-6f",
    "-0x1.b83c5ap-5f",
    "0x1.110726p-3f",
    "-0x1.555532p-2f",
)
_TANH_SMALL = "0.625f"

# erf(x) = x + x Q(x^2) for |x| < 1 (Cephes erff; its last coefficient,
# 2/sqrt(pi), less 1), highest first.
_ERF_SMALL_COEFFICIENTS = (
    "0x1.496a32p-14f",
    "-0x1.a3f7p-11f",
    "0x1.5405b2p-8f",
    "-0x1.b7f90ep-6f",
    "0x1.ce2cf8p-4f",
    "-0x1.81273ep-2f",
    "0x1.06eba8p-3f",
)
# erfc(x) exp(x^2) = R(1/x) on [1, 4], highest first (see the module text).
_ERF_TAIL_COEFFICIENTS = (
    "-0x1.8bc91p-7f",
    "0x1.53b16ep-5f",
    "-0x1.a947eep-9f",
    "-0x1.af51eap-3f",
    "0x1.e65f34p-2f",
    "-0x1.d92712p-2f",
    "0x1.435e74p-5f",
    "0x1.1e6bb2p-1f",
    "0x1.02fcf2p-12f",
)
# erf(x) rounds to 1 in f32 from here (erfc(x) < 2^-25).
_ERF_SATURATION = "0x1.f5a888p+1f"
_ERF_TAIL_CLAMP = "4.0f"


def _horner(
    t: str, variable: str, argument: str, coefficients: Sequence[str]
) -> list[str]:
    """Lines declaring `variable` = the polynomial (highest coefficient
    first) at `argument`, by Horner's rule."""
    first, *rest = coefficients
    lines = [f"{t} {variable} = {first};"]
    for coefficient in rest:
        negative = coefficient.startswith("-")
        sign, magnitude = ("-", coefficient[1:]) if negative else ("+", coefficient)
        lines.append(f"{variable} = {variable} * {argument} {sign} {magnitude};")
    return lines


def _function(t: str, lines: list[str]) -> str:
    body = "".join(f"    {line}\n" for line in lines)
    return f"{t} {{name}}({t} x) {{\n{body}}}"


def _exp_body(t: str) -> str:
    lines = [
        # NaN fails the comparison and takes the low clamp: never converted.
        f"{t} clamped = x >= {_EXP_CLAMP_LOW} ? x : {_EXP_CLAMP_LOW};",
        f"clamped = clamped <= {_EXP_CLAMP_HIGH} ? clamped : {_EXP_CLAMP_HIGH};",
        f"{t} n = clamped * {_LOG2_E} + {_ROUNDING_SHIFTER};",
        f"n = n - {_ROUNDING_SHIFTER};",
        f"{t} r = clamped - n * {_LN2_HI};",
        f"r = r - n * {_LN2_LO};",
        *_horner(t, "p", "r", _EXP_COEFFICIENTS),
        "p = p * (r * r) + r;",
        "p = p + 1.0f;",
        "int32_t k = (int32_t)n;",
        "int32_t half = k / 2;",
        "uint32_t low_bits = (uint32_t)(half + 127) << 23;",
        "uint32_t high_bits = (uint32_t)(k - half + 127) << 23;",
        f"{t} low_scale;",
        f"{t} high_scale;",
        "memcpy(&low_scale, &low_bits, sizeof low_scale);",
        "memcpy(&high_scale, &high_bits, sizeof high_scale);",
        f"{t} result = p * low_scale * high_scale;",
        f"result = x > {_EXP_OVERFLOW} ? INFINITY : result;",
        f"result = x < {_EXP_UNDERFLOW} ? 0.0f : result;",
        "return x != x ? x + x : result;",
    ]
    return _function(t, lines)


def _tanh_body(t: str) -> str:
    lines = [
        f"{t} z = x * x;",
        *_horner(t, "small", "z", _TANH_COEFFICIENTS),
        # Sign from x: the sum would turn tanh(-0) into +0.
        "small = copysignf(small * z * x + x, x);",
        f"{t} e = {{exp}}(2.0f * fabsf(x));",
        f"{t} large = copysignf(1.0f - 2.0f / (e + 1.0f), x);",
        f"return fabsf(x) < {_TANH_SMALL} ? small : large;",
    ]
    return _function(t, lines)


def _erf_body(t: str) -> str:
    lines = [
        f"{t} magnitude = fabsf(x);",
        f"{t} z = x * x;",
        *_horner(t, "small", "z", _ERF_SMALL_COEFFICIENTS),
        "small = small * x + x;",
        # The tail is computed for every x, on an argument kept in [1, 4].
        f"{t} tail_x = magnitude < {_ERF_TAIL_CLAMP} ? magnitude : {_ERF_TAIL_CLAMP};",
        "tail_x = tail_x > 1.0f ? tail_x : 1.0f;",
        f"{t} u = 1.0f / tail_x;",
        *_horner(t, "q", "u", _ERF_TAIL_COEFFICIENTS),
        f"{t} large = 1.0f - {{exp}}(-tail_x * tail_x) * q;",
        f"large = magnitude < {_ERF_SATURATION} ? large : 1.0f;",
        "large = copysignf(large, x);",
        "large = x != x ? x + x : large;",
        "return magnitude < 1.0f ? small : large;",
    ]
    return _function(t, lines)


def math_helper_body(language: Language, kind: str) -> str:
    """The C of f32 helper `kind` (`exp`, `tanh`, `erf`), `{name}` and the
    placeholders of its `MATH_HELPER_DEPENDENCIES` left to fill."""
    t = language.type_name("f32")
    bodies = {"exp": _exp_body, "tanh": _tanh_body, "erf": _erf_body}
    return bodies[kind](t)
