"""Reference semantics of the `memref` dialect.

A memref is a `MemRefValue` (`values.py`): a strided view of a flat buffer
shared by all views of one allocation. Allocations start as poison (NaN,
INT_MIN, false) with nothing marked written; `memref.load` of an element
nothing wrote, an out-of-bounds access, a use of a freed buffer, a double
free and a write to a constant global are reported as located
`InterpretationError`s. Memory spaces (`memref<4xf32, 3>`) are carried by the
types and do not change semantics. See `docs/interpreter-memory.md`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IndexType,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
)
from xdsl.dialects.memref import (
    AllocaScopeOp,
    AllocOp,
    AtomicRMWOp,
    CollapseShapeOp,
    ExpandShapeOp,
    GetGlobalOp,
    GlobalOp,
    ReinterpretCastOp,
    SubviewOp,
)
from xdsl.ir import Attribute, Operation

from irkit.diagnostics import location_of
from irkit.dtypes import dense_to_array
from irkit.interpreter.core import (
    Interpreter,
    interpretation_error,
    register,
    register_terminator,
)
from irkit.interpreter.values import (
    Buffer,
    MemRefValue,
    allocate,
    check_live,
    check_writable,
    format_index,
    scalar,
    to_value,
    unsigned_dtype,
    unwritten_read,
)

Values = tuple[Any, ...]

register_terminator("memref.alloca_scope.return")

# Interpreter.state keys.
_GLOBALS = "memref.globals"
_ALLOCA_SCOPES = "memref.alloca_scopes"


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def memref_type_of(op: Operation, result: int = 0) -> MemRefType[Attribute]:
    return cast(MemRefType[Attribute], op.results[result].type)


def origin_of(op: Operation) -> str:
    """How messages name a buffer `op` allocated: `memref.alloc at f.mlir:3:8`."""
    location = location_of(op)
    return f"{op.name} at {location}" if location is not None else op.name


def merge_static_dynamic(static: Sequence[int], dynamic: Sequence[Any]) -> list[int]:
    """A static list with its DYNAMIC_INDEX placeholders taken from `dynamic`."""
    values: Iterator[Any] = iter(dynamic)
    return [int(next(values)) if v == DYNAMIC_INDEX else int(v) for v in static]


def as_memref(op: Operation, value: Any) -> MemRefValue:
    if not isinstance(value, MemRefValue):
        raise interpretation_error(op, f"expected a memref operand, got {value!r}")
    return value


def expected_layout(
    memref_type: MemRefType[Attribute], shape: Sequence[int]
) -> tuple[int | None, list[int | None]] | None:
    """The offset and strides `memref_type` promises (None where dynamic).

    The identity layout is row-major over the actual `shape`; None for a
    layout that is not strided (a general affine map).
    """
    layout = memref_type.layout
    if isinstance(layout, NoneAttr):
        strides: list[int | None] = []
        running = 1
        for size in reversed(shape):
            strides.append(running)
            running *= max(size, 1)
        return 0, list(reversed(strides))
    if isinstance(layout, StridedLayoutAttr):
        return layout.get_offset(), list(layout.get_strides())
    return None


def check_view(op: Operation, value: MemRefValue, memref_type: Attribute) -> None:
    """Check a view `op` made against its result type and its buffer.

    Static sizes, strides (of dimensions longer than 1) and offset of the type
    must be the view's: MLIR calls a mismatch undefined behaviour.
    """
    if not value.fits():
        raise interpretation_error(
            op,
            f"makes a view (offset {value.offset}, sizes {list(value.shape)}, "
            f"strides {list(value.strides)}) that reaches outside its buffer of "
            f"{value.buffer.data.size} elements ({value.buffer.origin})",
        )
    if not isinstance(memref_type, MemRefType):
        return
    typed = cast(MemRefType[Attribute], memref_type)
    static_shape = typed.get_shape()
    if len(static_shape) != len(value.shape) or any(
        want not in (DYNAMIC_INDEX, got)
        for got, want in zip(value.shape, static_shape, strict=True)
    ):
        raise interpretation_error(
            op, f"makes a view of sizes {list(value.shape)}, its type is {typed}"
        )
    layout = expected_layout(typed, value.shape)
    if layout is None:
        return
    offset, strides = layout
    if offset is not None and offset != DYNAMIC_INDEX and offset != value.offset:
        raise interpretation_error(
            op, f"makes a view at offset {value.offset}, its type {typed} says {offset}"
        )
    for dim, (size, got, want) in enumerate(
        zip(value.shape, value.strides, strides, strict=True)
    ):
        if size > 1 and want is not None and want != DYNAMIC_INDEX and got != want:
            raise interpretation_error(
                op,
                f"makes a view with stride {got} in dimension {dim}, its type "
                f"{typed} says {want}",
            )


def checked_index(
    op: Operation, memref: MemRefValue, indices: Sequence[Any]
) -> tuple[int, ...]:
    """`indices` as ints, each inside the view's bounds."""
    index = tuple(int(i) for i in indices)
    for i, n in zip(index, memref.shape, strict=True):
        if not 0 <= i < n:
            dims = "x".join(str(n) for n in memref.shape)
            raise interpretation_error(
                op, f"index {format_index(index)} is out of bounds of a {dims} memref"
            )
    return index


def _gathered_positions(
    op: Operation, memref: MemRefValue, indices: Sequence[Any]
) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
    """The buffer positions of the elements a vectorised access names.

    Inside a `linalg.generic` body run on whole arrays (see `core.py`) an
    index may be an array: the indices broadcast together and name one
    element per position. Every one of them must be in bounds.
    """
    index_arrays = np.broadcast_arrays(
        *(np.asarray(i, dtype=np.int64) for i in indices)
    )
    positions = np.full(
        index_arrays[0].shape if index_arrays else (), memref.offset, np.int64
    )
    for dim, (index, extent, stride) in enumerate(
        zip(index_arrays, memref.shape, memref.strides, strict=True)
    ):
        outside = (index < 0) | (index >= extent)
        if outside.any():
            where = tuple(int(i) for i in np.argwhere(outside)[0])
            element = tuple(int(i[where]) for i in index_arrays)
            dims = "x".join(str(n) for n in memref.shape)
            raise interpretation_error(
                op,
                f"index {format_index(element)} (dimension {dim}) is out of bounds "
                f"of a {dims} memref",
            )
        positions = positions + index * stride
    return positions, tuple(index_arrays)


def _gather(op: Operation, memref: MemRefValue, indices: Sequence[Any]) -> Any:
    """The elements of `memref` at array `indices`, each of them written."""
    positions, index_arrays = _gathered_positions(op, memref, indices)
    written = memref.buffer.written[positions]
    if not written.all():
        where = tuple(int(i) for i in np.argwhere(~written)[0])
        raise unwritten_read(op, memref, [int(i[where]) for i in index_arrays])
    return memref.buffer.data[positions]


def _position(op: Operation, memref: MemRefValue, indices: Sequence[Any]) -> int:
    """The buffer position of element `indices`, which must be in bounds.

    One pass computes the position and checks the bounds: this runs once per
    scalar load and store, the bulk of a loop nest's work.
    """
    position = memref.offset
    for i, extent, stride in zip(indices, memref.shape, memref.strides, strict=True):
        i = int(i)
        if not 0 <= i < extent:
            checked_index(op, memref, indices)  # raises, naming the whole index
        position += i * stride
    return position


def load_element(op: Operation, memref: MemRefValue, indices: Sequence[Any]) -> Any:
    """Element `indices` of `memref` (which something must have written).

    Array indices (a vectorised `linalg.generic` body) gather an array of
    elements.
    """
    buffer = memref.buffer
    if buffer.freed:
        check_live(op, memref)
    for i in indices:
        if isinstance(i, np.ndarray) and i.ndim:
            return _gather(op, memref, indices)
    position = _position(op, memref, indices)
    if not buffer.written[position]:
        raise unwritten_read(op, memref, [int(i) for i in indices])
    return buffer.data[position]


def store_element(
    op: Operation, memref: MemRefValue, indices: Sequence[Any], value: Any
) -> None:
    buffer = memref.buffer
    if buffer.freed or buffer.constant:
        check_writable(op, memref)
    position = _position(op, memref, indices)
    buffer.data[position] = value
    buffer.written[position] = True


# --------------------------------------------------------------------------
# Allocation
# --------------------------------------------------------------------------


def _allocate_for(op: Operation, args: Values, **flags: bool) -> MemRefValue:
    memref_type = memref_type_of(op)
    dynamic_count = sum(1 for s in memref_type.get_shape() if s == DYNAMIC_INDEX)
    shape = merge_static_dynamic(memref_type.get_shape(), args[:dynamic_count])
    if any(size < 0 for size in shape):
        raise interpretation_error(op, f"allocates a negative size: {shape}")
    return allocate(memref_type, origin_of(op), shape, **flags)


@register("memref.alloc")
def alloc(interp: Interpreter, op: Operation, args: Values) -> Values:
    _ = cast(AllocOp, op)
    return (_allocate_for(op, args, heap=True),)


@register("memref.alloca")
def alloca(interp: Interpreter, op: Operation, args: Values) -> Values:
    if interp.grid is not None:
        # In a kernel, each thread's alloca is its own (private memory).
        return (interp.grid.scoped_memref(memref_type_of(op), origin_of(op), True),)
    value = _allocate_for(op, args)
    scopes: list[list[Buffer]] = interp.state.get(_ALLOCA_SCOPES, [])
    if scopes:
        scopes[-1].append(value.buffer)
    return (value,)


@register("memref.alloca_scope")
def alloca_scope(interp: Interpreter, op: Operation, args: Values) -> Values:
    """Run the body; the buffers its allocas made are freed when it ends."""
    scope_op = cast(AllocaScopeOp, op)
    scopes: list[list[Buffer]] = interp.state.setdefault(_ALLOCA_SCOPES, [])
    scopes.append([])
    try:
        results = interp.run_block(scope_op.scope.block, [], interp.nested_scope())
    finally:
        for buffer in scopes.pop():
            buffer.freed = True
    return results


@register("memref.dealloc")
def dealloc(interp: Interpreter, op: Operation, args: Values) -> Values:
    memref = as_memref(op, args[0])
    buffer = memref.buffer
    if buffer.freed:
        raise interpretation_error(
            op, f"frees a buffer that was already freed ({buffer.origin})"
        )
    if not buffer.heap:
        raise interpretation_error(
            op, f"frees a buffer that memref.alloc did not allocate ({buffer.origin})"
        )
    buffer.freed = True
    return ()


def _global_buffer(interp: Interpreter, op: Operation, name: str) -> MemRefValue:
    """The module's `memref.global @name`, created on first use in this run."""
    globals_: dict[str, MemRefValue] = interp.state.setdefault(_GLOBALS, {})
    if name in globals_:
        return globals_[name]
    declaration = next(
        (
            candidate
            for candidate in interp.module.walk()
            if isinstance(candidate, GlobalOp) and candidate.sym_name.data == name
        ),
        None,
    )
    if declaration is None:
        raise interpretation_error(op, f"refers to no memref.global named @{name}")
    memref_type = cast(MemRefType[Attribute], declaration.type)
    value = allocate(
        memref_type,
        f"memref.global @{name}",
        constant=declaration.constant is not None,
    )
    initial = declaration.initial_value
    if isinstance(initial, DenseIntOrFPElementsAttr):
        value.array()[...] = dense_to_array(initial).reshape(value.shape)
        value.written_mask()[...] = True
    globals_[name] = value
    return value


@register("memref.get_global")
def get_global(interp: Interpreter, op: Operation, args: Values) -> Values:
    name = cast(GetGlobalOp, op).name_.root_reference.data
    value = _global_buffer(interp, op, name)
    check_view(op, value, op.results[0].type)
    return (value,)


# --------------------------------------------------------------------------
# Element access
# --------------------------------------------------------------------------


@register("memref.load")
def load(interp: Interpreter, op: Operation, args: Values) -> Values:
    memref = as_memref(op, args[0])
    if interp.grid is not None:
        value = interp.grid.load(op, memref, args[1:])
    else:
        value = load_element(op, memref, args[1:])
    # The buffer's NumPy scalar has the element type already; `index` is int
    # (an array of them, int64, when gathered).
    if isinstance(value, np.ndarray):
        return (value,)
    memref_type = cast("MemRefType[Attribute]", op.operands[0].type)
    return (int(value) if isinstance(memref_type.element_type, IndexType) else value,)


def memref_type_of_operand(op: Operation, index: int) -> MemRefType[Attribute]:
    return cast(MemRefType[Attribute], op.operands[index].type)


@register("memref.store")
def store(interp: Interpreter, op: Operation, args: Values) -> Values:
    value, memref, *indices = args
    if interp.grid is not None:
        interp.grid.store(op, as_memref(op, memref), indices, value)
    else:
        store_element(op, as_memref(op, memref), indices, value)
    return ()


def _unsigned(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """`fn` on the operands' bits read as unsigned, result in the signed dtype."""

    def apply(old: Any, new: Any) -> Any:
        dtype = np.asarray(old).dtype
        udtype = unsigned_dtype(dtype)
        result = fn(np.asarray(old).view(udtype), np.asarray(new).view(udtype))
        return np.asarray(result, udtype).view(dtype)[()]

    return apply


# arith::AtomicRMWKind, by value (mlir/Dialect/Arith/IR/ArithBase.td).
_ATOMIC_KINDS: dict[int, tuple[str, Callable[[Any, Any], Any]]] = {
    0: ("addf", np.add),
    1: ("addi", np.add),
    2: ("assign", lambda old, new: new),
    3: ("maximumf", np.maximum),
    4: ("maxs", np.maximum),
    5: ("maxu", _unsigned(np.maximum)),
    6: ("minimumf", np.minimum),
    7: ("mins", np.minimum),
    8: ("minu", _unsigned(np.minimum)),
    9: ("mulf", np.multiply),
    10: ("muli", np.multiply),
    11: ("ori", np.bitwise_or),
    12: ("andi", np.bitwise_and),
}


@register("memref.atomic_rmw")
def atomic_rmw(interp: Interpreter, op: Operation, args: Values) -> Values:
    """Store `kind(old, value)` and return the old value."""
    kind = cast(AtomicRMWOp, op).kind.value.data
    if kind not in _ATOMIC_KINDS:
        raise interpretation_error(op, f"has an unknown kind {kind}")
    value, memref_value, *indices = args
    memref = as_memref(op, memref_value)
    element_type = memref_type_of_operand(op, 1).get_element_type()
    if interp.grid is not None:
        combine = _ATOMIC_KINDS[kind][1]
        old_values = interp.grid.atomic(op, memref, indices, value, combine)
        return (to_value(old_values, element_type),)
    old = load_element(op, memref, indices)
    dtype = memref.dtype
    new = np.asarray(_ATOMIC_KINDS[kind][1](old, value)).astype(dtype)[()]
    store_element(op, memref, indices, new)
    return (scalar(old, element_type),)


@register("memref.copy")
def copy(interp: Interpreter, op: Operation, args: Values) -> Values:
    """Copy the elements and which of them were written (an unwritten element
    copies as unwritten: reading it later is what gets reported)."""
    source, target = (as_memref(op, arg) for arg in args)
    check_live(op, source)
    check_writable(op, target)
    if source.shape != target.shape:
        raise interpretation_error(
            op,
            f"copies a memref of sizes {list(source.shape)} into one of sizes "
            f"{list(target.shape)}",
        )
    # Copy through temporaries: the two views may overlap.
    target.array()[...] = source.array().copy()
    target.written_mask()[...] = source.written_mask().copy()
    return ()


# --------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------


@register("memref.cast", "memref.memory_space_cast", "memref.assume_alignment")
def cast_(interp: Interpreter, op: Operation, args: Values) -> Values:
    """Same buffer, same view; a static result type must describe it."""
    memref = as_memref(op, args[0])
    check_view(op, memref, op.results[0].type)
    return (memref,)


def _reduced_dims(
    op: Operation,
    sizes: Sequence[int],
    strides: Sequence[int],
    result_type: MemRefType[Attribute],
) -> set[int]:
    """The unit dimensions a rank-reducing subview drops, chosen so that the
    kept ones match the result type's static sizes and strides."""
    result_shape = result_type.get_shape()
    dropped_count = len(sizes) - len(result_shape)
    if dropped_count == 0:
        return set()
    units = [dim for dim, size in enumerate(sizes) if size == 1]
    for dropped in itertools.combinations(units, dropped_count):
        kept = [dim for dim in range(len(sizes)) if dim not in dropped]
        kept_sizes = [sizes[dim] for dim in kept]
        layout = expected_layout(result_type, kept_sizes)
        want_strides = layout[1] if layout is not None else [None] * len(kept)
        if all(
            want_size in (DYNAMIC_INDEX, sizes[dim])
            and (sizes[dim] == 1 or want in (None, DYNAMIC_INDEX, strides[dim]))
            for dim, want_size, want in zip(
                kept, result_shape, want_strides, strict=True
            )
        ):
            return set(dropped)
    raise interpretation_error(
        op,
        f"cannot drop unit dimensions of sizes {list(sizes)} to get {result_type}",
    )


@register("memref.subview")
def subview(interp: Interpreter, op: Operation, args: Values) -> Values:
    sub = cast(SubviewOp, op)
    source = as_memref(op, args[0])
    counts = (len(sub.offsets), len(sub.sizes), len(sub.strides))
    dynamic = list(args[1:])
    if any(isinstance(value, np.ndarray) for value in dynamic):
        return (_lane_subview(interp, op, source, dynamic, counts),)
    offsets = merge_static_dynamic(
        sub.static_offsets.get_values(), dynamic[: counts[0]]
    )
    sizes = merge_static_dynamic(
        sub.static_sizes.get_values(), dynamic[counts[0] : counts[0] + counts[1]]
    )
    steps = merge_static_dynamic(
        sub.static_strides.get_values(), dynamic[counts[0] + counts[1] :]
    )
    for dim, (offset, size, step, extent) in enumerate(
        zip(offsets, sizes, steps, source.shape, strict=True)
    ):
        last = offset + (size - 1) * step
        if size < 0 or offset < 0 or (size > 0 and not 0 <= last < extent):
            raise interpretation_error(
                op,
                f"takes elements {offset} to {last} (step {step}) of dimension "
                f"{dim}, which has {extent}",
            )
    start = source.offset + sum(
        o * s for o, s in zip(offsets, source.strides, strict=True)
    )
    strides = [step * s for step, s in zip(steps, source.strides, strict=True)]
    result_type = memref_type_of(op)
    dropped = _reduced_dims(op, sizes, strides, result_type)
    kept = [dim for dim in range(len(sizes)) if dim not in dropped]
    value = source.view(start, [sizes[d] for d in kept], [strides[d] for d in kept])
    check_view(op, value, result_type)
    return (value,)


def _lane_subview(
    interp: Interpreter,
    op: Operation,
    source: MemRefValue,
    dynamic: list[Any],
    counts: tuple[int, int, int],
) -> MemRefValue:
    """A subview whose offsets differ between the threads of a GPU kernel.

    Sizes and strides must be the same in every thread; each active thread's
    slice must lie inside the source. The per-thread part of the offset goes
    to the view's `lanes`.
    """
    grid = interp.grid
    if grid is None or any(
        isinstance(value, np.ndarray) for value in dynamic[counts[0] :]
    ):
        raise interpretation_error(
            op, "takes sizes or strides that differ between threads"
        )
    sub = cast(SubviewOp, op)
    dynamic_offsets = iter(dynamic[: counts[0]])
    offsets: list[Any] = [
        next(dynamic_offsets) if v == DYNAMIC_INDEX else int(v)
        for v in sub.static_offsets.get_values()
    ]
    sizes = merge_static_dynamic(
        sub.static_sizes.get_values(), dynamic[counts[0] : counts[0] + counts[1]]
    )
    steps = merge_static_dynamic(
        sub.static_strides.get_values(), dynamic[counts[0] + counts[1] :]
    )
    start = source.offset
    lanes = source.lanes
    active_lanes = grid.active_lane_numbers()
    for dim, (offset, size, step, extent, stride) in enumerate(
        zip(offsets, sizes, steps, source.shape, source.strides, strict=True)
    ):
        first = np.broadcast_to(
            np.asarray(grid.take(offset), np.int64), active_lanes.shape
        )
        last = first + (size - 1) * step
        outside = (first < 0) | ((size > 0) & ((last < 0) | (last >= extent)))
        if size < 0 or outside.any():
            k = int(np.flatnonzero(outside)[0]) if outside.any() else 0
            raise interpretation_error(
                op,
                f"takes elements {int(first[k])} to {int(last[k])} (step {step}) "
                f"of dimension {dim}, which has {extent}, in "
                f"{grid.describe_lane(int(active_lanes[k]))}",
            )
        if isinstance(offset, np.ndarray):
            part = offset.astype(np.int64) * stride
            lanes = part if lanes is None else lanes + part
        else:
            start += offset * stride
    strides = [step * s for step, s in zip(steps, source.strides, strict=True)]
    result_type = memref_type_of(op)
    dropped = _reduced_dims(op, sizes, strides, result_type)
    kept = [dim for dim in range(len(sizes)) if dim not in dropped]
    return MemRefValue(
        source.buffer,
        start,
        tuple(sizes[d] for d in kept),
        tuple(strides[d] for d in kept),
        lanes,
    )


@register("memref.reinterpret_cast")
def reinterpret_cast(interp: Interpreter, op: Operation, args: Values) -> Values:
    """A view of the source's whole buffer: the offset counts from its start."""
    recast = cast(ReinterpretCastOp, op)
    source = as_memref(op, args[0])
    check_live(op, source)
    counts = (len(recast.offsets), len(recast.sizes))
    dynamic = list(args[1:])
    (offset,) = merge_static_dynamic(
        recast.static_offsets.get_values(), dynamic[: counts[0]]
    )
    sizes = merge_static_dynamic(
        recast.static_sizes.get_values(), dynamic[counts[0] : sum(counts)]
    )
    strides = merge_static_dynamic(
        recast.static_strides.get_values(), dynamic[sum(counts) :]
    )
    value = source.view(offset, sizes, strides)
    check_view(op, value, op.results[0].type)
    return (value,)


def _reassociation(op: Operation) -> list[list[int]]:
    groups = cast(ExpandShapeOp | CollapseShapeOp, op).reassociation
    return [[int(i.value.data) for i in group.data] for group in groups.data]


@register("memref.expand_shape")
def expand_shape(interp: Interpreter, op: Operation, args: Values) -> Values:
    expand = cast(ExpandShapeOp, op)
    source = as_memref(op, args[0])
    shape = merge_static_dynamic(expand.static_output_shape.get_values(), args[1:])
    strides = [0] * len(shape)
    for source_dim, group in enumerate(_reassociation(op)):
        group_size = int(np.prod([shape[d] for d in group], dtype=np.int64))
        if group_size != source.shape[source_dim]:
            raise interpretation_error(
                op,
                f"expands dimension {source_dim} of size {source.shape[source_dim]} "
                f"into sizes {[shape[d] for d in group]}",
            )
        running = source.strides[source_dim]
        for dim in reversed(group):
            strides[dim] = running
            running *= shape[dim]
    value = source.view(source.offset, shape, strides)
    check_view(op, value, op.results[0].type)
    return (value,)


@register("memref.collapse_shape")
def collapse_shape(interp: Interpreter, op: Operation, args: Values) -> Values:
    source = as_memref(op, args[0])
    shape: list[int] = []
    strides: list[int] = []
    for group in _reassociation(op):
        size = int(np.prod([source.shape[d] for d in group], dtype=np.int64))
        # The group's elements must be evenly spaced: each dimension longer
        # than 1 steps over the whole of the ones inside it.
        innermost: int | None = None
        running = 0
        for dim in reversed(group):
            if source.shape[dim] == 1:
                continue
            if innermost is None:
                innermost = source.strides[dim]
            elif source.strides[dim] != running:
                raise interpretation_error(
                    op,
                    f"collapses dimensions {group} that are not contiguous "
                    f"(strides {[source.strides[d] for d in group]})",
                )
            running = source.strides[dim] * source.shape[dim]
        shape.append(size)
        strides.append(innermost if innermost is not None else 1)
    value = source.view(source.offset, shape, strides)
    check_view(op, value, op.results[0].type)
    return (value,)


# --------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------


@register("memref.dim")
def dim(interp: Interpreter, op: Operation, args: Values) -> Values:
    memref = as_memref(op, args[0])
    index = int(args[1])
    if not 0 <= index < len(memref.shape):
        raise interpretation_error(
            op, f"dimension {index} out of rank {len(memref.shape)}"
        )
    return (memref.shape[index],)


@register("memref.rank")
def rank(interp: Interpreter, op: Operation, args: Values) -> Values:
    return (len(as_memref(op, args[0]).shape),)


@register("memref.extract_strided_metadata")
def extract_strided_metadata(
    interp: Interpreter, op: Operation, args: Values
) -> Values:
    """The whole buffer (a rank-0 view at its start), offset, sizes, strides."""
    memref = as_memref(op, args[0])
    base = memref.view(0, (), ())
    return (base, memref.offset, *memref.shape, *memref.strides)
