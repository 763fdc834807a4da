"""`linalg-tile-contractions`: `linalg-tile` restricted to matmul-class ops.

`lower-to-c` tiles contractions for the caches and the registers, and leaves
elementwise ops and plain reductions, whose loops are already streaming, as
they are. `linalg-tile-contractions{tile-sizes=64,256,64}` is
`linalg-tile{tile-sizes=64,256,64}` applied only to the ops `is_contraction`
accepts; run it twice for two levels (the second run tiles the tiles).

Contract
--------
Input: linalg on memrefs (`bufferize`d), named ops already generalised
(`linalg-generalize-named-ops`); ops other than contractions are ignored, and
a contraction on tensors is rejected with a located error.

Output: every contraction is tiled exactly as `linalg-tile` tiles it (see
`irkit.transforms.linalg_tile`): `scf.parallel` over the tiles of the
parallel loops the output indexes, `scf.for` over the reduction tiles,
`memref.subview` tiles and a clone of the op on them. A contraction is a
`linalg.generic` with at least one reduction loop, one output, projected-
permutation indexing maps, and the body `out + a * b` (`arith.mulf` then
`arith.addf`, or the integer ops): matmul, batch_matmul, matvec, dot and
their transposed forms. Convolutions (window maps `d0 + d2`) are not
contractions here, since `linalg-tile` cannot tile them.

Preserves: what `linalg-tile` preserves; with one tiled reduction loop the
accumulation order of every element is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.linalg.ops import YieldOp as LinalgYieldOp
from xdsl.ir import BlockArgument, OpResult, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from irkit.diagnostics import op_error
from irkit.transforms.linalg_tile import is_tileable_map, tile_linalg_op

PASS_NAME = "linalg-tile-contractions"

_MULTIPLY_ACCUMULATE = ((arith.MulfOp, arith.AddfOp), (arith.MuliOp, arith.AddiOp))


def _is_input_argument(value: SSAValue, generic: GenericOp) -> bool:
    return isinstance(value, BlockArgument) and value.index < len(generic.inputs)


def _is_multiply_accumulate(generic: GenericOp) -> bool:
    """Whether the body is `yield(out + a * b)` with `a`, `b` input elements."""
    body = generic.body.block
    ops = list(body.ops)
    if len(ops) != 3 or not isinstance(ops[2], LinalgYieldOp):
        return False
    multiply, add, yield_op = ops
    accumulator = body.args[-1]
    for multiply_type, add_type in _MULTIPLY_ACCUMULATE:
        if not isinstance(multiply, multiply_type) or not isinstance(add, add_type):
            continue
        product = multiply.results[0]
        if set(add.operands) != {product, accumulator}:
            return False
        if not all(_is_input_argument(v, generic) for v in multiply.operands):
            return False
        (yielded,) = yield_op.operands
        return isinstance(yielded, OpResult) and yielded.op is add
    return False


def is_contraction(generic: GenericOp) -> bool:
    """A matmul-class op: reductions, one output, `out + a * b`, tileable maps."""
    return (
        len(generic.outputs) == 1
        and any(
            kind.data == IteratorType.REDUCTION for kind in generic.get_iterator_types()
        )
        and all(is_tileable_map(attr.data) for attr in generic.indexing_maps)
        and _is_multiply_accumulate(generic)
    )


def require_buffers(generic: GenericOp, pass_name: str) -> None:
    """Reject a contraction on tensors: these passes work after `bufferize`."""
    if generic.results or any(isinstance(v.type, TensorType) for v in generic.operands):
        raise op_error(
            generic, f"{pass_name} requires linalg on memrefs: run bufferize first"
        )


def tile_contractions(module: ModuleOp, tile_sizes: tuple[int, ...]) -> None:
    """Tile every contraction of `module` once with `tile_sizes`."""
    if any(size < 0 for size in tile_sizes):
        raise PassFailedException(f"{PASS_NAME}: tile sizes must be >= 0")
    targets = [
        op for op in module.walk() if isinstance(op, GenericOp) and is_contraction(op)
    ]
    for generic in targets:
        require_buffers(generic, PASS_NAME)
        tile_linalg_op(generic, tile_sizes)


@dataclass(frozen=True)
class LinalgTileContractionsPass(ModulePass):
    """`linalg-tile` for matmul-class `linalg.generic`s only."""

    name = PASS_NAME

    tile_sizes: tuple[int, ...] = ()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_contractions(op, self.tile_sizes)
