"""Printers of control flow: `scf` loops and ifs, `func.call`, `cf.assert`.

Values an `scf` op carries across its region (`scf.for` iter_args, `scf.if`
results, `scf.while` state, `scf.parallel` reductions) are C variables
declared before the loop and assigned where the region yields, as a
parallel assignment (a swap stays a swap). `scf.parallel` and `scf.forall`
on memrefs are loop nests; the outermost gets the language's parallel-loop
pragma (OpenMP in C) unless it reduces (the accumulators would race) or
holds an op that returns from the function, which may not leave an OpenMP
structured block. An `scf.for` marked `irkit.unroll` with a constant trip
count gets the language's unroll pragma.

The C function's status carries failures out: `func.call` returns the
callee's nonzero status, `cf.assert` returns its number in the module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import MemRefType, VectorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from irkit.abi import is_output_argument
from irkit.dialects.scf import UNROLL_ATTRIBUTE
from irkit.dialects.static_values import constant_int
from irkit.targets.views import index_text

if TYPE_CHECKING:
    from irkit.targets.cstyle import CStyleEmitter, Printer

# Ops whose C form returns from the function: they cannot sit inside an
# OpenMP loop (a structured block may not be left by `return`).
_EARLY_EXIT_OPS = frozenset({"cf.assert", "func.call", "memref.alloc"})
_LOOP_OPS = frozenset({"scf.for", "scf.while", "scf.parallel", "scf.forall"})


# ---------------------------------------------------------------------------
# Carried values
# ---------------------------------------------------------------------------


def _emit_region_into(
    emitter: CStyleEmitter,
    block: Block,
    arguments: Sequence[str],
    targets: Sequence[str],
) -> None:
    """Print `block` with its arguments bound to the C expressions
    `arguments`; assign what its terminator yields to `targets`."""
    for argument, expr in zip(block.args, arguments, strict=True):
        emitter.scope.values[argument] = expr
    terminator = emitter.emit_ops(block)
    yielded = [] if terminator is None else list(terminator.operands)
    if len(yielded) != len(targets):
        raise emitter.unprintable(terminator or block.parent_op() or emitter.module)
    _assign_all(emitter, targets, [emitter.name_of(value) for value in yielded])


def _assign_all(
    emitter: CStyleEmitter, targets: Sequence[str], values: Sequence[str]
) -> None:
    """`targets = values` as a parallel assignment (a swap stays a swap)."""
    pairs = [(t, v) for t, v in zip(targets, values, strict=True) if t != v]
    if len(pairs) > 1 and any(v in targets for _, v in pairs):
        temporaries: list[tuple[str, str]] = []
        for target, value in pairs:
            temporary = emitter.fresh_name(f"{target}_next")
            type_name = emitter.variable_types[target]
            emitter.writer.line(f"{type_name} {temporary} = {value};")
            temporaries.append((target, temporary))
        pairs = temporaries
    for target, value in pairs:
        emitter.writer.line(f"{target} = {value};")


def _declare_carried(
    emitter: CStyleEmitter,
    values: Sequence[SSAValue],
    op: Operation,
    initial: Sequence[SSAValue] | None = None,
) -> list[str]:
    """Variables for values carried across a region (loop iter_args,
    `if` results), named after `values`, holding `initial` (else 0)."""
    names: list[str] = []
    if any(isinstance(value.type, MemRefType) for value in values):
        raise emitter.error(op, "memref values cannot be carried by loops or ifs")
    if initial:
        starts = [emitter.name_of(v) for v in initial]
    else:
        # Zero (a vector's every lane) until the region assigns it.
        starts = ["{0}" if isinstance(v.type, VectorType) else "0" for v in values]
    for value, start in zip(values, starts, strict=True):
        type_name = emitter.value_type_name(value.type, op)
        name = emitter.fresh_name(value.name_hint)
        emitter.writer.line(f"{type_name} {name} = {start};")
        emitter.variable_types[name] = type_name
        names.append(name)
    return names


def _bind_carried(
    emitter: CStyleEmitter,
    op: Operation,
    names: Sequence[str],
    arguments: Sequence[SSAValue] = (),
) -> None:
    """Bind `op`'s results to the carried variables `names`, marking unused
    ones `(void)` (unless the region read its argument)."""
    for index, (result, name) in enumerate(zip(op.results, names, strict=True)):
        emitter.scope.values[result] = name
        argument_used = index < len(arguments) and bool(arguments[index].uses)
        if not result.uses and not argument_used:
            emitter.writer.line(f"(void){name};")


# ---------------------------------------------------------------------------
# scf
# ---------------------------------------------------------------------------


def _loop_header(
    emitter: CStyleEmitter, iv: str, key: str, lower: str, upper: str, step: str
) -> str:
    return (
        f"for ({emitter.type_name(key)} {iv} = {lower}; {iv} < {upper}; {iv} += {step})"
    )


def _for(emitter: CStyleEmitter, op: Operation) -> None:
    lower, upper, step, *inits = op.operands
    body = op.regions[0].blocks[0]
    iv_arg, *carried_args = body.args
    key = emitter.key_of(iv_arg.type, op)
    carried = _declare_carried(emitter, list(op.results), op, inits)
    iv = None
    with emitter.nested_scope():
        iv = emitter.fresh_name(iv_arg.name_hint or "i")
        emitter.scope.values[iv_arg] = iv
        header = _loop_header(
            emitter,
            iv,
            key,
            emitter.name_of(lower),
            emitter.name_of(upper),
            emitter.name_of(step),
        )
        _unroll_pragma(emitter, op)
        with emitter.block(header):
            _emit_region_into(emitter, body, [iv, *carried], carried)
    _bind_carried(emitter, op, carried, carried_args)


def _unroll_pragma(emitter: CStyleEmitter, op: Operation) -> None:
    pragma = emitter.language.unroll_pragma
    if pragma is None or UNROLL_ATTRIBUTE not in op.attributes:
        return
    lower, upper, step = (constant_int(v) for v in op.operands[:3])
    if lower is None or upper is None or step is None or step <= 0:
        return  # only a constant trip count can be unrolled fully
    count = max(-(-(upper - lower) // step), 1)
    # 65534 is GCC's largest unroll count; CUDA's pragma takes none.
    emitter.writer.line(pragma.format(count=min(count, 65534)))


def _if(emitter: CStyleEmitter, op: Operation) -> None:
    carried = _declare_carried(emitter, list(op.results), op)
    condition = emitter.name_of(op.operands[0])
    then_region, else_region = op.regions
    with emitter.block(f"if ({condition})"):
        _emit_region_into(emitter, then_region.blocks[0], [], carried)
    if else_region.blocks and list(else_region.blocks[0].ops):
        with emitter.writer.else_block(), emitter.nested_scope():
            _emit_region_into(emitter, else_region.blocks[0], [], carried)
    _bind_carried(emitter, op, carried)


def _while(emitter: CStyleEmitter, op: Operation) -> None:
    before, after = (region.blocks[0] for region in op.regions)
    state = _declare_carried(emitter, list(before.args), op, list(op.operands))
    results = _declare_carried(emitter, list(op.results), op)
    with emitter.block("while (true)"):
        for argument, name in zip(before.args, state, strict=True):
            emitter.scope.values[argument] = name
        condition_op = emitter.emit_ops(before)
        if condition_op is None or condition_op.name != "scf.condition":
            raise emitter.error(
                op, "scf.while's first region must end in scf.condition"
            )
        condition, *forwarded = (emitter.name_of(v) for v in condition_op.operands)
        _assign_all(emitter, results, forwarded)
        emitter.writer.line(f"if (!{condition}) break;")
        with emitter.nested_scope():
            _emit_region_into(emitter, after, results, state)
    for name in state:
        emitter.writer.line(f"(void){name};")
    _bind_carried(emitter, op, results)


def _parallel_bounds(
    emitter: CStyleEmitter, op: Operation
) -> tuple[list[str], list[str], list[str], list[SSAValue]]:
    segments = op.properties.get("operandSegmentSizes")
    assert segments is not None
    assert hasattr(segments, "get_values")
    counts = list(segments.get_values())
    names = emitter.operands(op)
    starts = [sum(counts[:i]) for i in range(len(counts))]
    lower = names[starts[0] : starts[0] + counts[0]]
    upper = names[starts[1] : starts[1] + counts[1]]
    step = names[starts[2] : starts[2] + counts[2]]
    inits = list(op.operands[starts[3] : starts[3] + counts[3]])
    return lower, upper, step, inits


def _may_run_in_parallel(
    emitter: CStyleEmitter, op: Operation, has_reductions: bool
) -> bool:
    """Whether the pragma may go on `op`: outermost, no reduction (the
    accumulators would race) and nothing that returns from the function."""
    if emitter.language.parallel_loop_pragma is None or emitter.in_parallel_loop:
        return False
    if has_reductions:
        return False
    return not any(inner.name in _EARLY_EXIT_OPS for inner in op.walk())


def _parallel(emitter: CStyleEmitter, op: Operation) -> None:
    lower, upper, step, inits = _parallel_bounds(emitter, op)
    _parallel_loop(emitter, op, lower, upper, step, inits)


def _forall(emitter: CStyleEmitter, op: Operation) -> None:
    """`scf.forall` on memrefs: a parallel loop nest like `scf.parallel`."""
    if op.results:
        raise emitter.error(
            op, "scf.forall with shared_outs (tensors) is not loop-level"
        )
    body = op.regions[0].blocks[0]
    terminator = body.last_op  # scf.forall.in_parallel
    if (
        terminator is not None
        and terminator.has_trait(IsTerminator)
        and any(
            region.blocks and list(region.blocks[0].ops)
            for region in terminator.regions
        )
    ):
        raise emitter.error(op, "scf.forall.in_parallel must be empty at loop level")

    def bounds(static_name: str, operand_name: str) -> list[str]:
        static = op.properties[static_name]
        assert hasattr(static, "get_values")
        values = emitter.dynamic_or_static(
            static.get_values(), list(getattr(op, operand_name))
        )
        return [index_text(value) for value in values]

    lower = bounds("staticLowerBound", "dynamicLowerBound")
    upper = bounds("staticUpperBound", "dynamicUpperBound")
    step = bounds("staticStep", "dynamicStep")
    _parallel_loop(emitter, op, lower, upper, step, [])


def _parallel_loop(
    emitter: CStyleEmitter,
    op: Operation,
    lower: list[str],
    upper: list[str],
    step: list[str],
    inits: list[SSAValue],
) -> None:
    """A loop nest over every induction variable of `op`, under the
    parallel-loop pragma where `_may_run_in_parallel` allows it."""
    body = op.regions[0].blocks[0]
    accumulators = _declare_carried(emitter, list(op.results), op, inits)
    pragma = _may_run_in_parallel(emitter, op, bool(inits))
    outer_flag = emitter.in_parallel_loop
    emitter.in_parallel_loop = True
    try:
        with emitter.nested_scope():
            if pragma and emitter.language.parallel_loop_pragma is not None:
                collapse = f" collapse({len(lower)})" if len(lower) > 1 else ""
                # gcc does not vectorise a collapsed nest (its one loop
                # recomputes the indices) unless told its iterations are
                # independent, which a parallel loop's are; only a
                # straight-line body, so no inner loop is vectorised across.
                straight = not any(inner.name in _LOOP_OPS for inner in body.walk())
                simd = " simd" if collapse and straight else ""
                for line in emitter.language.parallel_loop_pragma:
                    emitter.writer.line(line.format(collapse=collapse, simd=simd))
            _parallel_nest(emitter, op, body, lower, upper, step, accumulators, [])
    finally:
        emitter.in_parallel_loop = outer_flag
    _bind_carried(emitter, op, accumulators)


def _parallel_nest(
    emitter: CStyleEmitter,
    op: Operation,
    body: Block,
    lower: list[str],
    upper: list[str],
    step: list[str],
    accumulators: list[str],
    ivs: list[str],
) -> None:
    depth = len(ivs)
    if depth == len(lower):
        for argument, iv in zip(body.args, ivs, strict=True):
            emitter.scope.values[argument] = iv
        reduce_op = emitter.emit_ops(body)
        if reduce_op is not None and reduce_op.operands:
            _reduce(emitter, reduce_op, accumulators)
        return
    argument = body.args[depth]
    iv = emitter.fresh_name(argument.name_hint or f"i{depth}")
    header = _loop_header(emitter, iv, "index", lower[depth], upper[depth], step[depth])
    with emitter.block(header):
        _parallel_nest(emitter, op, body, lower, upper, step, accumulators, [*ivs, iv])


def _reduce(emitter: CStyleEmitter, op: Operation, accumulators: list[str]) -> None:
    """Fold each `scf.reduce` operand into its accumulator with the
    combiner region (sequentially: loops with reductions get no pragma)."""
    for value, region, accumulator in zip(
        op.operands, op.regions, accumulators, strict=True
    ):
        with emitter.block(""):
            block = region.blocks[0]
            for argument, expr in zip(
                block.args, [accumulator, emitter.name_of(value)], strict=True
            ):
                emitter.scope.values[argument] = expr
            terminator = emitter.emit_ops(block)
            if terminator is None or len(terminator.operands) != 1:
                raise emitter.unprintable(op)
            emitter.writer.line(
                f"{accumulator} = {emitter.name_of(terminator.operands[0])};"
            )


# ---------------------------------------------------------------------------
# func.call and cf.assert
# ---------------------------------------------------------------------------


def _call(emitter: CStyleEmitter, op: Operation) -> None:
    callee_attr = op.properties.get("callee")
    root = getattr(callee_attr, "root_reference", None)
    symbol = getattr(root, "data", None)
    callee = emitter.functions.get(symbol) if isinstance(symbol, str) else None
    if callee is None or symbol not in emitter.symbols:
        raise emitter.error(op, "calls only functions defined in the module")
    if op.results:
        raise emitter.error(op, "functions return through output buffers")
    arguments: list[str] = []
    for index, operand in enumerate(op.operands):
        if isinstance(operand.type, MemRefType):
            view = emitter.view_of(operand, op)
            if view.read_only and is_output_argument(callee, index):
                raise emitter.error(
                    op, f"passes a read-only buffer as output argument #{index}"
                )
            arguments.append(view.pointer)
        else:
            arguments.append(emitter.name_of(operand))
    status = emitter.fresh_name("status")
    emitter.writer.line(
        f"int {status} = {emitter.symbols[symbol]}({', '.join(arguments)});"
    )
    emitter.writer.line(f"if ({status} != 0) return {status};")


def _assert(emitter: CStyleEmitter, op: Operation) -> None:
    (condition,) = emitter.operands(op)
    emitter.writer.line(f"if (!{condition}) return {emitter.assertion_status[op]};")


CONTROL_PRINTERS: dict[str, Printer] = {
    "scf.for": _for,
    "scf.if": _if,
    "scf.while": _while,
    "scf.parallel": _parallel,
    "scf.forall": _forall,
    "func.call": _call,
    "cf.assert": _assert,
}
