"""irkit's analyses: what passes ask of the IR, each answered once.

Analyses read IR and never change it; passes (`irkit.transforms`) import
them, and a pass never imports another pass. Layering: `irkit.dialects` <
`irkit.analysis` < `irkit.transforms`. The integer an `arith.constant` holds
(`constant_int`, MLIR's `getConstantIntValue`) lives below them all, in
`irkit.dialects.static_values`, since the `scf` dialect's verifier asks it
too.

- `ranges`: the integer range analysis: `value_range` (an `Interval` through
  loop bounds, affine and `arith` index math, `memref.dim`), `upper_bound`
  (its `hi`, for sizing grids and buffers), `expr_range` (an affine
  expression over operand intervals).
- `structured`: linalg ops as loops: `StructuredComputation`,
  `parallel_loop_dims`, `is_tileable_map`, `is_contraction`,
  `loop_dimensions` / `operand_loop_ranges`, `is_on_tensors`,
  `require_buffers`.
- `aliasing`: `root_buffer` (the buffer a view is of), `has_known_root`,
  `may_alias`.
- `memory`: `element_bytes`, `memref_strides`, and the shared-memory and
  stack budgets (`DEFAULT_MAX_SHARED_BYTES`, `MAX_STACK_BYTES`).
- `row_groups`: runs of linalg ops a row at a time can compute
  (`row_groups`, `private_buffers`), for `linalg-tile-rows` and
  `linalg-tile-rows-for-gpu`.
- `contraction_fusion`: a contraction's fill (`fusable_prologue`) and
  elementwise epilogue (`fusable_epilogue`) that can run in its thread
  tiles, for `linalg-tile-for-gpu`.
- `gpu_mapping`: `scf.forall`s mapped to GPU blocks or threads
  (`is_block_forall`, `is_thread_forall`, `in_gpu_loops`).
- `kernel_indices`: index values of a `gpu.launch` body: `KernelIndices`
  (keys up to recomputation, `Linear` forms, thread dependence).
"""
