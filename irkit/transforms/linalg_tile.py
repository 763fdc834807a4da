"""`linalg-tile`: tile linalg ops into loops over tiles, on memrefs or tensors.

Mirrors MLIR's `linalg::tileLinalgOp` (`mlir/lib/Dialect/Linalg/Transforms/
Tiling.cpp`) for buffers and `scf::tileUsingSCF` with an `scf.forall` for
tensors: `linalg-tile{tile-sizes=8,16,0 parallel=parallel}`. The tiling
itself is `irkit.transforms.utils.tiling.tile_linalg_op`, which
`linalg-tile-contractions` and `linalg-tile-and-fuse` call too.

Contract
--------
Input: linalg ops either on memrefs, as `bufferize` leaves them
(`docs/abi.md`: memref or scalar operands, no results), or on tensors (tensor
or scalar inputs, tensor outputs, one result per output). Named ops are first
turned into their `linalg.generic` form (`linalg-generalize-named-ops`). Every
indexing map must be a projected permutation whose results may also be the
constant 0 (broadcast of a unit dimension); any other map (a convolution
window `d0 + d2`) is rejected, as is an op mixing memrefs and tensors.

Output: each linalg op becomes, in place, with `t_d` the tile size of loop
`d` (missing sizes are 0, extra ones ignored, 0 means "not tiled", and a size
at least a static dimension leaves that loop untiled since one tile covers
it):

- one `scf.parallel` (or `scf.forall` with `parallel=forall`) over the tile
  origins of the tiled parallel loops whose variable every output indexes
  alone (their tiles write disjoint elements), step `t_d`;
- inside it, one `scf.for` over the tile origins of every other tiled loop:
  such parallel loops first, then the reductions, each group in loop order;
- in the innermost body, a `memref.subview` of each operand that a tiled loop
  indexes, at offsets given by the loop variables; its size along loop `d` is
  `t_d` when `t_d` divides a static range, otherwise
  `affine.min(t_d, N_d - iv)` (dynamic ranges come from `memref.dim`); then a
  clone of the `linalg.generic` on the tiles, with the same maps, iterator
  types and body, where each `linalg.index` of a tiled loop is offset by the
  tile origin.

On tensors the same loops carry values, as MLIR's `tileUsingForall` and
`tileUsingSCF` build them (`parallel` does not apply: MLIR has no tensor form
of `scf.parallel`, so the concurrent loops are always an `scf.forall`):

- the `scf.forall` has `shared_outs(%o = %init)` for every output; its body
  takes the output tile with `tensor.extract_slice %o[...]` and its
  `scf.forall.in_parallel` puts the computed tile back with
  `tensor.parallel_insert_slice`;
- each `scf.for` carries the output tile in `iter_args`; the innermost body
  takes the part of it the loops' tiles write (`tensor.extract_slice`),
  computes it, puts it back (`tensor.insert_slice`) and `scf.yield`s it;
- every input is a `tensor.extract_slice` at the tile's offsets; the clone of
  the op works on the slices and returns tiles (dynamic sizes where the
  tile is partial); the loops' results replace the op's results.

Tiling the result again (multi-level tiling) works: the inner op's dynamic
sizes become `memref.dim`s (or `tensor.dim`s) of its tiles.

Preserves: the value of every output element. Each element receives its
updates in the original order when at most one reduction loop is tiled; with
several tiled reductions the order of floating-point accumulation changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from irkit.transforms.utils.generalization import is_named_linalg_op
from irkit.transforms.utils.tiling import PARALLEL_LOOP_KINDS, tile_linalg_op

PASS_NAME = "linalg-tile"


def tile_linalg_ops(
    module: ModuleOp, tile_sizes: Sequence[int], parallel_kind: str = "parallel"
) -> None:
    """Tile every linalg op of `module` once (the tiles themselves are not re-tiled)."""
    if parallel_kind not in PARALLEL_LOOP_KINDS:
        raise PassFailedException(
            f"{PASS_NAME}: parallel={parallel_kind!r} is not one of "
            f"{', '.join(PARALLEL_LOOP_KINDS)}"
        )
    if any(size < 0 for size in tile_sizes):
        raise PassFailedException(f"{PASS_NAME}: tile sizes must be >= 0")
    targets = [
        op
        for op in module.walk()
        if isinstance(op, GenericOp) or is_named_linalg_op(op)
    ]
    for op in targets:
        tile_linalg_op(op, tile_sizes, parallel_kind)


@dataclass(frozen=True)
class LinalgTilePass(ModulePass):
    """Tile linalg ops into parallel/sequential loops over subviews or slices."""

    name = PASS_NAME

    tile_sizes: tuple[int, ...] = ()
    parallel: str = "parallel"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        tile_linalg_ops(op, self.tile_sizes, self.parallel)
