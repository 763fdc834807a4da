"""Affine expressions of loop indices as `arith` ops on `index`.

`AffineIndexEmitter` turns an indexing map's results into index values:
`convert-linalg-to-loops` indexes loads and stores with it, and
`linalg-extract-windows` computes a window's positions from `linalg.index`
values with it. Constants fold (`d0 * 1 + 0` is `d0`); each distinct
expression is computed once per emitter.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

# An index value under construction: a folded constant or an SSA value.
_IndexTerm = int | SSAValue


def _fold(kind: AffineBinaryOpKind, lhs: int, rhs: int) -> int:
    match kind:
        case AffineBinaryOpKind.Add:
            return lhs + rhs
        case AffineBinaryOpKind.Mul:
            return lhs * rhs
        case AffineBinaryOpKind.FloorDiv:
            return lhs // rhs
        case AffineBinaryOpKind.CeilDiv:
            return -(-lhs // rhs)
        case AffineBinaryOpKind.Mod:
            return lhs % rhs  # Python's % is affine's: non-negative for rhs > 0


class AffineIndexEmitter:
    """Emits affine expressions over loop variables as `arith` ops on `index`.

    Constants are folded (`d0 * 1 + 0` is `d0`); each distinct expression is
    computed once per emitter. `mod` becomes `a - floordiv(a, c) * c`, so only
    `addi`, `subi`, `muli`, `floordivsi` and `ceildivsi` appear.

    `constant(value)` gives an `index` constant (the caller places it);
    `emit(op)` inserts each op the expressions need, in order.
    """

    def __init__(
        self,
        loop_values: Sequence[SSAValue],
        constant: Callable[[int], SSAValue],
        emit: Callable[[Operation], None],
    ) -> None:
        self._loop_values = loop_values
        self._constant = constant
        self._emit = emit
        self._memo: dict[AffineExpr, _IndexTerm] = {}

    def indices(self, indexing_map: AffineMap) -> list[SSAValue]:
        return [self.value(expr) for expr in indexing_map.results]

    def value(self, expr: AffineExpr) -> SSAValue:
        term = self._term(expr)
        return self._constant(term) if isinstance(term, int) else term

    def _term(self, expr: AffineExpr) -> _IndexTerm:
        if expr in self._memo:
            return self._memo[expr]
        term: _IndexTerm
        if isinstance(expr, AffineDimExpr):
            term = self._loop_values[expr.position]
        elif isinstance(expr, AffineConstantExpr):
            term = expr.value
        elif isinstance(expr, AffineBinaryOpExpr):
            term = self._binary(expr.kind, self._term(expr.lhs), self._term(expr.rhs))
        else:  # symbols: linalg indexing maps have none
            raise ValueError(f"unsupported affine expression {expr}")
        self._memo[expr] = term
        return term

    def _binary(
        self, kind: AffineBinaryOpKind, lhs: _IndexTerm, rhs: _IndexTerm
    ) -> _IndexTerm:
        if isinstance(lhs, int) and isinstance(rhs, int):
            return _fold(kind, lhs, rhs)
        match kind:
            case AffineBinaryOpKind.Add:
                if lhs == 0 or rhs == 0:
                    return rhs if lhs == 0 else lhs
                return self._op(arith.AddiOp, lhs, rhs)
            case AffineBinaryOpKind.Mul:
                if lhs == 0 or rhs == 0:
                    return 0
                if lhs == 1 or rhs == 1:
                    return rhs if lhs == 1 else lhs
                return self._op(arith.MuliOp, lhs, rhs)
            case AffineBinaryOpKind.FloorDiv | AffineBinaryOpKind.CeilDiv if rhs == 1:
                return lhs
            case AffineBinaryOpKind.FloorDiv:
                return self._op(arith.FloorDivSIOp, lhs, rhs)
            case AffineBinaryOpKind.CeilDiv:
                return self._op(arith.CeilDivSIOp, lhs, rhs)
            case AffineBinaryOpKind.Mod:
                if rhs == 1:
                    return 0
                quotient = self._op(arith.FloorDivSIOp, lhs, rhs)
                return self._op(
                    arith.SubiOp, lhs, self._op(arith.MuliOp, quotient, rhs)
                )

    def _op(
        self,
        cls: type[arith.SignlessIntegerBinaryOperation],
        lhs: _IndexTerm,
        rhs: _IndexTerm,
    ) -> SSAValue:
        lhs_value = self._constant(lhs) if isinstance(lhs, int) else lhs
        rhs_value = self._constant(rhs) if isinstance(rhs, int) else rhs
        op = cls(lhs_value, rhs_value)
        self._emit(op)
        return op.result
