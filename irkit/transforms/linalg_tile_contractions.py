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
`irkit.transforms.linalg_tile`; both call `irkit.transforms.utils.tiling`):
`scf.parallel` over the tiles of the parallel loops the output indexes,
`scf.for` over the reduction tiles, `memref.subview` tiles and a clone of
the op on them. A contraction (`irkit.analysis.structured.is_contraction`) is a
`linalg.generic` with at least one reduction loop, one output, projected-
permutation indexing maps, and the body `out + a * b` (`arith.mulf` then
`arith.addf`, or the integer ops): matmul, batch_matmul, matvec, dot and
their transposed forms. Convolutions (window maps `d0 + d2`) are not
contractions here, since `linalg-tile` cannot tile them.

A contraction marked `irkit.register_tile` (`linalg-pack-operands`'
micro-kernels, sized for the registers) is left whole.

Preserves: what `linalg-tile` preserves; with one tiled reduction loop the
accumulation order of every element is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from irkit.analysis.structured import (
    is_contraction,
    is_register_tile,
    require_buffers,
)
from irkit.transforms.utils.tiling import tile_linalg_op

PASS_NAME = "linalg-tile-contractions"


def tile_contractions(module: ModuleOp, tile_sizes: tuple[int, ...]) -> None:
    """Tile every contraction of `module` once with `tile_sizes`."""
    if any(size < 0 for size in tile_sizes):
        raise PassFailedException(f"{PASS_NAME}: tile sizes must be >= 0")
    targets = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp) and is_contraction(op) and not is_register_tile(op)
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
