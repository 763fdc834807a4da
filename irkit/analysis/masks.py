"""Where an attention modifier masks every key: the causal bound.

torch-mlir writes a causal mask (`is_causal=True`, `torch.triu` masks,
`masked_fill` with `-inf`) into the scores' modifier as integer arithmetic
on `linalg.index` of the query loop `i` and the key loop `j`:

```mlir
^bb0(%s: f32, %out: f32):
  %x = arith.mulf %s, %scale : f32
  %i = linalg.index 2 : index
  %j = linalg.index 3 : index
  %d = arith.subi %j64, %i64 : i64            // after index_casts
  %keep = arith.cmpi sle, %d, %c0 : i64
  %drop = arith.xori (arith.andi %keep, %true), %true : i1
  %r = arith.select %drop, %minus_inf, %x : f32
  linalg.yield %r : f32
```

`masked_beyond_diagonal(modifier, query_loop, key_loop)` proves that the
modifier yields `-inf` at every `(i, j)` with `j - i > c` and returns the
least such `c` it can show (0 above: keys past the query's own), or None.
An online softmax may then skip every key step whose keys all lie past
`c` for all of a block's queries: `-inf` scores change no row max, add
`exp(-inf) = 0` to the sums and nothing to the output
(`linalg-fuse-attention`).

The proof evaluates the body on the region `j - i > t` for a threshold
`t`: integers as linear forms `a j + b i + c` (indices, casts, `addi`,
`subi`, constants, `muli` by a constant), a comparison of two forms whose
difference is `s (j - i) + c` as its value for all large enough `j - i`
(with the threshold past which it holds), booleans combined by
`andi`/`ori`/`xori` with thresholds joined by max, `select` of a known
condition, and `extf` (a half modifier widened to f32 keeps its `-inf`).
Anything else (another loop's index, unsigned comparisons, a mask read
from an operand, a float computation of the mask) gives None.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, i1
from xdsl.dialects.linalg.ops import GenericOp, IndexOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import Operation, OpResult, SSAValue


@dataclass(frozen=True)
class _Linear:
    """`key * j + query * i + offset`."""

    key: int
    query: int
    offset: int


@dataclass(frozen=True)
class _Known:
    """A value that, wherever `j - i > threshold`, is `value` (a Python
    bool, int or float)."""

    value: bool | int | float
    threshold: int


_Abstract = _Linear | _Known


# The threshold of a value that does not depend on `j - i`: it holds
# everywhere.
_EVERYWHERE = -(2**62)


def _compare(predicate: str, form: _Linear) -> _Known | None:
    """`form <predicate> 0` for all large `j - i`, and past which `j - i`
    it holds, when the form is one of `d = j - i`: `s d + o` with `s > 0` is
    positive for `d > floor(-o / s)`, with `s < 0` negative for `d >
    floor(o / -s)`. Unsigned predicates, and forms that `d` alone does not
    determine (`j + i`, `j` alone), are not read."""
    if form.key != -form.query:
        return None
    slope = form.key
    if slope == 0:
        constant = {
            "eq": form.offset == 0,
            "ne": form.offset != 0,
            "slt": form.offset < 0,
            "sle": form.offset <= 0,
            "sgt": form.offset > 0,
            "sge": form.offset >= 0,
        }.get(predicate)
        return None if constant is None else _Known(constant, _EVERYWHERE)
    positive = slope > 0
    threshold = (-form.offset if positive else form.offset) // abs(slope)
    values = {
        "eq": False,
        "ne": True,
        "slt": not positive,
        "sle": not positive,
        "sgt": positive,
        "sge": positive,
    }
    if predicate not in values:
        return None
    return _Known(values[predicate], threshold)


def _constant(value: SSAValue) -> _Known | None:
    """An `arith.constant`'s value (i1 as bool), wherever it is defined."""
    if not isinstance(value, OpResult) or not isinstance(value.op, arith.ConstantOp):
        return None
    attribute = value.op.value
    if isinstance(attribute, IntegerAttr):
        if attribute.type == i1:
            return _Known(attribute.value.data != 0, _EVERYWHERE)
        return _Known(attribute.value.data, _EVERYWHERE)
    if isinstance(attribute, FloatAttr):
        return _Known(float(attribute.value.data), _EVERYWHERE)
    return None


_Lookup = Callable[[SSAValue], "_Abstract | None"]


def _as_linear(abstract: _Abstract | None) -> _Linear | None:
    if isinstance(abstract, _Linear):
        return abstract
    if (
        isinstance(abstract, _Known)
        and isinstance(abstract.value, int)
        and not isinstance(abstract.value, bool)
        and abstract.threshold == _EVERYWHERE
    ):
        return _Linear(0, 0, abstract.value)
    return None


def _integer(op: Operation, of: _Lookup) -> _Abstract | None:
    """Casts, `addi`, `subi`, `muli` by a constant, signed `cmpi`."""
    if isinstance(op, (arith.IndexCastOp, arith.ExtSIOp)):
        return of(op.operands[0])
    if not isinstance(op, (arith.AddiOp, arith.SubiOp, arith.MuliOp, arith.CmpiOp)):
        return None
    left, right = _as_linear(of(op.lhs)), _as_linear(of(op.rhs))
    if left is None or right is None:
        return None
    if isinstance(op, arith.MuliOp):
        if (left.key, left.query) != (0, 0):
            left, right = right, left
        if (left.key, left.query) != (0, 0):
            return None  # a product of two indices: not linear
        factor = left.offset
        return _Linear(right.key * factor, right.query * factor, right.offset * factor)
    sign = 1 if isinstance(op, arith.AddiOp) else -1
    form = _Linear(
        left.key + sign * right.key,
        left.query + sign * right.query,
        left.offset + sign * right.offset,
    )
    if isinstance(op, arith.CmpiOp):
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        return _compare(predicate, form)
    return form


def _boolean(op: Operation, of: _Lookup) -> _Abstract | None:
    """`andi`, `ori`, `xori` of known booleans; `select` of a known one."""
    if isinstance(op, arith.SelectOp):
        condition = of(op.cond)
        if not isinstance(condition, _Known) or not isinstance(condition.value, bool):
            return None
        chosen = of(op.lhs if condition.value else op.rhs)
        if not isinstance(chosen, _Known):
            return None
        return _Known(chosen.value, max(condition.threshold, chosen.threshold))
    if not isinstance(op, (arith.AndIOp, arith.OrIOp, arith.XOrIOp)):
        return None
    left, right = of(op.lhs), of(op.rhs)
    if not (
        isinstance(left, _Known)
        and isinstance(right, _Known)
        and isinstance(left.value, bool)
        and isinstance(right.value, bool)
    ):
        return None
    if isinstance(op, arith.AndIOp):
        value = left.value and right.value
    elif isinstance(op, arith.OrIOp):
        value = left.value or right.value
    else:
        value = left.value != right.value
    return _Known(value, max(left.threshold, right.threshold))


def masked_beyond_diagonal(
    modifier: GenericOp, query_loop: int, key_loop: int
) -> int | None:
    """The least `c` such that `modifier` yields `-inf` wherever
    `j - i > c` (`i` the `query_loop`'s index, `j` the `key_loop`'s), or
    None when the body does not show one (see the module doc)."""
    values: dict[SSAValue, _Abstract] = {}

    def of(value: SSAValue) -> _Abstract | None:
        # Constants defined outside the body are captured by it.
        return values[value] if value in values else _constant(value)

    for op in modifier.body.block.ops:
        if isinstance(op, LinalgYieldOp):
            yielded = of(op.operands[0]) if len(op.operands) == 1 else None
            if (
                isinstance(yielded, _Known)
                and yielded.value == float("-inf")
                and yielded.threshold > _EVERYWHERE
            ):
                return yielded.threshold
            return None
        result: _Abstract | None
        if isinstance(op, IndexOp):
            dim = op.dim.value.data
            result = (
                _Linear(1, 0, 0)
                if dim == key_loop
                else _Linear(0, 1, 0)
                if dim == query_loop
                else None
            )
        elif isinstance(op, arith.ConstantOp):
            result = _constant(op.result)
        elif isinstance(op, arith.ExtFOp):
            # Widening keeps every value (a half `-inf` stays `-inf`).
            result = of(op.input)
        else:
            result = _integer(op, of) or _boolean(op, of)
        if result is not None:
            values[op.results[0]] = result
    return None
