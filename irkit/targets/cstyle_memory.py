"""Printers of the `memref` ops: views, loads and stores, buffers, copies.

A memref value is a `View` (`irkit.targets.views`) in the emitter's scope,
not a C variable: `subview` (rank-reducing too), `reinterpret_cast`, `cast`,
`expand_shape` and `collapse_shape` only make new views of the same
pointer, with dynamic offsets, sizes and strides held in `int64_t` locals.
A load or store indexes the view's pointer (`p[offset + i * s0 + j]`).
`alloc` is `malloc` with a NULL check (the function returns
`ALLOCATION_FAILURE_STATUS`), `dealloc` is `free`, a static `alloca` of at
most `MAX_STACK_BYTES` a stack array. `copy` is `memcpy` when both sides are
contiguous, else a loop nest over both layouts. Stores and copies into an
input or a constant global are refused: the caller's `const` buffers would
be written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneAttr,
)
from xdsl.ir import Operation

from irkit.analysis.memory import MAX_STACK_BYTES
from irkit.dialects.static_values import constant_int
from irkit.targets.language import width_of
from irkit.targets.views import (
    DYNAMIC,
    Index,
    View,
    index_add,
    index_mul,
    index_text,
)

if TYPE_CHECKING:
    from irkit.targets.cstyle import CStyleEmitter, Printer

# The status a function returns when `malloc` fails (assertions use 1..k).
ALLOCATION_FAILURE_STATUS = -1


def _load(emitter: CStyleEmitter, op: Operation) -> None:
    view = emitter.view_of(op.operands[0], op)
    indices = [emitter.name_of(index) for index in op.operands[1:]]
    emitter.declare(op.results[0], view.element(indices), op)


def stored_element(emitter: CStyleEmitter, op: Operation) -> str:
    """The element a store (`memref.store`, `vector.store`: the value, the
    memref, its indices) writes, as a C lvalue; a read-only buffer (an
    input or a constant) is refused."""
    view = emitter.view_of(op.operands[1], op)
    if view.read_only:
        raise emitter.error(op, "stores to a read-only buffer (an input or a constant)")
    return view.element([emitter.name_of(index) for index in op.operands[2:]])


def _store(emitter: CStyleEmitter, op: Operation) -> None:
    value = emitter.name_of(op.operands[0])
    emitter.writer.line(f"{stored_element(emitter, op)} = {value};")


def _allocation(
    emitter: CStyleEmitter, op: Operation
) -> tuple[MemRefType, str, list[Index]]:
    """The type, element key and sizes of an `alloc`/`alloca` (identity
    layouts only: the buffer is a fresh row-major array)."""
    memref_type = op.results[0].type
    assert isinstance(memref_type, MemRefType)
    if not isinstance(memref_type.layout, NoneAttr):
        raise emitter.error(op, "only identity-layout allocations are supported")
    key = emitter.key_of(memref_type.get_element_type(), op)
    dynamic = [v for v in op.operands if isinstance(v.type, IndexType)]
    sizes = emitter.dynamic_or_static(memref_type.get_shape(), dynamic)
    return memref_type, key, sizes


def _bind_allocation(
    emitter: CStyleEmitter, op: Operation, name: str, key: str, sizes: list[Index]
) -> None:
    """Bind the allocation's result to a row-major view of buffer `name`."""
    strides: list[Index] = []
    stride: Index = 1
    for size in reversed(sizes):
        strides.insert(0, stride)
        stride = emitter.declare_index(f"{name}_stride", index_mul(stride, size))
    emitter.scope.views[op.results[0]] = View(
        name, key, tuple(sizes), tuple(strides), 0, False
    )


def _alloc(emitter: CStyleEmitter, op: Operation) -> None:
    _, key, sizes = _allocation(emitter, op)
    count: Index = 1
    for size in sizes:
        count = index_mul(count, size)
    name = emitter.fresh_name(op.results[0].name_hint or "buffer")
    type_name = emitter.type_name(key)
    count_text = index_text(count)
    if isinstance(count, int):
        bytes_text = f"sizeof({type_name}) * {max(count, 1)}"
    else:
        bytes_text = (
            f"sizeof({type_name}) * (size_t)({count_text} > 0 ? {count_text} : 1)"
        )
    alignment = _alignment(op)
    if alignment is None:
        emitter.writer.line(
            f"{type_name} *{name} = ({type_name} *)malloc({bytes_text});"
        )
        emitter.writer.line(f"if ({name} == NULL) return {ALLOCATION_FAILURE_STATUS};")
    else:
        # C99 has no aligned allocation (`aligned_alloc` is C11): `malloc`
        # enough to round the start up to the boundary, and free that.
        base = emitter.fresh_name(f"{name}_base")
        emitter.writer.line(f"void *{base} = malloc({bytes_text} + {alignment - 1});")
        emitter.writer.line(f"if ({base} == NULL) return {ALLOCATION_FAILURE_STATUS};")
        emitter.writer.line(
            f"{type_name} *{name} = ({type_name} *)(((uintptr_t){base} + "
            f"{alignment - 1}) & ~(uintptr_t){alignment - 1});"
        )
        emitter.scope.allocation_bases[op.results[0]] = base
    _bind_allocation(emitter, op, name, key, sizes)


def _alignment(op: Operation) -> int | None:
    """MLIR's `alignment` of an `alloc`/`alloca` (bytes, a power of two), if any."""
    alignment = op.properties.get("alignment")
    return alignment.value.data if isinstance(alignment, IntegerAttr) else None


def _alloca(emitter: CStyleEmitter, op: Operation) -> None:
    _, key, sizes = _allocation(emitter, op)
    if not all(isinstance(size, int) for size in sizes):
        raise emitter.error(op, "memref.alloca needs a static shape")
    count = int(np.prod([int(s) for s in sizes])) if sizes else 1
    element_bytes = max(width_of(key) // 8, 1)
    if count * element_bytes > MAX_STACK_BYTES:
        raise emitter.error(
            op,
            f"memref.alloca of {count * element_bytes} bytes is too large "
            f"for the stack (limit {MAX_STACK_BYTES})",
        )
    name = emitter.fresh_name(op.results[0].name_hint or "buffer")
    # MLIR's `alignment` (bytes): packed matmul panels start on a cache line.
    alignment = _alignment(op)
    aligned = "" if alignment is None else f" __attribute__((aligned({alignment})))"
    emitter.writer.line(f"{emitter.type_name(key)} {name}[{max(count, 1)}]{aligned};")
    _bind_allocation(emitter, op, name, key, sizes)


def _dealloc(emitter: CStyleEmitter, op: Operation) -> None:
    view = emitter.view_of(op.operands[0], op)
    base = emitter.scope.allocation_bases.get(op.operands[0], view.pointer)
    emitter.writer.line(f"free({base});")


def _get_global(emitter: CStyleEmitter, op: Operation) -> None:
    symbol = op.properties["name"]
    root = getattr(symbol, "root_reference", None)
    name = getattr(root, "data", None)
    if not isinstance(name, str) or name not in emitter.global_views:
        raise emitter.error(op, "refers to a global not defined before it")
    view = emitter.global_views[name]
    # Marks the global used even if no load reads it (-Wunused-variable).
    emitter.writer.line(f"(void){view.pointer};")
    emitter.scope.views[op.results[0]] = view


def _dim(emitter: CStyleEmitter, op: Operation) -> None:
    view = emitter.view_of(op.operands[0], op)
    dimension = constant_int(op.operands[1])
    if dimension is None:
        raise emitter.error(op, "memref.dim needs a constant dimension")
    emitter.declare(op.results[0], index_text(view.sizes[dimension]), op)


def _mixed_values(
    emitter: CStyleEmitter, op: Operation, name: str, operand_name: str
) -> list[Index]:
    """A view op's static list `name` with its dynamic entries taken from the
    operands `operand_name` (offsets, sizes, strides)."""
    static = op.properties[name]
    assert hasattr(static, "get_values")
    return emitter.dynamic_or_static(
        static.get_values(), list(getattr(op, operand_name))
    )


def _cast(emitter: CStyleEmitter, op: Operation) -> None:
    emitter.scope.views[op.results[0]] = emitter.view_of(op.operands[0], op)


def _subview(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.view_of(op.operands[0], op)

    def values(name: str, operand_name: str) -> list[Index]:
        return _mixed_values(emitter, op, name, operand_name)

    offsets = values("static_offsets", "offsets")
    sizes = values("static_sizes", "sizes")
    steps = values("static_strides", "strides")
    hint = op.results[0].name_hint or "view"
    offset: Index = source.offset
    for start, stride in zip(offsets, source.strides, strict=True):
        offset = index_add(offset, index_mul(start, stride))
    offset = emitter.declare_index(f"{hint}_offset", offset)
    strides = [
        emitter.declare_index(f"{hint}_stride", index_mul(stride, step))
        for stride, step in zip(source.strides, steps, strict=True)
    ]
    result_type = op.results[0].type
    assert isinstance(result_type, MemRefType)
    kept = _kept_dimensions(emitter, op, sizes, strides, result_type)
    emitter.scope.views[op.results[0]] = replace(
        source,
        sizes=tuple(sizes[i] for i in kept),
        strides=tuple(strides[i] for i in kept),
        offset=offset,
    )


def _kept_dimensions(
    emitter: CStyleEmitter,
    op: Operation,
    sizes: Sequence[Index],
    strides: Sequence[Index],
    result_type: MemRefType,
) -> list[int]:
    """Which source dimensions a (possibly rank-reducing) subview keeps.

    Only unit dimensions may be dropped; where that is ambiguous the
    result type's static strides decide, else the leftmost unit
    dimensions are dropped (MLIR's choice for identity-like layouts).
    """
    result_shape = result_type.get_shape()
    rank = len(result_shape)
    if rank == len(sizes):
        return list(range(rank))
    result_strides = result_type.get_strides() or [None] * rank
    return _match_dimensions(
        emitter,
        op,
        list(sizes),
        list(strides),
        list(result_shape),
        list(result_strides),
    )


def _match_dimensions(
    emitter: CStyleEmitter,
    op: Operation,
    sizes: list[Index],
    strides: list[Index],
    shape: list[int],
    result_strides: Sequence[int | None],
) -> list[int]:
    def search(source: int, target: int) -> list[int] | None:
        if target == len(shape):
            rest = sizes[source:]
            return [] if all(size == 1 for size in rest) else None
        if source == len(sizes):
            return None
        size, expected = sizes[source], shape[target]
        kept: list[int] | None
        stride_ok = (
            result_strides[target] is None
            or not isinstance(strides[source], int)
            or strides[source] == result_strides[target]
        )
        if (expected == DYNAMIC or size == expected) and stride_ok:
            kept = search(source + 1, target + 1)
            if kept is not None:
                return [source, *kept]
        if size == 1:
            return search(source + 1, target)
        return None

    kept = search(0, 0)
    if kept is None:
        raise emitter.error(op, "cannot tell which dimensions this subview drops")
    return kept


def _reinterpret_cast(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.view_of(op.operands[0], op)

    def values(name: str, operand_name: str) -> list[Index]:
        return _mixed_values(emitter, op, name, operand_name)

    (offset,) = values("static_offsets", "offsets")
    emitter.scope.views[op.results[0]] = replace(
        source,
        sizes=tuple(values("static_sizes", "sizes")),
        strides=tuple(values("static_strides", "strides")),
        offset=offset,
    )


def _reshape(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.view_of(op.operands[0], op)
    groups_attr = op.properties["reassociation"]
    assert isinstance(groups_attr, ArrayAttr)
    groups = [
        [int(dim.value.data) for dim in group.data]
        for group in groups_attr.data
        if isinstance(group, ArrayAttr)
    ]
    result_type = op.results[0].type
    assert isinstance(result_type, MemRefType)
    sizes: list[Index] = []
    strides: list[Index] = []
    if op.name == "memref.collapse_shape":
        for group in groups:
            size: Index = 1
            for dim in group:
                size = index_mul(size, source.sizes[dim])
            sizes.append(size)
            # The group is contiguous: its innermost stride steps it.
            strides.append(source.strides[group[-1]] if group else 1)
    else:
        static = op.properties["static_output_shape"]
        assert hasattr(static, "get_values")
        output = emitter.dynamic_or_static(static.get_values(), list(op.operands[1:]))
        sizes = list(output)
        strides = [0] * len(output)
        for source_dim, group in enumerate(groups):
            stride: Index = source.strides[source_dim]
            for dim in reversed(group):
                strides[dim] = stride
                stride = index_mul(stride, output[dim])
    emitter.scope.views[op.results[0]] = replace(
        source, sizes=tuple(sizes), strides=tuple(strides)
    )


def _copy(emitter: CStyleEmitter, op: Operation) -> None:
    source = emitter.view_of(op.operands[0], op)
    target = emitter.view_of(op.operands[1], op)
    if target.read_only:
        raise emitter.error(
            op, "copies into a read-only buffer (an input or a constant)"
        )
    if source.is_contiguous() and target.is_contiguous():
        count = int(np.prod([int(s) for s in source.sizes])) if source.sizes else 1
        type_name = emitter.type_name(source.element_key)
        emitter.writer.line(
            f"memcpy({target.pointer} + {index_text(target.offset)}, "
            f"{source.pointer} + {index_text(source.offset)}, "
            f"sizeof({type_name}) * {count});"
        )
        return
    _copy_loops(emitter, source, target, [])


def _copy_loops(
    emitter: CStyleEmitter, source: View, target: View, indices: list[str]
) -> None:
    depth = len(indices)
    if depth == len(source.sizes):
        emitter.writer.line(f"{target.element(indices)} = {source.element(indices)};")
        return
    index = emitter.fresh_name(f"i{depth}")
    bound = index_text(source.sizes[depth])
    header = (
        f"for ({emitter.type_name('index')} {index} = 0; {index} < {bound}; "
        f"{index} += 1)"
    )
    with emitter.block(header):
        _copy_loops(emitter, source, target, [*indices, index])


MEMORY_PRINTERS: dict[str, Printer] = {
    "memref.load": _load,
    "memref.store": _store,
    "memref.alloc": _alloc,
    "memref.alloca": _alloca,
    "memref.dealloc": _dealloc,
    "memref.get_global": _get_global,
    "memref.dim": _dim,
    "memref.cast": _cast,
    "memref.subview": _subview,
    "memref.reinterpret_cast": _reinterpret_cast,
    "memref.collapse_shape": _reshape,
    "memref.expand_shape": _reshape,
    "memref.copy": _copy,
}
