"""Comparing results with tolerances chosen per dtype.

Floats are compared with `|a - b| <= atol + rtol * |b|` (NaN equal to NaN,
infinities equal only to themselves); integers and booleans exactly. The
defaults allow for reassociated f32 sums (tiling, fusion) but not for a wrong
operand or a dropped element. Each half type gets about ten units in the last
place of its own precision: f16 keeps 11 significant bits, bf16 8 (its unit
in the last place at 1 is 2**-7 ~ 0.008), so bf16's bounds are the wider.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from irkit.dtypes import is_float_dtype

# dtype name -> (rtol, atol)
TOLERANCES: dict[str, tuple[float, float]] = {
    "float16": (1e-2, 1e-3),
    "bfloat16": (6e-2, 1e-2),
    "float32": (1e-4, 1e-5),
    "float64": (1e-10, 1e-12),
}


# (rtol, atol) of f32 matmuls run on TF32 tensor cores (`allow-tf32`): each
# operand keeps 11 significant bits, as f16 does, so rtol is f16's; the
# products' rounding errors add up over the reduction, and atol covers sums
# that cancel (operands in [-1, 1), a few hundred products: the errors'
# spread is near 1e-3), not a wrong operand (an error of order 1).
TF32_TOLERANCE: tuple[float, float] = (1e-2, 1e-2)


def tolerance(dtype: np.dtype) -> tuple[float, float]:
    """(rtol, atol) for results of `dtype`; exact for integers and booleans."""
    return TOLERANCES.get(np.dtype(dtype).name, (0.0, 0.0))


@dataclass(frozen=True)
class Difference:
    """How two arrays differ: the figures a failure message needs."""

    max_abs_error: float
    max_rel_error: float
    worst_index: tuple[int, ...]
    expected_value: object
    actual_value: object
    mismatched: int
    total: int
    reason: str = ""

    def describe(self) -> str:
        if self.reason:
            return self.reason
        return (
            f"{self.mismatched}/{self.total} elements differ; max abs error "
            f"{self.max_abs_error:.3g}, max rel error {self.max_rel_error:.3g}, "
            f"worst at index {list(self.worst_index)}: expected "
            f"{self.expected_value!r}, got {self.actual_value!r}"
        )


def compare_arrays(
    expected: np.ndarray,
    actual: np.ndarray,
    *,
    rtol: float | None = None,
    atol: float | None = None,
) -> Difference | None:
    """None when `actual` matches `expected`, else how they differ."""
    expected = np.asarray(expected)
    actual = np.asarray(actual)
    if expected.shape != actual.shape or expected.dtype != actual.dtype:
        return Difference(
            0.0,
            0.0,
            (),
            None,
            None,
            expected.size,
            expected.size,
            reason=f"expected {expected.dtype}{list(expected.shape)}, got "
            f"{actual.dtype}{list(actual.shape)}",
        )
    default_rtol, default_atol = tolerance(expected.dtype)
    rtol = default_rtol if rtol is None else rtol
    atol = default_atol if atol is None else atol
    if is_float_dtype(expected.dtype):
        e = expected.astype(np.float64)
        a = actual.astype(np.float64)
        both_nan = np.isnan(e) & np.isnan(a)
        same_inf = np.isinf(e) & (e == a)
        with np.errstate(invalid="ignore"):
            abs_error = np.where(both_nan | same_inf, 0.0, np.abs(e - a))
        abs_error = np.where(np.isnan(abs_error), np.inf, abs_error)
        bad = abs_error > atol + rtol * np.abs(np.nan_to_num(e))
        rel_error = abs_error / np.maximum(
            np.abs(np.nan_to_num(e)), np.finfo(np.float64).tiny
        )
    else:
        bad = expected != actual
        abs_error = np.where(bad, 1.0, 0.0)
        rel_error = abs_error
    if not bad.any():
        return None
    score = np.where(bad, abs_error, -1.0)
    worst = (
        np.unravel_index(int(np.argmax(score)), expected.shape)
        if expected.shape
        else ()
    )
    worst_index = tuple(int(i) for i in worst)
    return Difference(
        float(abs_error[bad].max()),
        float(rel_error[bad].max()),
        worst_index,
        expected[worst_index].item(),
        actual[worst_index].item(),
        int(bad.sum()),
        int(expected.size),
    )
