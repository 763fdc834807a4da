"""`linalg-fuse-elementwise` keeps meaning and fuses what it may.

Hypothesis draws DAGs of `linalg.generic` ops over one iteration space: each
op iterates over the canonical loops in a random order, reads earlier values
through the (projected) permutation maps that order implies, writes through a
random permutation, and is either elementwise or a reduction; bodies are
random `arith`/`math` ops, sometimes with `linalg.index` or a constant from
outside the body. Results are compared before and after the pass, and the
output is checked to be a fixpoint: no fusable pair is left. Linear chains
must fuse into one op. The torch-mlir corpus is checked after generalization
and fusion, each on its own, on PyTorch's recorded inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from irkit.context import make_context
from irkit.dialects.linalg import GenericOp
from irkit.parsing import parse_module
from irkit.testing import assert_pass_preserves_semantics, check_pass, nn_programs
from irkit.testing.strategies import lowered
from irkit.transforms.linalg_fuse_elementwise import (
    LinalgFuseElementwisePass,
    fusable_producer,
)
from irkit.transforms.linalg_generalize_named_ops import LinalgGeneralizeNamedOpsPass

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "torch_mlir"
CORPUS_CASES = sorted(
    path.stem for path in CORPUS.glob("*.mlir") if path.with_suffix(".npz").exists()
)

_UNARY = ["math.tanh", "math.absf", "arith.negf", "math.erf", "math.exp"]
_BINARY = ["arith.addf", "arith.subf", "arith.mulf", "arith.maximumf", "arith.minimumf"]


@dataclass(frozen=True)
class _Value:
    """An SSA tensor whose dimension k is canonical loop `dims[k]`."""

    name: str
    dims: tuple[int, ...]


@dataclass
class _Program:
    sizes: list[int]
    args: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    values: list[_Value] = field(default_factory=list)
    results: list[_Value] = field(default_factory=list)

    def tensor(self, dims: Sequence[int]) -> str:
        return "tensor<" + "".join(f"{self.sizes[d]}x" for d in dims) + "f32>"

    def new_arg(self, dims: Sequence[int]) -> _Value:
        value = _Value(f"%arg{len(self.args)}", tuple(dims))
        self.args.append(f"{value.name}: {self.tensor(dims)}")
        self.values.append(value)
        return value

    def text(self) -> str:
        returned = self.results or self.values[-1:]
        types = ", ".join(self.tensor(v.dims) for v in returned)
        names = ", ".join(v.name for v in returned)
        body = "\n  ".join(self.lines)
        return (
            f"func.func @main({', '.join(self.args)}) -> ({types}) {{\n"
            f"  %c = arith.constant 0.5 : f32\n  {body}\n"
            f"  return {names} : {types}\n}}\n"
        )


def _map(loop_of: dict[int, int], dims: Sequence[int]) -> str:
    loops = ", ".join(f"d{k}" for k in range(len(loop_of)))
    results = ", ".join(f"d{loop_of[d]}" for d in dims)
    return f"affine_map<({loops}) -> ({results})>"


@st.composite
def _body(draw: st.DrawFn, inputs: int, loops: int, reduce: bool) -> list[str]:
    """Body lines over %in0.. and %acc, ending in a yield."""
    values = [f"%in{i}" for i in range(inputs)]
    lines: list[str] = []
    if draw(st.booleans()):
        loop = draw(st.integers(0, loops - 1))
        lines += [
            f"%i = linalg.index {loop} : index",
            "%ii = arith.index_cast %i : index to i64",
            "%if = arith.sitofp %ii : i64 to f32",
        ]
        values.append("%if")
    if draw(st.booleans()):
        values.append("%c")  # defined above the op
    for step in range(draw(st.integers(1, 3))):
        name = f"%t{step}"
        if draw(st.booleans()):
            op = draw(st.sampled_from(_BINARY))
            lhs, rhs = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            lines.append(f"{name} = {op} {lhs}, {rhs} : f32")
        else:
            op = draw(st.sampled_from(_UNARY))
            operand = draw(st.sampled_from(values))
            if op == "math.exp":  # bounded argument: no overflow
                lines.append(f"{name}_g = math.tanh {operand} : f32")
                operand = f"{name}_g"
            lines.append(f"{name} = {op} {operand} : f32")
        values.append(name)
    result = values[-1]
    if reduce:
        combiner = draw(st.sampled_from(["arith.addf", "arith.maximumf"]))
        lines.append(f"%r = {combiner} {result}, %acc : f32")
        result = "%r"
    return [*lines, f"linalg.yield {result} : f32"]


def _add_generic(
    draw: st.DrawFn, program: _Program, operands: list[_Value], reduced: set[int]
) -> _Value:
    rank = len(program.sizes)
    loop_order: list[int] = draw(st.permutations(range(rank)))  # loop k = dim
    loop_of = {dim: loop for loop, dim in enumerate(loop_order)}
    kept = [d for d in range(rank) if d not in reduced]
    out_dims: list[int] = draw(st.permutations(kept))
    index = len(program.lines)
    result = _Value(f"%v{index}", tuple(out_dims))
    out_type = program.tensor(out_dims)
    if reduced:
        init = program.new_arg(out_dims).name  # the accumulator's start
        program.values.pop()
    else:
        init = f"%e{index}"
        program.lines.append(f"{init} = tensor.empty() : {out_type}")
    maps = [_map(loop_of, v.dims) for v in operands] + [_map(loop_of, out_dims)]
    iterators = ", ".join(
        '"reduction"' if loop_order[k] in reduced else '"parallel"' for k in range(rank)
    )
    body = draw(_body(len(operands), rank, bool(reduced)))
    block_args = [f"%in{i}: f32" for i in range(len(operands))] + ["%acc: f32"]
    program.lines.append(
        f"{result.name} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
        f"iterator_types = [{iterators}]}} "
        f"ins({', '.join(v.name for v in operands)} : "
        f"{', '.join(program.tensor(v.dims) for v in operands)}) "
        f"outs({init} : {out_type}) {{\n"
        f"  ^bb0({', '.join(block_args)}):\n    " + "\n    ".join(body) + "\n"
        f"  }} -> {out_type}"
    )
    program.values.append(result)
    return result


@st.composite
def generic_dags(draw: st.DrawFn) -> str:
    """A `@main` computing a random DAG of elementwise and reduction generics."""
    rank = draw(st.integers(1, 3))
    program = _Program([draw(st.integers(1, 4)) for _ in range(rank)])
    program.new_arg(draw(st.permutations(range(rank))))
    if draw(st.booleans()):  # a lower-rank input, read broadcast
        program.new_arg(sorted(draw(st.sets(st.integers(0, rank - 1)))))
    for _ in range(draw(st.integers(2, 5))):
        full = [v for v in program.values if len(v.dims) == rank]
        # Mostly the latest values, so that producers have consumers.
        first = draw(st.sampled_from(full[-2:]))
        others = [v for v in program.values if v is not first]
        operands = [first]
        if others:  # an earlier value read again makes a producer with two users
            operands += draw(st.lists(st.sampled_from(others), max_size=2))
        operands = draw(st.permutations(operands))
        reduced: set[int] = set()
        if draw(st.integers(0, 3)) == 0:
            reduced = draw(st.sets(st.integers(0, rank - 1), min_size=1))
        _add_generic(draw, program, operands, reduced)
    produced = [v for v in program.values if v.name.startswith("%v")]
    program.results = [produced[-1]]
    if len(produced) > 1:  # extra results: producers with several users
        program.results += draw(st.lists(st.sampled_from(produced[:-1]), max_size=1))
    return program.text()


@st.composite
def elementwise_chains(draw: st.DrawFn) -> str:
    """A chain: each elementwise op reads the previous result once, plus inputs."""
    rank = draw(st.integers(1, 3))
    program = _Program([draw(st.integers(1, 4)) for _ in range(rank)])
    previous = program.new_arg(draw(st.permutations(range(rank))))
    for _ in range(draw(st.integers(2, 5))):
        operands = [previous]
        for _ in range(draw(st.integers(0, 2))):
            operands.insert(
                draw(st.integers(0, len(operands))),
                program.new_arg(draw(st.permutations(range(rank)))),
            )
        previous = _add_generic(draw, program, operands, set())
    program.results = [previous]
    return program.text()


def _generics(module: Any) -> list[GenericOp]:
    return [op for op in module.walk() if isinstance(op, GenericOp)]


def _assert_fixpoint(module: Any) -> None:
    for consumer in _generics(module):
        for index in range(len(consumer.inputs)):
            assert fusable_producer(consumer, index) is None, str(module)


@given(generic_dags())
def test_fusion_keeps_meaning_on_dags(text: str) -> None:
    fused = assert_pass_preserves_semantics(LinalgFuseElementwisePass(), text, trials=2)
    _assert_fixpoint(fused)
    assert len(_generics(fused)) <= len(_generics(parse_module(text)))


@given(elementwise_chains())
def test_chains_fuse_into_one_generic(text: str) -> None:
    fused = assert_pass_preserves_semantics(LinalgFuseElementwisePass(), text, trials=2)
    assert len(_generics(fused)) == 1, str(fused)


def test_fusion_is_applied_on_a_fixed_chain() -> None:
    """Guards against a pass that does nothing: the chain's count is exact."""
    text = """
    #id = affine_map<(d0) -> (d0)>
    func.func @main(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
      %e = tensor.empty() : tensor<8xf32>
      %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
          ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
      ^bb0(%x: f32, %y: f32, %o: f32):
        %0 = arith.mulf %x, %y : f32
        linalg.yield %0 : f32
      } -> tensor<8xf32>
      %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
          ins(%m : tensor<8xf32>) outs(%e : tensor<8xf32>) {
      ^bb0(%x: f32, %o: f32):
        %0 = math.tanh %x : f32
        linalg.yield %0 : f32
      } -> tensor<8xf32>
      return %r : tensor<8xf32>
    }
    """
    module = parse_module(text)
    LinalgFuseElementwisePass().apply(make_context(), module)
    (fused,) = _generics(module)
    assert [op.name for op in fused.body.block.ops] == [
        "arith.mulf",
        "math.tanh",
        "linalg.yield",
    ]


def _corpus_inputs(case: str) -> list[list[np.ndarray]]:
    data = np.load(CORPUS / f"{case}.npz")
    count = sum(name.startswith("arg") for name in data.files)
    return [[data[f"arg{i}"] for i in range(count)]]


@pytest.mark.parametrize("case", CORPUS_CASES)
def test_corpus_keeps_meaning(case: str) -> None:
    text = (CORPUS / f"{case}.mlir").read_text()
    passes = [LinalgGeneralizeNamedOpsPass(), LinalgFuseElementwisePass()]
    fused = assert_pass_preserves_semantics(passes, text, inputs=_corpus_inputs(case))
    _assert_fixpoint(fused)


def test_fusion_keeps_meaning_on_nn_programs() -> None:
    # nn ops lowered and generalized, focused on broadcasts and transposes
    # feeding reductions: thorough found a broadcast fused into the reduction
    # over its new axis (issue 23).
    ops = {
        "nn.broadcast_to",
        "nn.transpose",
        "nn.reduce_max",
        "nn.reduce_sum",
        "nn.softmax",
        "nn.exp",
        "nn.add",
    }
    programs = lowered(
        nn_programs(max_ops=4, ops=ops),
        "convert-nn-to-linalg,linalg-generalize-named-ops",
    )
    check_pass(LinalgFuseElementwisePass(), programs)


# Splat constants read by a generic: the fold must fire (no constant tensor
# left) and keep meaning, for every element type, map and position.
_SPLAT_TYPES = {
    "f32": ("arith.addf", "2.500000e-01"),
    "f16": ("arith.mulf", "-1.500000e+00"),
    "i32": ("arith.addi", "-7"),
    "i1": ("arith.andi", "true"),
}


@st.composite
def splat_reads(draw: st.DrawFn) -> str:
    """A generic reading an argument and a splat constant (first or second,
    the same map or a broadcast of it) over a rows x cols space."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    element = draw(st.sampled_from(sorted(_SPLAT_TYPES)))
    combine, literal = _SPLAT_TYPES[element]
    broadcast = draw(st.booleans())
    constant_first = draw(st.booleans())
    full = f"tensor<{rows}x{cols}x{element}>"
    splat_type = f"tensor<{cols}x{element}>" if broadcast else full
    splat_map = "(d0, d1) -> (d1)" if broadcast else "(d0, d1) -> (d0, d1)"
    identity = "(d0, d1) -> (d0, d1)"
    ins = [("%a", full, identity), ("%cst", splat_type, splat_map)]
    if constant_first:
        ins.reverse()
    values = ", ".join(v for v, _, _ in ins)
    types = ", ".join(t for _, t, _ in ins)
    maps = ", ".join(f"affine_map<{m}>" for _, _, m in [*ins, ("", "", identity)])
    return f"""
func.func @main(%a: {full}) -> {full} {{
  %cst = arith.constant dense<{literal}> : {splat_type}
  %e = tensor.empty() : {full}
  %r = linalg.generic {{indexing_maps = [{maps}], iterator_types = ["parallel", "parallel"]}} ins({values} : {types}) outs(%e : {full}) {{
  ^bb0(%x: {element}, %y: {element}, %o: {element}):
    %s = {combine} %x, %y : {element}
    linalg.yield %s : {element}
  }} -> {full}
  return %r : {full}
}}"""


@given(splat_reads())
def test_splat_constants_fold_into_the_generic(text: str) -> None:
    folded = assert_pass_preserves_semantics(
        LinalgFuseElementwisePass(), text, trials=2
    )
    (generic,) = [op for op in folded.walk() if isinstance(op, GenericOp)]
    assert len(generic.inputs) == 1
    assert "dense<" not in str(folded)


@st.composite
def two_result_generics(draw: st.DrawFn) -> tuple[str, bool]:
    """A generic with two results, of which `@main` returns one, and whether
    the returned one reads the other's output value (then both stay)."""
    rows, columns = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    reduce = draw(st.booleans())
    keep = draw(st.integers(0, 1))
    crossed = draw(st.booleans())
    out_dims = "(d0)" if reduce else "(d0, d1)"
    out_type = f"tensor<{rows}xf32>" if reduce else f"tensor<{rows}x{columns}xf32>"
    index_type = f"tensor<{rows}xi64>" if reduce else f"tensor<{rows}x{columns}xi64>"
    iterators = '"parallel", "reduction"' if reduce else '"parallel", "parallel"'
    # Result 0: a max (or a tanh); result 1: the index of the max (or the
    # column), as torch-mlir's max/argmax pair.
    first = (
        "%m = arith.maximumf %in, %acc : f32" if reduce else "%m = math.tanh %in : f32"
    )
    if crossed:  # the other result's output value feeds the kept one
        first += "\n    %mc = arith.sitofp %idx : i64 to f32\n    %m2 = arith.addf %m, %mc : f32"
        kept_value = "%m2"
    else:
        kept_value = "%m"
    text = f"""
func.func @main(%x: tensor<{rows}x{columns}xf32>, %a: {out_type}, %b: {index_type}) -> {out_type if keep == 0 else index_type} {{
  %r:2 = linalg.generic {{indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> {out_dims}>, affine_map<(d0, d1) -> {out_dims}>], iterator_types = [{iterators}]}} ins(%x : tensor<{rows}x{columns}xf32>) outs(%a, %b : {out_type}, {index_type}) {{
  ^bb0(%in: f32, %acc: f32, %idx: i64):
    {first}
    %i = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i64
    %gt = arith.cmpf ogt, %in, %acc : f32
    %s = arith.select %gt, %ii, %idx : i64
    linalg.yield {kept_value}, %s : f32, i64
  }} -> ({out_type}, {index_type})
  return %r#{keep} : {out_type if keep == 0 else index_type}
}}
"""
    # Result 1's computation reads %acc (result 0's output value) through
    # the comparison, so only result 1 can go, and only if result 0 does
    # not read %idx.
    erasable = keep == 0 and not crossed
    return text, erasable


@given(two_result_generics())
def test_unused_results_go_and_meaning_stays(case: tuple[str, bool]) -> None:
    text, erasable = case
    after = assert_pass_preserves_semantics(LinalgFuseElementwisePass(), text)
    (generic,) = [op for op in after.walk() if isinstance(op, GenericOp)]
    assert len(generic.res) == (1 if erasable else 2), str(after)


# Copies read through any map (`is_copy_of_input`): torch-mlir transposes a
# linear layer's weight, or broadcasts a vector, before a matmul reads it.
# The fold must fire, keep meaning and leave no copy behind.


def _shape(dims: Sequence[int]) -> str:
    return "x".join(str(d) for d in dims)


def _copy_into(
    draw: st.DrawFn, lines: list[str], args: list[str], name: str, dims: list[int]
) -> str:
    """A value `name` of shape `dims`: an argument, or a transposed or
    broadcast copy of one (a named op, generalized by the test), or a
    half-precision one widened to f32 (`is_widening_of_input`), read
    through a random permutation, as torch-mlir widens a half `torch.mm`'s
    operands."""
    kind = draw(st.sampled_from(["argument", "transpose", "broadcast", "widen"]))
    out = f"tensor<{_shape(dims)}xf32>"
    if kind == "argument":
        args.append(f"%{name}: {out}")
        return f"%{name}"
    lines.append(f"%{name}_e = tensor.empty() : {out}")
    if kind == "widen":
        half = draw(st.sampled_from(["f16", "bf16"]))
        permutation = draw(st.permutations(range(len(dims))))
        # The source's dimension j is read by loop permutation[j].
        source = [dims[loop] for loop in permutation]
        loops = ", ".join(f"d{i}" for i in range(len(dims)))
        read = ", ".join(f"d{i}" for i in permutation)
        source_type = f"tensor<{_shape(source)}x{half}>"
        args.append(f"%{name}_src: {source_type}")
        kinds = ", ".join(['"parallel"'] * len(dims))
        lines.append(
            f"%{name} = linalg.generic {{indexing_maps = [affine_map<({loops}) -> "
            f"({read})>, affine_map<({loops}) -> ({loops})>], iterator_types = "
            f"[{kinds}]}} ins(%{name}_src : {source_type}) outs(%{name}_e : {out}) "
            f"{{\n^bb0(%in: {half}, %o: f32):\n"
            f"  %w = arith.extf %in : {half} to f32\n"
            f"  linalg.yield %w : f32\n}} -> {out}"
        )
        return f"%{name}"
    if kind == "transpose":
        permutation: list[int] = draw(st.permutations(range(len(dims))))
        source = [0] * len(dims)
        for position, source_dim in enumerate(permutation):
            source[source_dim] = dims[position]
        args.append(f"%{name}_src: tensor<{_shape(source)}xf32>")
        lines.append(
            f"%{name} = linalg.transpose ins(%{name}_src : tensor<{_shape(source)}xf32>)"
            f" outs(%{name}_e : {out}) permutation = {permutation}"
        )
    else:
        added = draw(st.integers(0, len(dims) - 1))
        kept = [d for i, d in enumerate(dims) if i != added]
        args.append(f"%{name}_src: tensor<{_shape(kept)}xf32>")
        lines.append(
            f"%{name} = linalg.broadcast ins(%{name}_src : tensor<{_shape(kept)}xf32>)"
            f" outs(%{name}_e : {out}) dimensions = [{added}]"
        )
    return f"%{name}"


@st.composite
def copies_into_contractions(draw: st.DrawFn) -> str:
    """A matmul or batch_matmul whose operands are arguments, or transposed
    or broadcast copies of them."""
    m, n, k = (draw(st.integers(1, 5)) for _ in range(3))
    batch = [draw(st.integers(1, 3))] if draw(st.booleans()) else []
    lines: list[str] = []
    args: list[str] = []
    lhs = _copy_into(draw, lines, args, "lhs", [*batch, m, k])
    rhs = _copy_into(draw, lines, args, "rhs", [*batch, k, n])
    result = f"tensor<{_shape([*batch, m, n])}xf32>"
    named = "linalg.batch_matmul" if batch else "linalg.matmul"
    lhs_type = f"tensor<{_shape([*batch, m, k])}xf32>"
    rhs_type = f"tensor<{_shape([*batch, k, n])}xf32>"
    args.append(f"%acc: {result}")
    lines.append(
        f"%r = {named} ins({lhs}, {rhs} : {lhs_type}, {rhs_type})"
        f" outs(%acc : {result}) -> {result}"
    )
    body = "\n  ".join(lines)
    return (
        f"func.func @main({', '.join(args)}) -> {result} {{\n  {body}\n"
        f"  return %r : {result}\n}}\n"
    )


def test_copies_fold_into_contractions() -> None:
    programs = lowered(
        copies_into_contractions().map(parse_module), "linalg-generalize-named-ops"
    )
    reach = check_pass(LinalgFuseElementwisePass(), programs)
    assert reach.changed >= 1


@given(copies_into_contractions())
def test_folded_copies_leave_one_generic(text: str) -> None:
    """Every copy is gone, the contraction reading the arguments themselves,
    but where both operands broadcast along the reduction: folding the
    second would leave no operand to give that loop its extent."""
    module = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), module)
    LinalgFuseElementwisePass().apply(make_context(), module)
    _assert_fixpoint(module)
    contraction = _generics(module)[-1]
    copies = [v for v in contraction.inputs if isinstance(v.owner, GenericOp)]
    if copies:
        (copy,) = copies
        assert "linalg.broadcast" in text, str(module)
        reduction = len(contraction.iterator_types) - 1
        others = [
            m.data
            for v, m in zip(contraction.inputs, contraction.indexing_maps, strict=False)
            if v is not copy
        ]
        assert not any(reduction in e.used_dims() for m in others for e in m.results)


def test_fold_copies_false_keeps_a_transposed_weight() -> None:
    text = """
    func.func @main(%x: tensor<2x3xf32>, %w: tensor<4x3xf32>, %acc: tensor<2x4xf32>) -> tensor<2x4xf32> {
      %e = tensor.empty() : tensor<3x4xf32>
      %t = linalg.transpose ins(%w : tensor<4x3xf32>) outs(%e : tensor<3x4xf32>) permutation = [1, 0]
      %r = linalg.matmul ins(%x, %t : tensor<2x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
      return %r : tensor<2x4xf32>
    }
    """
    kept = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), kept)
    LinalgFuseElementwisePass(fold_copies=False).apply(make_context(), kept)
    assert len(_generics(kept)) == 2
    folded = parse_module(text)
    LinalgGeneralizeNamedOpsPass().apply(make_context(), folded)
    LinalgFuseElementwisePass().apply(make_context(), folded)
    (matmul,) = _generics(folded)
    assert str(matmul.indexing_maps.data[1].data) == "(d0, d1, d2) -> (d1, d2)"


@st.composite
def shared_fills(draw: st.DrawFn) -> str:
    """Two or three matmuls of one shape whose init is one fill (a random
    value), generalized or named, as torch-mlir shares a zero fill."""
    m, n, k = (draw(st.integers(1, 4)) for _ in range(3))
    users = draw(st.integers(2, 3))
    value = draw(st.sampled_from(["0.0", "1.5", "-2.0"]))
    out = f"tensor<{m}x{n}xf32>"
    lines = [
        f"%v = arith.constant {value} : f32",
        f"%e = tensor.empty() : {out}",
        f"%f = linalg.fill ins(%v : f32) outs(%e : {out}) -> {out}",
    ]
    args = [f"%w: tensor<{k}x{n}xf32>"]
    for index in range(users):
        args.append(f"%x{index}: tensor<{m}x{k}xf32>")
        lines.append(
            f"%r{index} = linalg.matmul ins(%x{index}, %w : tensor<{m}x{k}xf32>,"
            f" tensor<{k}x{n}xf32>) outs(%f : {out}) -> {out}"
        )
    results = ", ".join(f"%r{i}" for i in range(users))
    types = ", ".join([out] * users)
    body = "\n  ".join(lines)
    return (
        f"func.func @main({', '.join(args)}) -> ({types}) {{\n  {body}\n"
        f"  return {results} : {types}\n}}\n"
    )


def test_shared_fills_are_cloned_per_init() -> None:
    programs = shared_fills().map(parse_module)
    check_pass(LinalgFuseElementwisePass(), programs)


@given(shared_fills())
def test_every_init_fill_has_one_user(text: str) -> None:
    module = parse_module(text)
    LinalgFuseElementwisePass().apply(make_context(), module)
    fills = [op for op in module.walk() if op.name == "linalg.fill"]
    assert len(fills) == text.count("linalg.matmul")
    assert all(len(list(fill.results[0].uses)) == 1 for fill in fills)


@st.composite
def generator_reads(draw: st.DrawFn) -> str:
    """A generator (an integer formula of its loop indices, no tensor read)
    over `rank` loops, read by an elementwise op or a row sum over
    `rows x cols` through a map of dims and constants, maybe twice."""
    rows, cols = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    rank = draw(st.integers(1, 2))
    sizes = [draw(st.sampled_from([rows, cols, 3])) for _ in range(rank)]
    # Each generator dimension is read as d0, d1 (when its size fits) or 0.
    results = []
    for size in sizes:
        choices = ["0"] + [f"d{k}" for k, n in enumerate((rows, cols)) if n == size]
        results.append(draw(st.sampled_from(choices)))
    loops = ", ".join(f"d{k}" for k in range(rank))
    lines = []
    for k in range(rank):
        lines += [
            f"%i{k} = linalg.index {k} : index",
            f"%c{k} = arith.index_cast %i{k} : index to i32",
        ]
    formula = "%c0"
    if rank == 2:
        op = draw(st.sampled_from(["arith.subi", "arith.addi", "arith.muli"]))
        lines.append(f"%f = {op} %c0, %c1 : i32")
        formula = "%f"
    gen_type = "tensor<" + "".join(f"{n}x" for n in sizes) + "i32>"
    reduce = draw(st.booleans())
    out_type = f"tensor<{rows}xf32>" if reduce else f"tensor<{rows}x{cols}xf32>"
    out_map = "(d0, d1) -> (d0)" if reduce else "(d0, d1) -> (d0, d1)"
    kind = '"reduction"' if reduce else '"parallel"'
    combine = (
        "%y = arith.addf %o, %t : f32" if reduce else "%y = arith.addf %t, %v : f32"
    )
    twice = draw(st.booleans())
    ins = "%g, %x" + (", %g" if twice else "")
    ins_types = f"{gen_type}, tensor<{rows}x{cols}xf32>" + (
        f", {gen_type}" if twice else ""
    )
    gen_map = f"affine_map<(d0, d1) -> ({', '.join(results)})>"
    maps = [gen_map, "affine_map<(d0, d1) -> (d0, d1)>"] + ([gen_map] if twice else [])
    second = "%h: i32, " if twice else ""
    extra = (
        "%t0 = arith.addi %gi, %h : i32" if twice else "%t0 = arith.addi %gi, %gi : i32"
    )
    body = "\n    ".join(lines)
    init = "%acc" if reduce else "%xe"
    return f"""
func.func @main(%x: tensor<{rows}x{cols}xf32>, %acc: {out_type}) -> {out_type} {{
  %e = tensor.empty() : {gen_type}
  %g = linalg.generic {{indexing_maps = [affine_map<({loops}) -> ({loops})>], iterator_types = [{", ".join(['"parallel"'] * rank)}]}} outs(%e : {gen_type}) {{
  ^bb0(%o: i32):
    {body}
    linalg.yield {formula} : i32
  }} -> {gen_type}
  %xe = tensor.empty() : {out_type}
  %r = linalg.generic {{indexing_maps = [{", ".join(maps)}, affine_map<{out_map}>], iterator_types = ["parallel", {kind}]}} ins({ins} : {ins_types}) outs({init} : {out_type}) {{
  ^bb0(%gi: i32, %v: f32, {second}%o: f32):
    {extra}
    %tf = arith.sitofp %t0 : i32 to f32
    %t = arith.mulf %tf, %v : f32
    {combine}
    linalg.yield %y : f32
  }} -> {out_type}
  return %r : {out_type}
}}
"""


def test_generators_fuse_through_any_map() -> None:
    reach = check_pass(LinalgFuseElementwisePass(), generator_reads().map(parse_module))
    assert reach.changed == reach.examples


@given(generator_reads())
def test_no_generator_is_left(text: str) -> None:
    module = parse_module(text)
    LinalgFuseElementwisePass().apply(make_context(), module)
    assert len(_generics(module)) == 1, str(module)
