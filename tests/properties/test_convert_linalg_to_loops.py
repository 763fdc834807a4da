"""`convert-linalg-to-loops` keeps meaning: linalg on memrefs vs its loops.

Programs are in the bufferized form (`docs/abi.md`): inputs, then output
buffers marked `{irkit.output}`. An output the body reads is first filled with
a constant (`linalg.fill`, lowered by the pass too), since an output buffer
holds garbage on entry and the interpreter reports reads of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from irkit.testing import assert_pass_preserves_semantics, check_pass
from irkit.testing.strategies import linalg_programs, lowered
from irkit.transforms.convert_linalg_to_loops import ConvertLinalgToLoopsPass

PASS = ConvertLinalgToLoopsPass()

# --------------------------------------------------------------------------
# Random linalg.generic ops
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Operand:
    """One operand: its map's results (as text) and its shape."""

    results: tuple[str, ...]
    shape: tuple[int, ...]

    def type(self, element: str) -> str:
        dims = "".join(f"{size}x" for size in self.shape)
        return f"memref<{dims}{element}>"

    def map(self, loops: int) -> str:
        dims = ", ".join(f"d{i}" for i in range(loops))
        return f"affine_map<({dims}) -> ({', '.join(self.results)})>"


@st.composite
def _with_unit_dims(
    draw: st.DrawFn, results: list[str], shape: list[int]
) -> tuple[list[str], list[int]]:
    """Insert constant-0 results indexing size-1 dimensions (broadcasts)."""
    for _ in range(draw(st.integers(0, 1))):
        at = draw(st.integers(0, len(results)))
        results.insert(at, "0")
        shape.insert(at, 1)
    return results, shape


@st.composite
def input_operands(
    draw: st.DrawFn,
    sizes: Sequence[int],
    kinds: Sequence[str],
    required: Sequence[int] = (),
) -> Operand:
    """A projected permutation of the loops (keeping the `required` ones),
    maybe a window expression `d_p * stride + d_r * dilation`, maybe
    constant-0 results."""
    loops = len(sizes)
    chosen = draw(st.permutations(range(loops)))
    count = draw(st.integers(0, loops))
    kept = [loop for i, loop in enumerate(chosen) if i < count or loop in required]
    results = [f"d{loop}" for loop in kept]
    shape = [sizes[loop] for loop in kept]
    parallel = [p for p in range(loops) if kinds[p] == "parallel"]
    reduction = [r for r in range(loops) if kinds[r] == "reduction"]
    with_window: bool = draw(st.booleans())
    if parallel and reduction and with_window:
        p, r = draw(st.sampled_from(parallel)), draw(st.sampled_from(reduction))
        stride, dilation = draw(st.integers(1, 2)), draw(st.integers(1, 2))
        results.append(f"d{p} * {stride} + d{r} * {dilation}")
        shape.append((sizes[p] - 1) * stride + (sizes[r] - 1) * dilation + 1)
    results, shape = draw(_with_unit_dims(results, shape))
    return Operand(tuple(results), tuple(shape))


@st.composite
def output_operands(
    draw: st.DrawFn, sizes: Sequence[int], kinds: Sequence[str]
) -> Operand:
    """Every parallel loop once, in any order, maybe with constant-0 results."""
    parallel = [p for p in range(len(sizes)) if kinds[p] == "parallel"]
    order = draw(st.permutations(parallel))
    results, shape = draw(
        _with_unit_dims([f"d{p}" for p in order], [sizes[p] for p in order])
    )
    return Operand(tuple(results), tuple(shape))


@dataclass(frozen=True)
class ElementType:
    """The ops a random body uses for one element type."""

    name: str
    unary: tuple[str, ...]
    binary: tuple[str, ...]
    combiners: tuple[str, ...]
    init: str  # the constant a read output is filled with
    from_i32: tuple[str, ...]  # how `%ii: i32` (a loop index) becomes `%if`


F32 = ElementType(
    "f32",
    unary=("arith.negf", "math.absf", "math.exp", "math.tanh"),
    binary=("arith.addf", "arith.subf", "arith.mulf", "arith.maximumf"),
    combiners=("arith.addf", "arith.maximumf", "arith.minimumf"),
    init="0.5",
    from_i32=("%if = arith.sitofp %ii : i32 to f32",),
)
# Integers are compared exactly: any reordering of a wrapping sum would show.
I32 = ElementType(
    "i32",
    unary=("math.absi",),
    binary=("arith.addi", "arith.subi", "arith.muli", "arith.maxsi"),
    combiners=("arith.addi", "arith.maxsi", "arith.minsi"),
    init="3",
    from_i32=("%if = arith.addi %ii, %ii : i32",),
)


@st.composite
def body_expression(
    draw: st.DrawFn,
    element: ElementType,
    leaves: Sequence[str],
    lines: list[str],
    name: str,
) -> str:
    """Ops combining `leaves` into one value; returns its name."""
    values = list(leaves)
    for step in range(draw(st.integers(1, 3))):
        result = f"%{name}{step}"
        if draw(st.booleans()):
            op = draw(st.sampled_from(element.unary))
            operand = draw(st.sampled_from(values))
            lines.append(f"{result} = {op} {operand} : {element.name}")
        else:
            op = draw(st.sampled_from(element.binary))
            lhs, rhs = draw(st.sampled_from(values)), draw(st.sampled_from(values))
            lines.append(f"{result} = {op} {lhs}, {rhs} : {element.name}")
        values.append(result)
    return values[-1]


@st.composite
def generic_programs(draw: st.DrawFn) -> str:
    element = draw(st.sampled_from([F32, I32]))
    type_ = element.name
    loops = draw(st.integers(0, 4))
    sizes = draw(st.lists(st.integers(1, 4), min_size=loops, max_size=loops))
    kinds = draw(
        st.lists(
            st.sampled_from(["parallel", "reduction"]), min_size=loops, max_size=loops
        )
    )
    reduction = [r for r in range(loops) if kinds[r] == "reduction"]
    # Outputs index every parallel loop alone; the first input indexes every
    # reduction loop alone, so each loop's range is known.
    inputs = [
        draw(input_operands(sizes, kinds, required=reduction)),
        *draw(st.lists(input_operands(sizes, kinds), max_size=2)),
    ]
    outputs = draw(st.lists(output_operands(sizes, kinds), min_size=1, max_size=2))

    lines: list[str] = []
    in_args = [f"%in{i}" for i in range(len(inputs))]
    out_args = [f"%out{i}" for i in range(len(outputs))]
    leaves = [f"%x{i}" for i in range(len(inputs))]
    if loops and draw(st.booleans()):
        loop = draw(st.integers(0, loops - 1))
        lines += [
            f"%i = linalg.index {loop} : index",
            "%ii = arith.index_cast %i : index to i32",
            *element.from_i32,
        ]
        leaves.append("%if")
    # With reductions every output accumulates into itself; without, some
    # outputs may read their (filled) old value.
    reads = [bool(reduction) or draw(st.booleans()) for _ in outputs]
    yields: list[str] = []
    for k, read in enumerate(reads):
        value = draw(body_expression(element, leaves, lines, f"v{k}_"))
        if read:
            combiner = draw(st.sampled_from(element.combiners))
            lines.append(f"%y{k} = {combiner} %o{k}, {value} : {type_}")
            value = f"%y{k}"
        yields.append(value)

    maps = ", ".join(op.map(loops) for op in (*inputs, *outputs))
    iterators = ", ".join(f'"{kind}"' for kind in kinds)
    in_types = [op.type(type_) for op in inputs]
    out_types = [op.type(type_) for op in outputs]
    block_args = [f"{x}: {type_}" for x in leaves[: len(inputs)]]
    block_args += [f"%o{k}: {type_}" for k in range(len(outputs))]
    fills = [
        f"linalg.fill ins(%init : {type_}) outs({arg} : {out_type})"
        for arg, out_type, read in zip(out_args, out_types, reads, strict=True)
        if read
    ]
    signature = [f"{a}: {t}" for a, t in zip(in_args, in_types, strict=True)]
    signature += [
        f"{a}: {t} {{irkit.output}}" for a, t in zip(out_args, out_types, strict=True)
    ]
    yield_types = ", ".join([type_] * len(yields))
    body = "\n      ".join(
        [*lines, f"linalg.yield {', '.join(yields)} : {yield_types}"]
    )
    fill_lines = "\n  ".join(fills)
    return f"""
func.func @main({", ".join(signature)}) {{
  %init = arith.constant {element.init} : {type_}
  {fill_lines}
  linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}}
      ins({", ".join(in_args)} : {", ".join(in_types)})
      outs({", ".join(out_args)} : {", ".join(out_types)}) {{
    ^bb0({", ".join(block_args)}):
      {body}
  }}
  return
}}
"""


@given(generic_programs())
def test_random_generic_keeps_meaning(program: str) -> None:
    assert_pass_preserves_semantics(PASS, program, trials=2)


# --------------------------------------------------------------------------
# Named ops, through their generic form
# --------------------------------------------------------------------------


def _named_program(signature: str, body: str) -> str:
    return f"""
func.func @main({signature}) {{
  %zero = arith.constant 0.0 : f32
  {body}
  return
}}
"""


def _out(shape: Sequence[int]) -> str:
    return "memref<" + "".join(f"{s}x" for s in shape) + "f32>"


@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4))
def test_matmul_keeps_meaning(m: int, n: int, k: int) -> None:
    a, b, c = _out([m, k]), _out([k, n]), _out([m, n])
    program = _named_program(
        f"%a: {a}, %b: {b}, %c: {c} {{irkit.output}}",
        f"linalg.fill ins(%zero : f32) outs(%c : {c})\n"
        f"  linalg.matmul ins(%a, %b : {a}, {b}) outs(%c : {c})",
    )
    assert_pass_preserves_semantics(PASS, program, trials=2)


@st.composite
def windows(draw: st.DrawFn) -> tuple[int, int, int, int]:
    """(output size, kernel size, stride, dilation) of one spatial dimension."""
    return (
        draw(st.integers(1, 3)),
        draw(st.integers(1, 3)),
        draw(st.integers(1, 2)),
        draw(st.integers(1, 2)),
    )


def _input_size(output: int, kernel: int, stride: int, dilation: int) -> int:
    return (output - 1) * stride + (kernel - 1) * dilation + 1


@given(windows(), st.integers(1, 2), st.integers(1, 2))
def test_conv_2d_nchw_fchw_keeps_meaning(
    window: tuple[int, int, int, int], channels: int, filters: int
) -> None:
    out, kernel, stride, dilation = window
    size = _input_size(out, kernel, stride, dilation)
    x = _out([1, channels, size, size])
    w = _out([filters, channels, kernel, kernel])
    o = _out([1, filters, out, out])
    attrs = (
        f"{{dilations = dense<{dilation}> : vector<2xi64>, "
        f"strides = dense<{stride}> : vector<2xi64>}}"
    )
    program = _named_program(
        f"%x: {x}, %w: {w}, %o: {o} {{irkit.output}}",
        f"linalg.fill ins(%zero : f32) outs(%o : {o})\n"
        f"  linalg.conv_2d_nchw_fchw {attrs} ins(%x, %w : {x}, {w}) outs(%o : {o})",
    )
    assert_pass_preserves_semantics(PASS, program, trials=2)


@given(windows(), st.sampled_from(["pooling_nchw_max", "pooling_nhwc_sum"]))
def test_pooling_keeps_meaning(window: tuple[int, int, int, int], op: str) -> None:
    out, kernel, stride, dilation = window
    size = _input_size(out, kernel, stride, dilation)
    nchw = "nchw" in op
    x = _out([1, 2, size, size] if nchw else [1, size, size, 2])
    k = _out([kernel, kernel])
    o = _out([1, 2, out, out] if nchw else [1, out, out, 2])
    attrs = (
        f"{{dilations = dense<{dilation}> : vector<2xi64>, "
        f"strides = dense<{stride}> : vector<2xi64>}}"
    )
    init = "%lowest" if "max" in op else "%zero"
    program = _named_program(
        f"%x: {x}, %k: {k}, %o: {o} {{irkit.output}}",
        "%lowest = arith.constant -3.0e38 : f32\n"
        f"  linalg.fill ins({init} : f32) outs(%o : {o})\n"
        f"  linalg.{op} {attrs} ins(%x, %k : {x}, {k}) outs(%o : {o})",
    )
    assert_pass_preserves_semantics(PASS, program, trials=2)


@given(st.integers(1, 4), st.integers(1, 4), st.integers(0, 1))
def test_reduce_broadcast_transpose_keep_meaning(
    rows: int, cols: int, dim: int
) -> None:
    x, t = _out([rows, cols]), _out([cols, rows])
    r = _out([cols if dim == 0 else rows])
    b = _out([rows, cols, 2])
    program = _named_program(
        f"%x: {x}, %r: {r} {{irkit.output}}, %t: {t} {{irkit.output}}, "
        f"%b: {b} {{irkit.output}}",
        f"linalg.fill ins(%zero : f32) outs(%r : {r})\n"
        f"  linalg.reduce ins(%x : {x}) outs(%r : {r}) dimensions = [{dim}]\n"
        "    (%in: f32, %acc: f32) {\n"
        "      %s = arith.addf %in, %acc : f32\n"
        "      linalg.yield %s : f32\n"
        "    }\n"
        f"  linalg.transpose ins(%x : {x}) outs(%t : {t}) permutation = [1, 0]\n"
        f"  linalg.broadcast ins(%x : {x}) outs(%b : {b}) dimensions = [2]",
    )
    assert_pass_preserves_semantics(PASS, program, trials=2)


def test_random_bufferized_linalg_chains_keep_meaning() -> None:
    check_pass(
        ConvertLinalgToLoopsPass(), lowered(linalg_programs(max_ops=3), "bufferize")
    )
