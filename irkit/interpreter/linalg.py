"""Reference semantics of the `linalg` dialect, on tensors and on memrefs.

Every structured op (`linalg.generic` and the named ops, whose hidden bodies
and indexing maps say what they compute) is evaluated over its whole
iteration space with array operations, never one scalar at a time:

- each input is gathered through its indexing map as an array over the loops
  (a strided view for affine maps that are sums of loops times non-negative
  constants plus a constant, e.g. `(d0, d1) -> (d1, 0)` or `d2 * 2 + d5`;
  NumPy advanced indexing over an open grid for `mod`/`floordiv`/`ceildiv`);
- a body with only parallel loops runs once, on those arrays;
- with reduction loops, a body whose yields are `combine(%out, v)` (combine
  one of addf/mulf/maximumf/minimumf/maxnumf/minnumf/addi/muli/maxsi/minsi/
  ori/andi/xori) with `v` independent of the outputs is reduced by NumPy over
  the reduction axes, in the element type, then combined with the init (a
  product `v = a * b` of two inputs becomes one `np.einsum`); any other body
  runs once per point of the reduction loops, vectorised over the parallel
  loops;
- results are scattered back through the outputs' maps (permutations and
  constant results included) into a copy of the init.

Floating-point reductions may associate differently from a sequential loop
(NumPy sums pairwise): results agree to rounding, not bit for bit.

On memrefs (destination-passing style, no results) the same evaluation runs
on the operands' current contents and the outputs are written back into the
`outs` buffers. An input, or an output whose value the body uses (a
reduction's init, a `linalg.generic` body reading its out argument), must
have been written wherever the indexing maps reach: the first element
nothing wrote is reported, as `memref.load` does.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import MemRefType, TensorType
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.ops import BroadcastOp, IndexOp, ReduceOp
from xdsl.dialects.linalg.ops import PoolingNchwMaxOp as UpstreamPoolingNchwMaxOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)

from irkit.dialects.linalg import Linalg, MapOp, PoolingNchwMaxOp
from irkit.dtypes import BFLOAT16, is_float_dtype, numpy_dtype
from irkit.interpreter.core import (
    Interpreter,
    interpretation_error,
    register,
    register_terminator,
)
from irkit.interpreter.values import (
    MemRefValue,
    check_live,
    check_writable,
    first_unwritten,
    read_memref,
    unwritten_read,
    write_memref,
)

Values = tuple[Any, ...]

register_terminator("linalg.yield")


# --------------------------------------------------------------------------
# Scopes: the values a body sees from around its op
# --------------------------------------------------------------------------


def body_scope(interp: Interpreter) -> MutableMapping[SSAValue, Any]:
    """A scope for running a body: sees the enclosing one, writes only to itself."""
    return interp.nested_scope()


def run_body(
    interp: Interpreter,
    block: Block,
    args: Sequence[Any],
    scope: MutableMapping[SSAValue, Any],
) -> Values:
    """Run a body `block` on `args` in `scope` (from `body_scope`)."""
    return interp.run_block(block, args, scope)


# --------------------------------------------------------------------------
# The iteration space
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Window:
    """The part `[start, stop)` of one loop's range being evaluated."""

    start: int
    stop: int

    @property
    def size(self) -> int:
        return self.stop - self.start


_LOOP_STACK: list[tuple[Operation, list[Window]]] = []


def _loop_grid(windows: Sequence[Window]) -> list[np.ndarray]:
    """Broadcastable int64 aranges, one per loop, of rank len(windows)."""
    rank = len(windows)
    grid: list[np.ndarray] = []
    for position, window in enumerate(windows):
        shape = [1] * rank
        shape[position] = window.size
        grid.append(np.arange(window.start, window.stop, dtype=np.int64).reshape(shape))
    return grid


def _linear_form(expr: AffineExpr) -> tuple[dict[int, int], int] | None:
    """`expr` as `sum(coeff * d_p) + const`, or None when it is not linear."""
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, 0
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    lhs = _linear_form(expr.lhs)
    rhs = _linear_form(expr.rhs)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        coeffs = dict(lhs[0])
        for position, coeff in rhs[0].items():
            coeffs[position] = coeffs.get(position, 0) + coeff
        return coeffs, lhs[1] + rhs[1]
    if expr.kind == AffineBinaryOpKind.Mul:
        if not rhs[0]:
            return {p: c * rhs[1] for p, c in lhs[0].items()}, lhs[1] * rhs[1]
        if not lhs[0]:
            return {p: c * lhs[1] for p, c in rhs[0].items()}, lhs[1] * rhs[1]
    return None


def _evaluate_expr(expr: AffineExpr, grid: Sequence[np.ndarray]) -> Any:
    """`expr` over the loop grid (MLIR's floordiv/ceildiv/mod round down)."""
    if isinstance(expr, AffineDimExpr):
        return grid[expr.position]
    if isinstance(expr, AffineConstantExpr):
        return expr.value
    if not isinstance(expr, AffineBinaryOpExpr):
        raise NotImplementedError(f"affine expression {expr} with symbols")
    lhs = _evaluate_expr(expr.lhs, grid)
    rhs = _evaluate_expr(expr.rhs, grid)
    match expr.kind:
        case AffineBinaryOpKind.Add:
            return lhs + rhs
        case AffineBinaryOpKind.Mul:
            return lhs * rhs
        case AffineBinaryOpKind.Mod:
            return lhs % rhs
        case AffineBinaryOpKind.FloorDiv:
            return lhs // rhs
        case AffineBinaryOpKind.CeilDiv:
            return -((-lhs) // rhs)


def _strided_axes(
    array: np.ndarray, amap: AffineMap, windows: Sequence[Window]
) -> tuple[np.ndarray, dict[int, int]] | None:
    """`array` through a linear `amap`: a base view and a byte stride per loop.

    None when the map is not linear with non-negative coefficients, or when
    the window reaches out of the array.
    """
    base_index: list[int] = []
    strides: dict[int, int] = {}
    for dim, expr in enumerate(amap.results):
        form = _linear_form(expr)
        if form is None:
            return None
        coeffs, const = form
        if any(coeff < 0 for coeff in coeffs.values()):
            return None
        low = const + sum(c * windows[p].start for p, c in coeffs.items())
        high = const + sum(c * (windows[p].stop - 1) for p, c in coeffs.items())
        if any(windows[p].size == 0 for p in coeffs):
            return None
        if low < 0 or high >= array.shape[dim]:
            return None
        base_index.append(low)
        for position, coeff in coeffs.items():
            if coeff:
                step = coeff * array.strides[dim]
                strides[position] = strides.get(position, 0) + step
    base = array[tuple(slice(low, None) for low in base_index)]
    return base, strides


def gather(value: Any, amap: AffineMap, windows: Sequence[Window]) -> Any:
    """The elements of operand `value` at every loop point, as an array of
    rank `len(windows)` (size 1 along loops the map does not use).

    A scalar operand is returned as is.
    """
    if not isinstance(value, np.ndarray):
        return value
    rank = len(windows)
    if value.ndim == 0:
        return value.reshape((1,) * rank)
    strided = _strided_axes(value, amap, windows)
    if strided is not None:
        base, strides = strided
        shape = tuple(windows[p].size if p in strides else 1 for p in range(rank))
        byte_strides = tuple(strides.get(p, 0) for p in range(rank))
        return np.lib.stride_tricks.as_strided(
            base, shape=shape, strides=byte_strides, writeable=False
        )
    grid = _loop_grid(windows)
    index = tuple(_evaluate_expr(expr, grid) for expr in amap.results)
    for dim, positions in enumerate(index):
        if np.any((positions < 0) | (positions >= value.shape[dim])):
            raise IndexError(f"indexing map {amap} reaches out of dimension {dim}")
    gathered = value[index]
    return np.asarray(gathered).reshape(
        np.broadcast_shapes(*(np.shape(i) for i in index), (1,) * rank)
    )


def _last_along_unused(value: np.ndarray, used: set[int]) -> np.ndarray:
    """Keep the last slice along loops an output does not use (the last write)."""
    for position in range(value.ndim):
        if position not in used and value.shape[position] > 1:
            index = [slice(None)] * value.ndim
            index[position] = slice(-1, None)
            value = value[tuple(index)]
    return value


def scatter(
    init: np.ndarray,
    amap: AffineMap,
    value: Any,
    windows: Sequence[Window],
    dtype: np.dtype[Any],
) -> np.ndarray:
    """A new array: `init` with the loop-space `value` written through `amap`."""
    rank = len(windows)
    value = np.asarray(value)
    if value.ndim == 0:
        value = value.reshape((1,) * rank)
    results = amap.results
    dims = [expr.position for expr in results if isinstance(expr, AffineDimExpr)]
    simple = len(set(dims)) == len(dims) and all(
        isinstance(expr, AffineDimExpr | AffineConstantExpr) for expr in results
    )
    if not simple:
        grid = _loop_grid(windows)
        positions = tuple(_evaluate_expr(expr, grid) for expr in results)
        used = {p for expr in results for p in _dims_of(expr)}
        value = _last_along_unused(value, used)
        shape = np.broadcast_shapes(*(np.shape(i) for i in positions), value.shape)
        out = init.astype(dtype)
        out[positions] = np.broadcast_to(value, shape)
        return out
    value = _last_along_unused(value, set(dims))
    kept = value.transpose(dims + [p for p in range(rank) if p not in dims])
    kept = kept.reshape(kept.shape[: len(dims)])
    arranged_shape: list[int] = []
    target_shape: list[int] = []
    covers = True
    index: list[slice] = []
    position = 0
    for dim, expr in enumerate(results):
        if isinstance(expr, AffineDimExpr):
            window = windows[expr.position]
            arranged_shape.append(kept.shape[position])
            target_shape.append(window.size)
            index.append(slice(window.start, window.stop))
            covers &= window.start == 0 and window.stop == init.shape[dim]
            position += 1
        else:
            const = cast(AffineConstantExpr, expr).value
            arranged_shape.append(1)
            target_shape.append(1)
            index.append(slice(const, const + 1))
            covers &= const == 0 and init.shape[dim] == 1
    arranged = np.broadcast_to(kept.reshape(arranged_shape), target_shape)
    if covers:
        return arranged.astype(dtype)
    out = init.astype(dtype)
    out[tuple(index)] = arranged
    return out


def _dims_of(expr: AffineExpr) -> set[int]:
    return {e.position for e in expr.dfs() if isinstance(e, AffineDimExpr)}


def loop_sizes(
    op: Operation, maps: Sequence[AffineMap], operands: Sequence[Any], loops: int
) -> list[int]:
    """Each loop's range, read off the first operand dimension it indexes alone."""
    sizes: list[int | None] = [None] * loops
    for amap, value in zip(maps, operands, strict=True):
        shape = np.shape(value)
        for dim, expr in enumerate(amap.results):
            if isinstance(expr, AffineDimExpr) and sizes[expr.position] is None:
                sizes[expr.position] = shape[dim]
    if any(size is None for size in sizes):
        raise interpretation_error(op, "cannot infer the loop ranges from its maps")
    return cast(list[int], sizes)


# --------------------------------------------------------------------------
# Recognising reductions
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Combiner:
    """A yield `combine(%out, v)`: how to reduce `v` with NumPy."""

    op: Operation
    out_first: bool
    other: SSAValue
    ufunc: np.ufunc
    identity: Callable[[np.dtype[Any]], Any]
    with_initial: bool


def _zero(dtype: np.dtype[Any]) -> Any:
    return dtype.type(-0.0) if is_float_dtype(dtype) else dtype.type(0)


def _one(dtype: np.dtype[Any]) -> Any:
    return dtype.type(1)


def _lowest(dtype: np.dtype[Any]) -> Any:
    return dtype.type(-np.inf) if is_float_dtype(dtype) else np.iinfo(dtype).min


def _highest(dtype: np.dtype[Any]) -> Any:
    return dtype.type(np.inf) if is_float_dtype(dtype) else np.iinfo(dtype).max


def _nan(dtype: np.dtype[Any]) -> Any:
    return dtype.type(np.nan)


def _all_ones(dtype: np.dtype[Any]) -> Any:
    return np.bool_(True) if dtype == np.bool_ else dtype.type(-1)


_COMBINERS: dict[str, tuple[np.ufunc, Callable[[np.dtype[Any]], Any], bool, bool]] = {
    # name: (ufunc, identity, reduce with `initial=identity`, valid on i1)
    "arith.addf": (np.add, _zero, False, False),
    "arith.mulf": (np.multiply, _one, False, False),
    "arith.maximumf": (np.maximum, _lowest, True, False),
    "arith.minimumf": (np.minimum, _highest, True, False),
    "arith.maxnumf": (np.fmax, _nan, True, False),
    "arith.minnumf": (np.fmin, _nan, True, False),
    "arith.addi": (np.add, _zero, False, False),
    "arith.muli": (np.multiply, _one, False, False),
    "arith.maxsi": (np.maximum, _lowest, True, False),
    "arith.minsi": (np.minimum, _highest, True, False),
    "arith.ori": (np.bitwise_or, _zero, False, True),
    "arith.andi": (np.bitwise_and, _all_ones, False, True),
    "arith.xori": (np.bitwise_xor, _zero, False, True),
}


def match_combiners(block: Block, inputs: int) -> list[Combiner] | None:
    """One `Combiner` per output when every yield is `combine(%out_k, v_k)`
    with `v_k` not depending on any output; None otherwise."""
    terminator = block.last_op
    if terminator is None:
        return None
    out_args = list(block.args[inputs:])
    yields = list(terminator.operands)
    if len(yields) != len(out_args):
        return None
    combiners: list[Combiner] = []
    for value, out_arg in zip(yields, out_args, strict=True):
        owner = value.owner
        if not isinstance(owner, Operation) or owner.name not in _COMBINERS:
            return None
        if owner.parent_block() is not block or len(owner.operands) != 2:
            return None
        lhs, rhs = owner.operands
        if (lhs is out_arg) == (rhs is out_arg):
            return None
        ufunc, identity, with_initial, on_i1 = _COMBINERS[owner.name]
        dtype = numpy_dtype(out_arg.type)
        if dtype == np.bool_ and not on_i1:
            return None
        combiners.append(
            Combiner(
                owner,
                lhs is out_arg,
                rhs if lhs is out_arg else lhs,
                ufunc,
                identity,
                with_initial,
            )
        )
    combiner_ops = {id(c.op) for c in combiners}
    if len(combiner_ops) != len(combiners):
        return None
    tainted: set[SSAValue] = set(out_args)
    tainted.update(c.op.results[0] for c in combiners)
    for op in block.ops:
        if op is terminator or id(op) in combiner_ops:
            continue
        for nested in op.walk():
            if any(operand in tainted for operand in nested.operands):
                return None
    if any(c.other in tainted for c in combiners):
        return None
    return combiners


def _einsum_factors(
    combiner: Combiner, block: Block, inputs: int
) -> tuple[int, int] | None:
    """Input indices `(i, j)` when `v` is `in_i * in_j` (mulf or muli)."""
    owner = combiner.other.owner
    expected = "arith.mulf" if combiner.op.name == "arith.addf" else "arith.muli"
    if combiner.op.name not in ("arith.addf", "arith.addi"):
        return None
    if not isinstance(owner, Operation) or owner.name != expected:
        return None
    positions: list[int] = []
    for operand in owner.operands:
        if operand not in block.args[:inputs]:
            return None
        positions.append(block.args.index(operand))
    return positions[0], positions[1]


def _einsum_view(
    array: np.ndarray, amap: AffineMap, windows: Sequence[Window]
) -> tuple[np.ndarray, list[int]] | None:
    """`array` as a strided view with one axis per loop it uses."""
    strided = _strided_axes(array, amap, windows)
    if strided is None:
        return None
    base, strides = strided
    loops = sorted(strides)
    view = np.lib.stride_tricks.as_strided(
        base,
        shape=tuple(windows[p].size for p in loops),
        strides=tuple(strides[p] for p in loops),
        writeable=False,
    )
    return view, loops


def _einsum_reduce(
    factors: tuple[int, int],
    inputs: Sequence[Any],
    maps: Sequence[AffineMap],
    windows: Sequence[Window],
    reduction: Sequence[int],
    dtype: np.dtype[Any],
) -> np.ndarray | None:
    """`sum over reduction loops of in_i * in_j` with einsum, in loop space."""
    operands: list[np.ndarray] = []
    subscripts: list[list[int]] = []
    for position in factors:
        value = inputs[position]
        if not isinstance(value, np.ndarray) or value.ndim == 0:
            return None
        viewed = _einsum_view(value.astype(dtype, copy=False), maps[position], windows)
        if viewed is None:
            return None
        operands.append(viewed[0])
        subscripts.append(viewed[1])
    present = set(subscripts[0]) | set(subscripts[1])
    if any(p not in present for p in reduction):
        return None
    rank = len(windows)
    output = [p for p in range(rank) if p in present and p not in reduction]
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    spec = ",".join("".join(letters[p] for p in s) for s in subscripts)
    spec += "->" + "".join(letters[p] for p in output)
    if dtype == BFLOAT16:
        # NumPy's einsum has no bfloat16 loop: the products (exact in f32)
        # are summed in f32 and rounded once to bf16 below.
        operands = [operand.astype(np.float32) for operand in operands]
    reduced = np.einsum(spec, *operands, optimize=len(operands[0].shape) > 0)
    shape = [windows[p].size if p in output else 1 for p in range(rank)]
    return np.asarray(reduced, dtype=dtype).reshape(shape)


# --------------------------------------------------------------------------
# The structured-op evaluator
# --------------------------------------------------------------------------


def _block_arg_used(block: Block, index: int) -> bool:
    return bool(block.args[index].uses)


def evaluate_structured(
    interp: Interpreter,
    op: Operation,
    maps: Sequence[AffineMap],
    iterators: Sequence[str],
    block: Block,
    inputs: Sequence[Any],
    inits: Sequence[np.ndarray],
    out_dtypes: Sequence[np.dtype[Any]],
) -> list[np.ndarray]:
    """The outputs of a structured op (see the module docstring)."""
    loops = len(iterators)
    sizes = loop_sizes(op, maps, [*inputs, *inits], loops)
    full = [Window(0, size) for size in sizes]
    in_maps = maps[: len(inputs)]
    out_maps = maps[len(inputs) :]
    reduction = [p for p, kind in enumerate(iterators) if kind != "parallel"]
    if any(_dims_of(expr) & set(reduction) for m in out_maps for expr in m.results):
        raise interpretation_error(op, "an output indexed by a reduction loop")
    scope = body_scope(interp)

    def run(windows: Sequence[Window], outs: Sequence[Any]) -> Values:
        args = [
            gather(value, m, windows) for value, m in zip(inputs, in_maps, strict=True)
        ]
        _LOOP_STACK.append((op, list(windows)))
        try:
            return run_body(interp, block, [*args, *outs], scope)
        finally:
            _LOOP_STACK.pop()

    def write(values: Sequence[Any]) -> list[np.ndarray]:
        return [
            scatter(init, m, value, full, dtype)
            for init, m, value, dtype in zip(
                inits, out_maps, values, out_dtypes, strict=True
            )
        ]

    if not reduction:
        outs = [
            gather(init, m, full) if _block_arg_used(block, len(inputs) + k) else None
            for k, (init, m) in enumerate(zip(inits, out_maps, strict=True))
        ]
        return write(run(full, outs))

    combiners = match_combiners(block, len(inputs))
    if combiners is not None:
        return write(
            _reduce_with_combiners(
                interp,
                op,
                combiners,
                block,
                inputs,
                inits,
                maps,
                full,
                reduction,
                out_dtypes,
                run,
            )
        )

    # Sequential over the reduction loops, vectorised over the parallel ones.
    accumulators: list[Any] = [
        gather(init, m, full) for init, m in zip(inits, out_maps, strict=True)
    ]
    for point in itertools.product(*(range(sizes[p]) for p in reduction)):
        windows = list(full)
        for p, k in zip(reduction, point, strict=True):
            windows[p] = Window(k, k + 1)
        results = run(windows, accumulators)
        accumulators = [
            np.asarray(value).astype(dtype, copy=False)
            for value, dtype in zip(results, out_dtypes, strict=True)
        ]
    return write(accumulators)


def _reduce_with_combiners(
    interp: Interpreter,
    op: Operation,
    combiners: Sequence[Combiner],
    block: Block,
    inputs: Sequence[Any],
    inits: Sequence[np.ndarray],
    maps: Sequence[AffineMap],
    full: Sequence[Window],
    reduction: Sequence[int],
    out_dtypes: Sequence[np.dtype[Any]],
    run: Callable[[Sequence[Window], Sequence[Any]], Values],
) -> list[Any]:
    out_maps = maps[len(inputs) :]
    reduced: list[Any] = [None] * len(combiners)
    for k, combiner in enumerate(combiners):
        factors = _einsum_factors(combiner, block, len(inputs))
        if factors is not None:
            reduced[k] = _einsum_reduce(
                factors, inputs, maps, full, reduction, out_dtypes[k]
            )
    if any(value is None for value in reduced):
        identities = [
            c.identity(dtype) for c, dtype in zip(combiners, out_dtypes, strict=True)
        ]
        values = run(full, identities)
        shape = [window.size for window in full]
        for k, (combiner, dtype) in enumerate(zip(combiners, out_dtypes, strict=True)):
            if reduced[k] is not None:
                continue
            value = np.asarray(values[k]).astype(dtype, copy=False)
            if value.ndim == 0:
                value = value.reshape((1,) * len(full))
            target = [
                shape[p] if p in reduction else value.shape[p] for p in range(len(full))
            ]
            extra: dict[str, Any] = {}
            if combiner.with_initial:
                extra["initial"] = combiner.identity(dtype)
            reduced[k] = combiner.ufunc.reduce(
                np.broadcast_to(value, target),
                axis=tuple(reduction),
                keepdims=True,
                dtype=dtype,
                **extra,
            )
    combined: list[Any] = []
    for k, combiner in enumerate(combiners):
        init = gather(inits[k], out_maps[k], full)
        pair = (init, reduced[k]) if combiner.out_first else (reduced[k], init)
        combined.append(interp.run_op(combiner.op, pair)[0])
    return combined


def _dtype_of(value: SSAValue) -> np.dtype[Any]:
    value_type = value.type
    if isinstance(value_type, TensorType | MemRefType):
        return numpy_dtype(value_type.get_element_type())
    return numpy_dtype(value_type)


# --------------------------------------------------------------------------
# Operands in buffers (linalg on memrefs)
# --------------------------------------------------------------------------


def _contents(op: Operation, value: Any) -> Any:
    """An operand's value: a memref as an array view of its current contents."""
    if isinstance(value, MemRefValue):
        check_live(op, value)
        return value.array()
    return value


def _check_buffer_reads(
    op: Operation,
    maps: Sequence[AffineMap],
    block: Block,
    operands: Sequence[Any],
    windows: Sequence[Window],
) -> None:
    """Report the first element a memref operand's map reaches that nothing
    wrote, for every operand whose block argument the body uses."""
    for position, value in enumerate(operands):
        if not isinstance(value, MemRefValue) or not block.args[position].uses:
            continue
        mask = value.written_mask()
        if mask.all():
            continue
        reached = np.asarray(gather(mask, maps[position], windows))
        if not reached.all():
            point = first_unwritten(reached)
            element = maps[position].eval(list(point), [])
            raise unwritten_read(op, value, element)


def _write_buffers(
    op: Operation,
    out_maps: Sequence[AffineMap],
    targets: Sequence[Any],
    outputs: Sequence[np.ndarray],
    windows: Sequence[Window],
) -> None:
    """Write each output into its memref; mark what its map reaches written."""
    for target, amap, output in zip(targets, out_maps, outputs, strict=True):
        if not isinstance(target, MemRefValue):
            continue
        check_writable(op, target)
        target.array()[...] = output
        untouched = np.zeros(target.shape, np.bool_)
        reached = scatter(untouched, amap, np.True_, windows, np.dtype(np.bool_))
        target.written_mask()[...] |= reached


def _result_or_write(op: Operation, target: Any, result: np.ndarray) -> Values:
    """`(result,)` for a tensor destination; for a memref, write it there."""
    if isinstance(target, MemRefValue):
        write_memref(op, target, result)
        return ()
    return (result,)


def _read(op: Operation, value: Any) -> np.ndarray:
    """An operand the op reads whole (a memref must be written everywhere)."""
    if isinstance(value, MemRefValue):
        return read_memref(op, value)
    return np.asarray(value)


def _structured(interp: Interpreter, op: Operation, args: Values) -> Values:
    structured = cast(LinalgStructuredOperation, op)
    maps = [attr.data for attr in structured.get_indexing_maps()]
    iterators = [str(kind.data.value) for kind in structured.get_iterator_types()]
    count = len(structured.inputs)
    contents = [_contents(op, value) for value in args]
    inputs = contents[:count]
    inits = [np.asarray(value) for value in contents[count:]]
    dtypes = [_dtype_of(value) for value in structured.outputs]
    body = structured.body
    if isinstance(op, UpstreamPoolingNchwMaxOp) and not isinstance(
        op, PoolingNchwMaxOp
    ):
        # Built with xDSL's class, whose body maximises over the window operand.
        body = PoolingNchwMaxOp.get_hidden_region(structured.inputs, structured.outputs)
    on_buffers = any(isinstance(value, MemRefValue) for value in args)
    try:
        if on_buffers:
            sizes = loop_sizes(op, maps, contents, len(iterators))
            windows = [Window(0, size) for size in sizes]
            _check_buffer_reads(op, maps, body.block, args, windows)
        outputs = evaluate_structured(
            interp, op, maps, iterators, body.block, inputs, inits, dtypes
        )
        if on_buffers:
            _write_buffers(op, maps[count:], args[count:], outputs, windows)
    except IndexError as error:
        raise interpretation_error(op, f"reads out of bounds: {error}") from None
    return tuple(outputs) if structured.res else ()


for _op in Linalg.operations:
    if issubclass(_op, LinalgStructuredOperation):
        register(_op.name)(_structured)


@register("linalg.index")
def index(interp: Interpreter, op: Operation, args: Values) -> Values:
    dim = cast(IndexOp, op).dim.value.data
    parent = op.parent_op()
    for owner, windows in reversed(_LOOP_STACK):
        if owner is parent:
            return (_loop_grid(windows)[dim],)
    raise interpretation_error(op, "outside of a structured op being evaluated")


@register("linalg.broadcast")
def broadcast(interp: Interpreter, op: Operation, args: Values) -> Values:
    source = _read(op, args[0])
    init = np.asarray(_contents(op, args[1]))
    dims = cast(BroadcastOp, op).dimensions.get_values()
    expanded = np.expand_dims(source, tuple(dims)) if dims else source
    result = np.broadcast_to(expanded, init.shape).astype(init.dtype)
    return _result_or_write(op, args[1], result)


@register("linalg.reduce")
def reduce(interp: Interpreter, op: Operation, args: Values) -> Values:
    reduce_op = cast(ReduceOp, op)
    source = _read(op, args[0])
    body = reduce_op.region.block
    init = (
        _read(op, args[1]) if body.args[1].uses else np.asarray(_contents(op, args[1]))
    )
    dims = set(reduce_op.dimensions.get_values())
    rank = source.ndim
    maps = [
        AffineMap.identity(rank),
        AffineMap(
            rank, 0, tuple(AffineDimExpr(p) for p in range(rank) if p not in dims)
        ),
    ]
    iterators = ["reduction" if p in dims else "parallel" for p in range(rank)]
    (output,) = evaluate_structured(
        interp,
        op,
        maps,
        iterators,
        reduce_op.region.block,
        [source],
        [init],
        [init.dtype],
    )
    return _result_or_write(op, args[1], output)


@register("linalg.map")
def map_(interp: Interpreter, op: Operation, args: Values) -> Values:
    map_op = cast(MapOp, op)
    inputs = [_read(op, arg) for arg in args[: len(map_op.inputs)]]
    init = np.asarray(_contents(op, args[-1]))
    scope = body_scope(interp)
    (value,) = run_body(interp, map_op.mapper.block, inputs, scope)
    result = np.broadcast_to(np.asarray(value), init.shape).astype(init.dtype)
    return _result_or_write(op, args[-1], result)
