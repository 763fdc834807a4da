"""Index values of a GPU kernel: which are the same, and their linear forms.

Inside a `gpu.launch` body, passes compare index computations across
threads and loops (`gpu-promote-accumulators`, `gpu-relayout-shared`):

- `KernelIndices.key(value)`: a key naming `value` up to recomputation: a
  thread id, block id, block or grid size is `("thread", "x")` and so on
  (whether an op or a launch argument gives it), a pure op over keyed
  operands is `("op", name, attributes, operand keys, result index)`, and
  any other value (a loop counter, a load) is itself;
- `KernelIndices.linear(value)`: `value` as a `Linear` form `constant +
  sum(coefficient * key)`, through `arith.addi/subi/muli` and single-result
  `affine.apply` (products of two non-constants, `floordiv`, `mod` and
  `ceildiv` stay one opaque key);
- `KernelIndices.thread_dependent(key)`: whether a key's value may differ
  between the threads of a block;
- `KernelIndices.launch_argument(key)`, `block_size`: the launch's own
  values for id and size keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.scf import ForOp
from xdsl.ir import BlockArgument, Operation, OpResult, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineSymExpr,
)
from xdsl.traits import is_side_effect_free

from irkit.dialects import affine, gpu
from irkit.dialects.static_values import constant_int

# A key names an index value up to recomputation: the same thread id, block
# id or pure computation of them has one key wherever it is computed.
Key = object

_ID_OPS: dict[str, str] = {
    "gpu.thread_id": "thread",
    "gpu.block_id": "block",
    "gpu.block_dim": "block_dim",
    "gpu.grid_dim": "grid_dim",
}
# The launch body's first twelve arguments, in order: ids and sizes, each
# for x, y and z.
_LAUNCH_ARGUMENTS = ("block", "thread", "grid_dim", "block_dim")
# GPU dimensions, in the order of the launch arguments.
DIMENSIONS = ("x", "y", "z")


@dataclass
class Linear:
    """`constant + sum(coefficient * value)` over keys of index values."""

    terms: dict[Key, int] = field(default_factory=dict)
    constant: int = 0

    def plus(self, other: Linear, scale: int = 1) -> Linear:
        terms = dict(self.terms)
        for key, coefficient in other.terms.items():
            terms[key] = terms.get(key, 0) + scale * coefficient
        constant = self.constant + scale * other.constant
        return Linear({k: c for k, c in terms.items() if c}, constant)

    def scaled(self, factor: int) -> Linear:
        return Linear({}, 0).plus(self, factor)


def defined_inside(value: SSAValue, ancestor: Operation) -> bool:
    """Whether `value` is computed in `ancestor` (a block argument of one of
    its blocks included)."""
    return ancestor.is_ancestor(value.owner)


class KernelIndices:
    """Keys and linear forms of the index values of one `gpu.launch` body."""

    def __init__(self, launch: gpu.LaunchOp) -> None:
        self.launch = launch
        self._keys: dict[SSAValue, Key] = {}
        # A value of each computed key, whose op can be cloned to recompute it.
        self.examples: dict[Key, OpResult] = {}

    @property
    def block_size(self) -> dict[str, int | None]:
        """The launch's block size per dimension ("x", "y", "z"), None where
        it is not a constant."""
        sizes = [constant_int(v) for v in self.launch.block_size]
        return dict(zip(DIMENSIONS, sizes, strict=True))

    def launch_argument(self, key: Key) -> BlockArgument | None:
        """The launch body's argument that holds `key`, for a thread id,
        block id, block or grid size; None for other keys."""
        if not (isinstance(key, tuple) and key and key[0] in _LAUNCH_ARGUMENTS):
            return None
        kind, dimension = key
        position = _LAUNCH_ARGUMENTS.index(kind) * 3 + DIMENSIONS.index(dimension)
        return self.launch.entry_block.args[position]

    def key(self, value: SSAValue) -> Key:
        """`value`'s key (see the module doc), computed once per value."""
        if value not in self._keys:
            self._keys[value] = self._compute_key(value)
        return self._keys[value]

    def _compute_key(self, value: SSAValue) -> Key:
        if isinstance(value, BlockArgument):
            if value.block is self.launch.entry_block and value.index < 12:
                kind = _LAUNCH_ARGUMENTS[value.index // 3]
                return (kind, DIMENSIONS[value.index % 3])
            return value
        assert isinstance(value, OpResult)
        op = value.op
        if op.name in _ID_OPS:
            assert isinstance(op, gpu.ThreadIdOp | gpu.BlockIdOp | gpu.BlockDimOp)
            return (_ID_OPS[op.name], op.dimension)
        if op.regions or not is_side_effect_free(op):
            return value
        attributes = tuple(
            sorted((k, str(v)) for k, v in (op.properties | op.attributes).items())
        )
        operands = tuple(self.key(operand) for operand in op.operands)
        key = ("op", op.name, attributes, operands, value.index)
        self.examples.setdefault(key, value)
        return key

    def thread_dependent(self, key: Key) -> bool:
        """Whether the value of `key` may differ between threads of a block."""
        if isinstance(key, tuple):
            if key and key[0] == "thread":
                return True
            if key and key[0] == "op":
                return any(self.thread_dependent(k) for k in key[3])
            return False
        assert isinstance(key, SSAValue)
        if isinstance(key, BlockArgument) and isinstance(key.block.parent_op(), ForOp):
            # A counter of a loop whose bounds every thread shares counts alike
            # in every thread (a barrier inside it sees every thread at the same
            # iteration; without one, two threads at different iterations
            # touching one element would race in the program as given).
            loop = key.block.parent_op()
            assert isinstance(loop, ForOp)
            if key.index == 0:
                bounds = (loop.lb, loop.ub, loop.step)
                return any(self.thread_dependent(self.key(b)) for b in bounds)
        # Other block arguments and results of ops with effects inside the
        # kernel (loads) may hold anything; values from outside are the same in
        # every thread.
        return defined_inside(key, self.launch)

    def linear(self, value: SSAValue) -> Linear:
        """`value` as a linear form over keys (see the module doc)."""
        constant = constant_int(value)
        if constant is not None:
            return Linear({}, constant)
        if isinstance(value, OpResult):
            op = value.op
            if isinstance(op, arith.AddiOp | arith.SubiOp):
                lhs, rhs = (self.linear(operand) for operand in op.operands)
                return lhs.plus(rhs, 1 if isinstance(op, arith.AddiOp) else -1)
            if isinstance(op, arith.MuliOp):
                lhs, rhs = (self.linear(operand) for operand in op.operands)
                if not rhs.terms:
                    return lhs.scaled(rhs.constant)
                if not lhs.terms:
                    return rhs.scaled(lhs.constant)
            if isinstance(op, affine.ApplyOp):
                affine_map = op.map.data
                if len(affine_map.results) == 1:
                    operands = [self.linear(operand) for operand in op.operands]
                    result = self._affine(
                        affine_map.results[0], operands, affine_map.num_dims
                    )
                    if result is not None:
                        return result
        return Linear({self.key(value): 1})

    def _affine(
        self, expr: AffineExpr, operands: list[Linear], dims: int
    ) -> Linear | None:
        if isinstance(expr, AffineConstantExpr):
            return Linear({}, expr.value)
        if isinstance(expr, AffineDimExpr):
            return operands[expr.position]
        if isinstance(expr, AffineSymExpr):
            return operands[dims + expr.position]
        assert isinstance(expr, AffineBinaryOpExpr)
        lhs = self._affine(expr.lhs, operands, dims)
        rhs = self._affine(expr.rhs, operands, dims)
        if lhs is None or rhs is None:
            return None
        if expr.kind == AffineBinaryOpKind.Add:
            return lhs.plus(rhs)
        if expr.kind == AffineBinaryOpKind.Mul:
            if not rhs.terms:
                return lhs.scaled(rhs.constant)
            if not lhs.terms:
                return rhs.scaled(lhs.constant)
        return None  # floordiv, mod, ceildiv: the value stays one opaque key
