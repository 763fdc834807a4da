"""`fold-memref-alias-ops` keeps meaning: tiled linalg programs lowered to
loops over subviews (one or two tiling levels, sizes that do and do not
divide), and loops through reshapes, before and after folding."""

from __future__ import annotations

import itertools

from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.testing import assert_pass_preserves_semantics, check_pass, linalg_programs
from irkit.testing.strategies import lowered
from irkit.transforms.fold_memref_alias_ops import FoldMemrefAliasOpsPass

PASS = FoldMemrefAliasOpsPass()

tile_sizes = st.lists(st.integers(0, 5), min_size=3, max_size=3)


def _tiled(sizes: list[int], inner: list[int]) -> st.SearchStrategy[ModuleOp]:
    first = f"linalg-tile{{tile-sizes={','.join(map(str, sizes))}}}"
    second = f"linalg-tile{{tile-sizes={','.join(map(str, inner))}}}"
    return lowered(
        linalg_programs(max_ops=2),
        f"bufferize,{first},{second},convert-linalg-to-loops",
    )


def test_folding_tiled_programs_keeps_meaning() -> None:
    check_pass(PASS, st.tuples(tile_sizes, tile_sizes).flatmap(lambda s: _tiled(*s)))


def _reshape_program(rows: int, cols: int) -> str:
    """Every element through an expand_shape, a collapse_shape and a strided subview."""
    half = cols // 2
    return f"""
func.func @main(%v: memref<{rows * cols}xf32>, %o: memref<{rows}x{cols}xf32> {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = arith.constant {rows} : index
  %c = arith.constant {cols} : index
  %n = arith.constant {rows * cols} : index
  %half = arith.constant {half} : index
  %e = memref.expand_shape %v [[0, 1]] output_shape [{rows}, {cols}] : memref<{rows * cols}xf32> into memref<{rows}x{cols}xf32>
  %f = memref.collapse_shape %o [[0, 1]] : memref<{rows}x{cols}xf32> into memref<{rows * cols}xf32>
  scf.for %k = %c0 to %n step %c1 {{
    %i = arith.divui %k, %c : index
    %j = arith.remui %k, %c : index
    %x = memref.load %e[%i, %j] : memref<{rows}x{cols}xf32>
    memref.store %x, %f[%k] : memref<{rows * cols}xf32>
  }}
  %s = memref.subview %o[0, 1] [{rows}, {half}] [1, 2] : memref<{rows}x{cols}xf32> to memref<{rows}x{half}xf32, strided<[{cols}, 2], offset: 1>>
  scf.for %i = %c0 to %r step %c1 {{
    scf.for %j = %c0 to %half step %c1 {{
      %y = memref.load %s[%i, %j] : memref<{rows}x{half}xf32, strided<[{cols}, 2], offset: 1>>
      %z = arith.negf %y : f32
      memref.store %z, %s[%i, %j] : memref<{rows}x{half}xf32, strided<[{cols}, 2], offset: 1>>
    }}
  }}
  return
}}
"""


def test_folding_reshapes_keeps_meaning() -> None:
    for rows, cols in itertools.product([1, 2, 3], [2, 3, 5]):
        assert_pass_preserves_semantics(PASS, _reshape_program(rows, cols), trials=1)
