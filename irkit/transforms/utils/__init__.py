"""Rewriting helpers that several passes share, so no pass imports another.

Unlike `irkit.analysis`, these change the IR. Each pass's contract stays in
its own module; these are the pieces it builds with (MLIR's
`Dialect/Linalg/Transforms/Tiling.cpp`, `Generalization.cpp`, `Utils/`).

- `generalization`: `generalize_named_op` (a named linalg op as its
  `linalg.generic`) and `is_named_linalg_op`.
- `tiling`: `linalg-tile`'s machinery (`tile_linalg_op`, `Tile`,
  `MemrefTiling`, `tile_loop_order`, `effective_tile_sizes`, `tile_subview`,
  `offset_indices`), shared with `linalg-tile-contractions` and
  `linalg-tile-and-fuse`.
- `builders`: `index_constant`, `subview_type` (MLIR's inferred subview
  type), `strided_view`, `erase_dead_values`.
- `reshapes`: building `tensor.collapse_shape`/`expand_shape` and the
  patterns that fold them (`RESHAPE_FOLDS`, a slice moved before an expand
  among them), shared by
  `linalg-collapse-dims` and `linalg-fold-unit-extent-dims`.
- `row_groups`: `hoist_movable` and `finish_group`, moving a row group's
  neighbours around the loop that runs it.
- `padding`: `constant_padding` and `read_padded`, reading a constant
  `tensor.pad` through its source with predicated loads (an im2col gather,
  a max pool's window), shared by `linalg-conv-to-im2col` and
  `linalg-extract-windows`.
"""
