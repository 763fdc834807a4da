"""Special functions NumPy lacks, vectorised and dtype-preserving.

`erf` is evaluated in double precision and rounded once to the input's type,
so f32 results are within one f32 rounding of the true value.
`fused_multiply_add` is IEEE 754's fusedMultiplyAdd (C's `fma`): `a * b + c`
rounded once.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np

from irkit.dtypes import convert, is_float_dtype

# Past this |x|, erf(x) is 1 to within 2e-17 (erfc(6) ~ 2.2e-17).
_ERF_SATURATION = 6.0
_TWO_OVER_SQRT_PI = 1.1283791670955126
_MAX_TERMS = 400


def erf(x: np.ndarray) -> np.ndarray:
    """The error function of `x`, elementwise, in `x`'s floating-point dtype.

    Uses the everywhere-convergent series of positive terms
    `erf(x) = 2/sqrt(pi) * exp(-x^2) * sum_n (2x^2)^n x / (1*3*...*(2n+1))`
    (no cancellation, relative error ~1e-15 in f64) for |x| < 6 and +-1
    beyond; NaN propagates. Accepts NumPy scalars and arrays.
    """
    array = np.asarray(x)
    dtype = array.dtype if is_float_dtype(array.dtype) else np.dtype(np.float64)
    wide = array.astype(np.float64)
    magnitude = np.abs(wide)
    small = np.where(magnitude < _ERF_SATURATION, magnitude, 0.0)
    square = small * small
    term = small.copy()
    total = small.copy()
    for n in range(_MAX_TERMS):
        term = term * (2.0 * square) / (2 * n + 3)
        total += term
        if not np.any(term > 1e-17 * total):
            break
    series = _TWO_OVER_SQRT_PI * np.exp(-square) * total
    result = np.where(magnitude < _ERF_SATURATION, series, 1.0)
    result = np.copysign(result, wide)
    result = np.where(np.isnan(wide), np.nan, result)
    out = result.astype(dtype)
    if np.ndim(x) == 0 and not isinstance(x, np.ndarray):
        return out[()]
    return out


def fused_multiply_add(a: Any, b: Any, c: Any) -> np.ndarray:
    """`a * b + c` rounded once to the operands' float dtype, elementwise.

    Below f64 the product is exact in f64 (twice 24 bits at most) and the
    sum is rounded to odd in f64 (the rounded sum, moved one ulp towards
    the exact error of the addition where it is inexact and even), whose
    53 bits are at least the narrow type's precision plus two: rounding
    that to the narrow type is then the single rounding of the exact value
    (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums:
    proved algorithms using rounding to odd", 2008). In f64, finite
    operands are summed exactly as fractions and rounded once; an exact
    zero takes the sign the rounded f64 operations give it, which is
    IEEE's (the product is then exact). With finite factors an infinite or
    NaN addend is the result; an infinite or NaN factor gives what the
    unfused operations give.
    """
    dtype = np.asarray(a).dtype
    wide = [np.asarray(v).astype(np.float64) for v in (a, b, c)]
    # Overflow and inf - inf give IEEE's inf and NaN, as the C operations do.
    with np.errstate(all="ignore"):
        product = wide[0] * wide[1]
        total = product + wide[2]
        if dtype == np.float64:
            return _fused_multiply_add_f64(wide[0], wide[1], wide[2], total)
        # TwoSum (Knuth): the exact error of `product + c`.
        virtual = total - product
        error = (product - (total - virtual)) + (wide[2] - virtual)
        inexact = np.isfinite(total) & (error != 0)
        even = (np.asarray(total).view(np.int64) & 1) == 0
        towards = np.nextafter(total, np.where(error > 0, np.inf, -np.inf))
        to_odd = np.where(inexact & even, towards, total)
        return convert(to_odd, dtype)


def _fused_multiply_add_f64(
    a: np.ndarray, b: np.ndarray, c: np.ndarray, rounded: np.ndarray
) -> np.ndarray:
    shape = np.broadcast_shapes(a.shape, b.shape, c.shape)
    flat = [np.broadcast_to(v, shape).reshape(-1) for v in (a, b, c)]
    result = np.array(np.broadcast_to(rounded, shape), np.float64).reshape(-1)
    finite_product = np.isfinite(flat[0]) & np.isfinite(flat[1])
    # A finite product is exact: an infinite (or NaN) addend alone decides,
    # even where the rounded product overflowed.
    result = np.where(finite_product & ~np.isfinite(flat[2]), flat[2], result)
    finite = finite_product & np.isfinite(flat[2])
    for position in np.flatnonzero(finite):
        x, y, z = (float(v[position]) for v in flat)
        exact = Fraction(x) * Fraction(y) + Fraction(z)
        if exact == 0:
            continue  # the rounded operations were exact, with IEEE's sign
        try:
            result[position] = float(exact)
        except OverflowError:
            result[position] = np.inf if exact > 0 else -np.inf
    return result.reshape(shape)
