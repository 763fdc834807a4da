"""`linalg-tile` keeps meaning: random generics on memrefs vs their tiles.

Programs are in the bufferized form (`docs/abi.md`): inputs, then output
buffers marked `{irkit.output}`; an output the body reads is first filled.
Tile sizes are drawn per loop from 0 (untiled), 1, sizes that do or do not
divide the range, and sizes larger than it; some programs are tiled twice.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from irkit.testing import SemanticsMismatch, assert_pass_preserves_semantics
from irkit.transforms.linalg_tile import LinalgTilePass
from tests.testing.mutants import DropTileRemainderPass

# Loop-level interpretation costs ~70 us per iteration: keep shapes small.
MAX_DIM = 6


def _memref(shape: Sequence[int], element: str = "f32") -> str:
    return "memref<" + "".join(f"{size}x" for size in shape) + f"{element}>"


def _map(loops: int, results: Sequence[str]) -> str:
    dims = ", ".join(f"d{i}" for i in range(loops))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def _program(
    loops: int,
    kinds: Sequence[str],
    operands: Sequence[tuple[Sequence[str], Sequence[int]]],
    body: Sequence[str],
    outputs: int = 1,
    fill: bool = False,
) -> str:
    """A `@main` running one `linalg.generic`; the last `outputs` operands are outputs."""
    types = [_memref(shape) for _, shape in operands]
    names = [f"%arg{i}" for i in range(len(operands))]
    inputs = len(operands) - outputs
    signature = [f"{n}: {t}" for n, t in zip(names[:inputs], types[:inputs])]
    signature += [
        f"{n}: {t} {{irkit.output}}" for n, t in zip(names[inputs:], types[inputs:])
    ]
    maps = ", ".join(_map(loops, results) for results, _ in operands)
    iterators = ", ".join(f'"{kind}"' for kind in kinds)
    fills = "\n  ".join(
        f"linalg.fill ins(%init : f32) outs({n} : {t})"
        for n, t in zip(names[inputs:], types[inputs:])
        if fill
    )
    block_args = ", ".join(f"%x{i}: f32" for i in range(len(operands)))
    lines = "\n    ".join(body)
    return f"""
func.func @main({", ".join(signature)}) {{
  %init = arith.constant 0.5 : f32
  {fills}
  linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}}
      ins({", ".join(names[:inputs])} : {", ".join(types[:inputs])})
      outs({", ".join(names[inputs:])} : {", ".join(types[inputs:])}) {{
  ^bb0({block_args}):
    {lines}
  }}
  return
}}
"""


def matmul(m: int, n: int, k: int) -> str:
    return _program(
        3,
        ["parallel", "parallel", "reduction"],
        [(["d0", "d2"], [m, k]), (["d2", "d1"], [k, n]), (["d0", "d1"], [m, n])],
        [
            "%p = arith.mulf %x0, %x1 : f32",
            "%s = arith.addf %p, %x2 : f32",
            "linalg.yield %s : f32",
        ],
        fill=True,
    )


def elementwise(rows: int, cols: int) -> str:
    """A broadcast row bias (`(0, d1)`) and the row index through `linalg.index`."""
    return _program(
        2,
        ["parallel", "parallel"],
        [
            (["d0", "d1"], [rows, cols]),
            (["0", "d1"], [1, cols]),
            (["d0", "d1"], [rows, cols]),
        ],
        [
            "%i = linalg.index 0 : index",
            "%ii = arith.index_cast %i : index to i32",
            "%if = arith.sitofp %ii : i32 to f32",
            "%s = arith.addf %x0, %x1 : f32",
            "%t = arith.mulf %s, %if : f32",
            "%u = math.tanh %t : f32",
            "linalg.yield %u : f32",
        ],
    )


def row_reduction(rows: int, cols: int) -> str:
    """A max over rows of a transposed read: the reduction loop comes first."""
    return _program(
        2,
        ["reduction", "parallel"],
        [(["d1", "d0"], [cols, rows]), (["d1"], [cols])],
        ["%m = arith.maximumf %x0, %x1 : f32", "linalg.yield %m : f32"],
        fill=True,
    )


def tile_sizes(ranges: Sequence[int]) -> st.SearchStrategy[tuple[int, ...]]:
    """Per loop: 0, 1, or any size up to two more than the range."""
    return st.tuples(*(st.integers(0, size + 2) for size in ranges))


dims = st.integers(1, MAX_DIM)


@st.composite
def tiled_programs(draw: st.DrawFn) -> tuple[str, list[LinalgTilePass]]:
    kind = draw(st.sampled_from(["matmul", "elementwise", "reduction"]))
    if kind == "matmul":
        ranges: list[int] = [draw(dims), draw(dims), draw(dims)]
        program = matmul(*ranges)
    elif kind == "elementwise":
        ranges = [draw(dims), draw(dims)]
        program = elementwise(*ranges)
    else:
        ranges = [draw(dims), draw(dims)]
        program = row_reduction(*ranges)
    levels = draw(st.integers(1, 2))
    passes = [
        LinalgTilePass(tile_sizes=draw(tile_sizes(ranges))) for _ in range(levels)
    ]
    return program, passes


@given(tiled_programs())
def test_tiling_keeps_meaning(case: tuple[str, list[LinalgTilePass]]) -> None:
    program, passes = case
    assert_pass_preserves_semantics(passes, program, trials=1)


@given(st.tuples(dims, dims, dims), st.sampled_from(["parallel", "forall"]))
def test_forall_tiling_keeps_meaning(
    shape: tuple[int, int, int], parallel: str
) -> None:
    pass_ = LinalgTilePass(tile_sizes=(2, 3, 2), parallel=parallel)
    assert_pass_preserves_semantics(pass_, matmul(*shape), trials=1)


@pytest.mark.parametrize(
    ("program", "sizes"),
    [
        (matmul(5, 4, 3), (2, 0, 0)),
        (elementwise(3, 5), (0, 2)),
        (row_reduction(5, 2), (2, 0)),
    ],
    ids=["matmul", "elementwise", "reduction"],
)
def test_dropping_the_partial_tile_is_caught(
    program: str, sizes: tuple[int, ...]
) -> None:
    """The property above catches a tiler whose loops skip the last partial tile."""
    with pytest.raises(SemanticsMismatch):
        assert_pass_preserves_semantics(
            DropTileRemainderPass(tile_sizes=sizes), program, trials=1
        )


def test_mutant_agrees_when_sizes_divide() -> None:
    """The mutant differs only on partial tiles, so it is a sharp check."""
    assert_pass_preserves_semantics(
        DropTileRemainderPass(tile_sizes=(2, 2, 1)), matmul(4, 2, 3), trials=1
    )
