"""`gpu-promote-shared` keeps meaning: random linalg and nn programs tiled for
the GPU (small tiles, so there are partial tiles and several K steps), and
a matmul whose every tile is partial, before and after promotion; each with
blocked and with cyclic (`matmul-cyclic`: strided) thread tiles."""

from __future__ import annotations

import pytest

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.testing import (
    assert_pass_preserves_semantics,
    check_pass,
    linalg_programs,
    nn_programs,
)
from irkit.testing.strategies import lowered
from irkit.transforms.gpu_promote_shared import GpuPromoteSharedPass

PASS = GpuPromoteSharedPass()
FRONT_END = "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise"
CYCLIC = pytest.mark.parametrize("cyclic", [False, True], ids=["blocked", "cyclic"])


def tiling(cyclic: bool) -> str:
    return (
        "linalg-tile-for-gpu{matmul-block=3,4,2 matmul-thread=2,2 "
        f"elementwise-block=4 matmul-cyclic={str(cyclic).lower()}}}"
    )


@CYCLIC
def test_promoting_tiled_linalg_programs_keeps_meaning(cyclic: bool) -> None:
    programs = lowered(linalg_programs(max_ops=2), f"bufferize,{tiling(cyclic)}")
    check_pass(PASS, programs)


@CYCLIC
def test_promoting_tiled_matmuls_keeps_meaning(cyclic: bool) -> None:
    # About half of these draw matmuls with several threads per tile.
    programs = nn_programs(max_ops=2, ops={"nn.matmul"}, max_dim=6)
    check_pass(PASS, lowered(programs, f"{FRONT_END},bufferize,{tiling(cyclic)}"))


@CYCLIC
def test_promoting_partial_tiles_keeps_meaning(cyclic: bool) -> None:
    program = """
    func.func @main(%a: memref<7x5xf32>, %b: memref<5x6xf32>, %c: memref<7x6xf32> {irkit.output}) {
      %z = arith.constant 0.0 : f32
      linalg.fill ins(%z : f32) outs(%c : memref<7x6xf32>)
      linalg.matmul ins(%a, %b : memref<7x5xf32>, memref<5x6xf32>) outs(%c : memref<7x6xf32>)
      return
    }
    """
    for padding in (0, 1, 3):
        assert_pass_preserves_semantics(
            "linalg-tile-for-gpu{matmul-block=4,4,2 matmul-thread=2,3 "
            f"matmul-cyclic={str(cyclic).lower()}}},"
            f"gpu-promote-shared{{padding={padding}}}",
            program,
            trials=1,
        )


@CYCLIC
def test_copies_whose_rounds_wrap_rows_keep_meaning(cyclic: bool) -> None:
    # 2x4 threads copy a 4x16 B tile in 8 rounds: element `tid + 8 * r` is
    # row `(tid + 8 * r) floordiv 16`, column `(tid + 8 * r) mod 16`, the
    # round staying inside both divisions (the thread count is a multiple of
    # neither the row's 16 elements nor a whole tile's rows).
    program = """
    func.func @main(%a: memref<4x8xf32>, %b: memref<8x32xf32>, %c: memref<4x32xf32> {irkit.output}) {
      %z = arith.constant 0.0 : f32
      linalg.fill ins(%z : f32) outs(%c : memref<4x32xf32>)
      linalg.matmul ins(%a, %b : memref<4x8xf32>, memref<8x32xf32>) outs(%c : memref<4x32xf32>)
      return
    }
    """
    tiling = (
        "linalg-tile-for-gpu{matmul-block=2,16,4 matmul-thread=1,4 "
        f"matmul-cyclic={str(cyclic).lower()}}}"
    )
    module = parse_module(program, make_context())
    Pipeline.parse(f"{tiling},gpu-promote-shared").run(make_context(), module)
    assert "(d0 + d1 * 8) mod 16" in str(module)
    assert_pass_preserves_semantics(f"{tiling},gpu-promote-shared", program, trials=2)
