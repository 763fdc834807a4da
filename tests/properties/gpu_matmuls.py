"""Matmul programs for the property tests of the GPU passes after
`convert-parallel-loops-to-gpu`: the program text, a strategy over shapes and
epilogues, and the pipeline up to a given stage."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module

FRONT_END = (
    "convert-nn-to-linalg,linalg-generalize-named-ops,linalg-fuse-elementwise,bufferize"
)
TO_LAUNCHES = (
    "gpu-promote-shared,convert-linalg-to-loops,fold-memref-alias-ops,"
    "convert-parallel-loops-to-gpu"
)


def up_to(tiling: str, *after: str) -> str:
    """The pipeline from `nn` through `linalg-tile-for-gpu{tiling}` to
    `gpu.launch`es, then the stages `after`."""
    stages = [FRONT_END, f"linalg-tile-for-gpu{{{tiling}}}", TO_LAUNCHES, *after]
    return ",".join(stages)


def matmul_text(m: int, n: int, k: int, epilogue: str | None) -> str:
    """`@main(a: m x k, b: k x n, bias: m x n)`: `a @ b`, then maybe `+ bias`
    (`"add"`) or `relu` (`"relu"`)."""
    a, b, c = (f"tensor<{x}x{y}xf32>" for x, y in ((m, k), (k, n), (m, n)))
    lines = [
        f"func.func @main(%a: {a}, %b: {b}, %bias: {c}) -> {c} {{",
        f"  %c = nn.matmul %a, %b : {a}, {b} -> {c}",
    ]
    result = "%c"
    if epilogue == "add":
        lines.append(f"  %d = nn.add %c, %bias : {c}, {c} -> {c}")
        result = "%d"
    elif epilogue == "relu":
        lines.append(f"  %d = nn.relu %c : {c}")
        result = "%d"
    lines += [f"  return {result} : {c}", "}"]
    return "\n".join(lines)


def matmul_module(m: int, n: int, k: int, epilogue: str | None = None) -> ModuleOp:
    return parse_module(matmul_text(m, n, k, epilogue), make_context())


def matmul_programs(
    ms: Sequence[int], ns: Sequence[int], ks: Sequence[int]
) -> st.SearchStrategy[ModuleOp]:
    """Matmuls of the given extents, each with no epilogue, a bias or a relu."""
    return st.builds(
        matmul_module,
        st.sampled_from(ms),
        st.sampled_from(ns),
        st.sampled_from(ks),
        st.sampled_from([None, "add", "relu"]),
    )
