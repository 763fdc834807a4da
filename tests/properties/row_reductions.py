"""Row reductions of every kind, for the property tests of the row-group
passes (`linalg-tile-rows`, `linalg-tile-rows-for-gpu`).

`nn` programs reduce only by `addf`, `maximumf` and `minimumf` (and their
integer forms), so a wrong identity for `maxnumf` (or any other combiner
`irkit.analysis.row_groups` knows) is reached by no `nn_programs` draw. These
programs are one `linalg.generic` row reduction, bufferized, whose combiner is
drawn from every kind of its element type (`ROW_COMBINERS`), or from kinds the
analysis refuses (`REFUSED_COMBINERS`: no identity, or not associative), so a
test sees both sides of the check.
"""

from __future__ import annotations

from hypothesis import strategies as st
from xdsl.dialects.builtin import ModuleOp

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline

# What `irkit.analysis.row_groups` reduces across threads, per element type.
ROW_COMBINERS: dict[str, tuple[str, ...]] = {
    "f32": (
        "arith.addf",
        "arith.mulf",
        "arith.maximumf",
        "arith.minimumf",
        "arith.maxnumf",
        "arith.minnumf",
    ),
    "i32": (
        "arith.addi",
        "arith.muli",
        "arith.maxsi",
        "arith.minsi",
        "arith.andi",
        "arith.ori",
        "arith.xori",
    ),
}
# Combiners the analysis must refuse: no identity it knows (unsigned max/min)
# or not associative (sub): such an op is no row reduction, and a pass on
# row groups leaves it alone.
REFUSED_COMBINERS: dict[str, tuple[str, ...]] = {
    "f32": ("arith.subf",),
    "i32": ("arith.maxui", "arith.minui", "arith.subi"),
}


def _tensor(shape: tuple[int, ...], element: str) -> str:
    return "tensor<" + "".join(f"{d}x" for d in shape) + f"{element}>"


def row_reduction_text(
    combiner: str,
    element: str,
    shape: tuple[int, ...],
    *,
    keepdims: bool = False,
    accumulator_first: bool = False,
    init: str | None = "0",
    epilogue: bool = False,
) -> str:
    """`@main(%x: shape)`: every row of `%x` (dimension 0) reduced by
    `combiner` over the other dimensions, into an init filled with `init`
    (a literal of `element`), or into the function's second argument, the
    output's old value, when `init` is None; with `epilogue`, the result is
    then added to itself by an elementwise generic (a second op of the row
    group, which `linalg-tile-rows` needs)."""
    rows, loops = shape[0], len(shape)
    dims = ", ".join(f"d{i}" for i in range(loops))
    out_shape = (rows, 1) if keepdims else (rows,)
    out_map = "(d0, 0)" if keepdims else "(d0)"
    source, out = _tensor(shape, element), _tensor(out_shape, element)
    arguments = [f"%x: {source}"]
    if init is None:
        arguments.append(f"%old: {out}")
        lines = []
        accumulator = "%old"
    else:
        literal = f"{float(init)}" if element.startswith("f") else str(int(init))
        lines = [
            f"%c = arith.constant {literal} : {element}",
            f"%e = tensor.empty() : {out}",
            f"%init = linalg.fill ins(%c : {element}) outs(%e : {out}) -> {out}",
        ]
        accumulator = "%init"
    operands = "%acc, %in" if accumulator_first else "%in, %acc"
    iterators = ", ".join(['"parallel"'] + ['"reduction"'] * (loops - 1))
    lines += [
        f"%r = linalg.generic {{indexing_maps = [affine_map<({dims}) -> ({dims})>, "
        f"affine_map<({dims}) -> {out_map}>], iterator_types = [{iterators}]}} "
        f"ins(%x : {source}) outs({accumulator} : {out}) {{",
        f"^bb0(%in: {element}, %acc: {element}):",
        f"  %y = {combiner} {operands} : {element}",
        f"  linalg.yield %y : {element}",
        f"}} -> {out}",
    ]
    result = "%r"
    if epilogue:
        add = "arith.addf" if element.startswith("f") else "arith.addi"
        out_dims = "d0, d1" if keepdims else "d0"
        out_map = f"affine_map<({out_dims}) -> ({out_dims})>"
        parallel = ", ".join(['"parallel"'] * len(out_shape))
        lines += [
            f"%e2 = tensor.empty() : {out}",
            f"%s = linalg.generic {{indexing_maps = [{out_map}, {out_map}], "
            f"iterator_types = [{parallel}]}} ins(%r : {out}) outs(%e2 : {out}) {{",
            f"^bb0(%v: {element}, %unused: {element}):",
            f"  %w = {add} %v, %v : {element}",
            f"  linalg.yield %w : {element}",
            f"}} -> {out}",
        ]
        result = "%s"
    lines.append(f"func.return {result} : {out}")
    body = "\n  ".join(lines)
    return f"func.func @main({', '.join(arguments)}) -> {out} {{\n  {body}\n}}\n"


@st.composite
def row_reductions(
    draw: st.DrawFn,
    combiners: dict[str, tuple[str, ...]] = ROW_COMBINERS,
    max_rows: int = 4,
    max_cols: int = 9,
    *,
    epilogue: bool | None = None,
) -> ModuleOp:
    """A bufferized row reduction by a combiner of `combiners` (per element
    type), over one or two reduced dimensions, with or without `keepdims`,
    the running value on either side of the combiner, starting from a drawn
    constant (not always the identity: the result must combine it once) or
    from the output's old value; then an elementwise op on the result when
    `epilogue` says so (drawn when None)."""
    element = draw(st.sampled_from(sorted(combiners)))
    combiner = draw(st.sampled_from(combiners[element]))
    rows = draw(st.integers(1, max_rows))
    reduced = draw(st.lists(st.integers(1, max_cols), min_size=1, max_size=2))
    init = draw(st.one_of(st.none(), st.sampled_from(["0", "1", "-1", "3"])))
    text = row_reduction_text(
        combiner,
        element,
        (rows, *reduced),
        keepdims=draw(st.booleans()),
        accumulator_first=draw(st.booleans()),
        init=init,
        epilogue=draw(st.booleans()) if epilogue is None else epilogue,
    )
    module = parse_module(text, make_context())
    Pipeline.parse("bufferize").run(make_context(), module)
    return module
