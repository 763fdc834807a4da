"""`linalg-collapse-dims` keeps meaning, bit for bit, and collapses rows as a
frontend writes them.

Hypothesis draws what torch-mlir writes for row computations over tensors of
rank 2 to 4: a reduction over the trailing dimensions (with `keepdims` or
without, summed or maxed, with a fill as its init), an elementwise op that
reads the input and the reduction broadcast back over the rows, sometimes
a second elementwise op after it, and sometimes an `expand_shape` in front
of the input or a `collapse_shape` after the result. The results must not
change at all (the collapsed loops visit elements in the same order), and
the pass must fire: the reduction ends with one row loop and one reduction
loop. The torch-mlir model corpus is checked too, on PyTorch's recorded
inputs, after generalization and fusion as the pipelines run it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irkit.dialects.linalg import GenericOp
from irkit.dtypes import loaded_array
from irkit.parsing import parse_module
from irkit.testing import assert_pass_preserves_semantics
from irkit.transforms.linalg_collapse_dims import LinalgCollapseDimsPass
from irkit.transforms.linalg_fuse_elementwise import LinalgFuseElementwisePass
from irkit.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass

MODELS = Path(__file__).resolve().parents[1] / "corpus" / "models"


def _tensor(shape: list[int]) -> str:
    return "tensor<" + "".join(f"{size}x" for size in shape) + "f32>"


def _map(loops: int, results: list[str]) -> str:
    dims = ", ".join(f"d{k}" for k in range(loops))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


@st.composite
def row_programs(draw: st.DrawFn) -> tuple[str, int, int]:
    """A `@main` of a row reduction and its elementwise neighbours, its rank
    and its number of leading row dimensions."""
    rank = draw(st.integers(2, 4))
    shape = [draw(st.integers(1, 4)) for _ in range(rank)]
    rows = draw(st.integers(1, rank - 1))  # leading row dimensions
    keepdims = draw(st.booleans())
    combiner, init = draw(
        st.sampled_from([("arith.addf", "0.0"), ("arith.maximumf", "-1.0e+30")])
    )
    loops = [f"d{k}" for k in range(rank)]
    row_loops = loops[:rows]
    reduced_shape = shape[:rows] + [1] * (rank - rows) if keepdims else shape[:rows]
    reduced_results = row_loops + ["0"] * (rank - rows) if keepdims else row_loops
    full = _tensor(shape)
    reduced = _tensor(reduced_shape)
    lines: list[str] = []
    argument = "%x"
    argument_type = full
    source = "%x"
    if rank >= 2 and draw(st.booleans()):
        # The input arrives as a reshape of a lower-rank argument.
        merged = [shape[0] * shape[1], *shape[2:]]
        argument_type = _tensor(merged)
        groups = [[0, 1]] + [[k] for k in range(2, rank)]
        lines.append(
            f"%x = tensor.expand_shape %arg {groups} output_shape {shape} "
            f": {argument_type} into {full}"
        )
        argument = "%arg"
    lines += [
        f"%init = arith.constant {init} : f32",
        f"%er = tensor.empty() : {reduced}",
        f"%fill = linalg.fill ins(%init : f32) outs(%er : {reduced}) -> {reduced}",
        f"%red = linalg.generic {{indexing_maps = [{_map(rank, loops)}, "
        f"{_map(rank, reduced_results)}], iterator_types = ["
        + ", ".join('"parallel"' if k < rows else '"reduction"' for k in range(rank))
        + f"]}} ins({source} : {full}) outs(%fill : {reduced}) {{",
        "^bb0(%in: f32, %acc: f32):",
        f"  %0 = {combiner} %in, %acc : f32",
        "  linalg.yield %0 : f32",
        f"}} -> {reduced}",
        f"%e = tensor.empty() : {full}",
        f"%y = linalg.generic {{indexing_maps = [{_map(rank, loops)}, "
        f"{_map(rank, reduced_results)}, {_map(rank, loops)}], iterator_types = ["
        + ", ".join(['"parallel"'] * rank)
        + f"]}} ins({source}, %red : {full}, {reduced}) outs(%e : {full}) {{",
        "^bb0(%in: f32, %r: f32, %out: f32):",
        "  %0 = arith.subf %in, %r : f32",
        "  linalg.yield %0 : f32",
        f"}} -> {full}",
    ]
    result, result_type = "%y", full
    if draw(st.booleans()):
        lines += [
            f"%z = linalg.generic {{indexing_maps = [{_map(rank, loops)}, "
            f"{_map(rank, loops)}], iterator_types = ["
            + ", ".join(['"parallel"'] * rank)
            + f"]}} ins(%y : {full}) outs(%e : {full}) {{",
            "^bb0(%in: f32, %out: f32):",
            "  %0 = math.tanh %in : f32",
            "  linalg.yield %0 : f32",
            f"}} -> {full}",
        ]
        result = "%z"
    if draw(st.booleans()):
        merged = [shape[0] * shape[1], *shape[2:]]
        groups = [[0, 1]] + [[k] for k in range(2, rank)]
        result_type = _tensor(merged)
        lines.append(
            f"%flat = tensor.collapse_shape {result} {groups} : {full} into {result_type}"
        )
        result = "%flat"
    body = "\n  ".join(lines)
    text = (
        f"func.func @main({argument}: {argument_type}) -> {result_type} {{\n"
        f"  {body}\n  func.return {result} : {result_type}\n}}\n"
    )
    return text, rank, rows


def _reductions(module_text_or_op: object) -> list[GenericOp]:
    module = (
        parse_module(module_text_or_op)
        if isinstance(module_text_or_op, str)
        else module_text_or_op
    )
    return [
        op
        for op in module.walk()  # type: ignore[attr-defined]
        if isinstance(op, GenericOp)
        and any(kind.data.value == "reduction" for kind in op.iterator_types)
    ]


@given(row_programs(), st.booleans())
def test_collapsing_rows_keeps_every_bit(
    program: tuple[str, int, int], generalized: bool
) -> None:
    text, _, rows = program
    passes = [LinalgCollapseDimsPass()]
    if generalized:
        passes = [LinalgGeneralizeNamedOpsPass(), *passes]
    after = assert_pass_preserves_semantics(passes, text, rtol=0.0, atol=0.0)
    # It fired: the reduction has one row loop and one reduction loop (rank 3
    # and 4 programs have two rows or two reduced dimensions to collapse).
    (reduction,) = _reductions(after)
    assert len(reduction.iterator_types) == 2, str(after)
    if generalized and rows >= 2:
        # The fill and the elementwise ops follow the rows: no generic's
        # result is reshaped (the drawn collapse merges two row dimensions).
        assert not any(
            op.name == "tensor.collapse_shape"
            and isinstance(op.operands[0].owner, GenericOp)
            for op in after.walk()
        ), str(after)


@pytest.mark.parametrize(
    "name",
    sorted(
        path.stem for path in MODELS.glob("*.mlir") if path.with_suffix(".npz").exists()
    ),
)
def test_collapsing_the_model_corpus_keeps_meaning(name: str) -> None:
    """After generalization and fusion, as `lower-to-c` and `lower-to-cuda`
    run it, on the inputs PyTorch recorded."""
    module = parse_module((MODELS / f"{name}.mlir").read_text())
    recorded = np.load(MODELS / f"{name}.npz")
    arguments = sorted(
        (key for key in recorded.files if key.startswith("arg")),
        key=lambda key: int(key.removeprefix("arg")),
    )
    inputs = [[loaded_array(recorded[key]) for key in arguments]]
    LinalgGeneralizeNamedOpsPass().apply(None, module)  # type: ignore[arg-type]
    LinalgFuseElementwisePass().apply(None, module)  # type: ignore[arg-type]
    assert_pass_preserves_semantics(LinalgCollapseDimsPass(), module, inputs=inputs)
