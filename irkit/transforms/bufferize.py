"""`bufferize`: tensors to memrefs in destination-passing style, results as
output buffers (the calling convention of `docs/abi.md`).

xDSL has no bufferization; this pass is irkit's, in the spirit of MLIR's
One-Shot Bufferize (`mlir/lib/Dialect/Bufferization/Transforms/`) restricted to
straight-line functions with static shapes. Each tensor value is given a
buffer: a memref that holds its elements from its definition to its last use.

Contract
--------
Input: a module of `func.func`s with one block each whose tensors have static
shapes, using only linalg structured ops on tensors (`linalg.generic` and the
named ops with `ins`/`outs`; `linalg.map`/`reduce`/`broadcast` need
`linalg-generalize-named-ops` first), `tensor.empty`, `tensor.extract_slice`,
`tensor.insert_slice`, `tensor.pad` (static pads, a body yielding a value
defined outside it or a constant), `tensor.expand_shape`,
`tensor.collapse_shape`, `tensor.concat`, `tensor.extract` (also inside linalg
bodies), `tensor.cast` between static types, `arith.constant` of dense tensors
(`dense_resource` included), scalar ops, `cf.assert`, `func.call` of functions
of the module and `func.return`. Functions return tensors only. Anything else
that touches a tensor is rejected with a located error naming the op.

Output: no tensors anywhere. Every function follows the ABI: tensor arguments
are identity-layout memrefs the function only reads, results are trailing
`{irkit.output}` memref arguments written by the function, and nothing is
returned (calls allocate, or pass down, their callee's outputs).

- linalg ops run on memrefs (no results). An op writes into the buffer of its
  init ("in place") when that is provably safe: the buffer is neither an input
  argument nor a constant global, no value in the same allocation (the init
  itself, views of it, values computed in place into it) is read later or by
  another operand of the op, and an output buffer is written only by the ops
  whose result it is destined for. Otherwise the op gets a new buffer, into
  which the init is copied only when the body reads it.
- A value that flows into a result (through linalg inits, `insert_slice`
  destinations, or as the result of `tensor.empty`/`pad`/`concat`/`func.call`)
  is built directly in that output buffer; `memref.copy` into an output
  happens only when needed (a returned argument, constant or view, a value
  returned twice, a chain that had to leave its buffer).
- `extract_slice` is a `memref.subview` (exact strided layout, rank-reducing
  slices included); `insert_slice` a subview of the destination's buffer and
  a copy; `expand_shape`/`collapse_shape` are memref views (of a contiguous
  copy when the source is strided); `pad` fills a buffer with `linalg.fill`
  and copies the source into its interior; `concat` copies each operand into
  a subview; `extract` is `memref.load`; dense constants become
  `memref.global "private" constant @__constant_<n>` (one per distinct value)
  read through `memref.get_global`, never written.
- Every `memref.alloc` is freed by a `memref.dealloc` after its last use,
  views included; output buffers and globals are never freed.

Preserves: what every function computes (checked by
`tests/properties/test_bufferize.py`), the order of the remaining ops, scalar
code, `cf.assert`s and source locations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects import tensor as upstream_tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    DictionaryAttr,
    FunctionType,
    MemRefType,
    ModuleOp,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
    UnrankedTensorType,
    i64,
)
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.dialects.linalg.attrs import IteratorType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass

from irkit.abi import output_attrs
from irkit.diagnostics import IRKitError, op_error
from irkit.dialects import linalg, memref
from irkit.dialects.tensor import reassociation_groups
from irkit.interpreter.values import dense_resource_to_array

# --------------------------------------------------------------------------
# Types and layouts
# --------------------------------------------------------------------------


def _is_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType | UnrankedTensorType)


def _touches_tensors(op: Operation) -> bool:
    """Whether `op` itself has a tensor operand or result."""
    return any(_is_tensor(v) for v in (*op.operands, *op.results))


def _memref_type(tensor_type: Attribute) -> MemRefType[Attribute]:
    """The identity-layout memref holding a value of `tensor_type`."""
    shaped = cast(TensorType[Attribute], tensor_type)
    return MemRefType(shaped.get_element_type(), shaped.get_shape())


def _row_major_strides(shape: Sequence[int]) -> list[int]:
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.insert(0, running)
        running *= size
    return strides


def _has_identity_layout(memref_type: Attribute) -> bool:
    return isinstance(memref_type, MemRefType) and isinstance(
        memref_type.layout, NoneAttr
    )


def _kept_dims(sizes: Sequence[int], slice_shape: Sequence[int]) -> list[int]:
    """The dimensions of a slice of `sizes` that a slice of type `slice_shape`
    keeps: all of them, or all but some unit dimensions (rank reduction).

    Unit dimensions are dropped greedily from the left where the slice type
    does not have them, as MLIR's rank-reduction mask does.
    """
    if len(sizes) == len(slice_shape):
        return list(range(len(sizes)))
    kept: list[int] = []
    for dim, size in enumerate(sizes):
        position = len(kept)
        if position < len(slice_shape) and slice_shape[position] == size:
            kept.append(dim)
        elif size != 1:
            raise IRKitError(
                f"slice sizes {list(sizes)} do not reduce to {slice_shape}"
            )
    return kept


def _subview_type(
    source: MemRefType[Attribute],
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    slice_shape: Sequence[int],
) -> MemRefType[Attribute]:
    """The exact type of a static subview: `strided<[...], offset: ...>`."""
    source_strides = source.get_strides()
    source_offset = source.get_offset()
    assert source_strides is not None
    assert source_offset is not None
    base_strides = [cast(int, stride) for stride in source_strides]
    offset = source_offset + sum(
        o * s for o, s in zip(offsets, base_strides, strict=True)
    )
    view_strides = [s * step for s, step in zip(base_strides, strides, strict=True)]
    kept = _kept_dims(sizes, slice_shape)
    return MemRefType(
        source.get_element_type(),
        [sizes[dim] for dim in kept],
        StridedLayoutAttr([view_strides[dim] for dim in kept], offset),
    )


def _subview(
    source: SSAValue,
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    slice_shape: Sequence[int],
) -> memref.SubviewOp:
    source_type = cast(MemRefType[Attribute], source.type)
    result_type = _subview_type(source_type, offsets, sizes, strides, slice_shape)
    return memref.SubviewOp.get(source, offsets, sizes, strides, result_type)


def _expanded_type(
    source: MemRefType[Attribute],
    groups: Sequence[Sequence[int]],
    expanded: MemRefType[Attribute],
) -> MemRefType[Attribute]:
    """The type of `memref.expand_shape` of `source` into `expanded`'s shape
    (MLIR's `computeExpandedLayoutMap`): each source dimension's stride goes
    to the innermost dimension of its group, the outer ones step over the
    inner ones. Identity layout when `source` has one."""
    if _has_identity_layout(source):
        return expanded
    source_strides = source.get_strides()
    offset = source.get_offset()
    assert source_strides is not None
    assert offset is not None
    shape = expanded.get_shape()
    strides = [0] * len(shape)
    for source_dim, group in enumerate(groups):
        running = cast(int, source_strides[source_dim])
        for dim in reversed(group):
            strides[dim] = running
            running *= shape[dim]
    if offset == 0 and strides == _row_major_strides(shape):
        return expanded
    return MemRefType(
        expanded.get_element_type(), shape, StridedLayoutAttr(strides, offset)
    )


# --------------------------------------------------------------------------
# Buffers: where a tensor value lives
# --------------------------------------------------------------------------


class RootKind(Enum):
    """What an allocation is, which decides whether it may be written."""

    INPUT = auto()  # a function argument: read only
    OUTPUT = auto()  # an `{irkit.output}` argument
    GLOBAL = auto()  # a constant `memref.global`: read only
    ALLOC = auto()  # a `memref.alloc` of this function


@dataclass(eq=False)
class Root:
    """One allocation; every view of it and every value computed in place
    into it shares it (identity, not value, equality)."""

    kind: RootKind
    output_index: int | None = None

    @property
    def writable(self) -> bool:
        return self.kind in (RootKind.OUTPUT, RootKind.ALLOC)


@dataclass(frozen=True)
class Buffer:
    """A memref holding a tensor value, and the allocation it lies in."""

    value: SSAValue
    root: Root


@dataclass(frozen=True)
class Use:
    """A use of a tensor value, seen from the function's block."""

    position: int  # index of the top-level op containing the use
    user: Operation  # the op using the value (maybe nested in the top-level one)
    operand_index: int
    reads_contents: bool


def _linalg_reads_init(op: LinalgStructuredOperation, output_index: int) -> bool:
    """Whether the body of `op` reads the init of output `output_index`."""
    arg = op.body.block.args[len(op.inputs) + output_index]
    return bool(arg.uses)


def _reads_contents(user: Operation, operand_index: int) -> bool:
    """Whether this use needs the elements of the value, not just its shape.

    The init of a linalg output whose body never reads it is only a shape.
    """
    if isinstance(user, LinalgStructuredOperation):
        output_index = operand_index - len(user.inputs)
        if output_index >= 0:
            return _linalg_reads_init(user, output_index)
    return True


def _reads_same_elements(op: Operation, input_index: int, output_index: int) -> bool:
    """Whether operand `input_index` of `op`, an input, is read at exactly
    the elements operand `output_index` (an output) writes, each before it is
    written: all loops parallel and both indexing maps equal.

    Then the input may live in the output's buffer.
    """
    if not isinstance(op, LinalgStructuredOperation) or input_index >= len(op.inputs):
        return False
    iterators = op.get_iterator_types().data
    if any(it.data != IteratorType.PARALLEL for it in iterators):
        return False
    maps = op.get_indexing_maps().data
    return maps[input_index] == maps[output_index]


# --------------------------------------------------------------------------
# Module-level state: constants and function signatures
# --------------------------------------------------------------------------


@dataclass
class ConstantGlobals:
    """The `memref.global`s of dense constants, one per distinct value."""

    module: ModuleOp
    globals: list[memref.GlobalOp] = field(default_factory=list[memref.GlobalOp])
    by_value: dict[tuple[Attribute, Attribute], str] = field(
        default_factory=dict[tuple[Attribute, Attribute], str]
    )
    taken: set[str] = field(default_factory=set[str])

    def __post_init__(self) -> None:
        for op in self.module.walk():
            name = op.properties.get("sym_name") or op.attributes.get("sym_name")
            if isinstance(name, StringAttr):
                self.taken.add(name.data)

    def symbol_for(self, op: arith.ConstantOp) -> str:
        """The global holding the value of constant `op`, created on demand."""
        tensor_type = op.result.type
        value = _dense_value(op)
        key = (value, tensor_type)
        if key in self.by_value:
            return self.by_value[key]
        index = len(self.globals)
        while f"__constant_{index}" in self.taken:
            index += 1
        name = f"__constant_{index}"
        self.taken.add(name)
        self.by_value[key] = name
        self.globals.append(
            memref.GlobalOp.get(
                StringAttr(name),
                _memref_type(tensor_type),
                value,
                constant=UnitAttr(),
            )
        )
        return name

    def insert_into_module(self) -> None:
        """Put the globals at the top of the module, in creation order."""
        block = self.module.body.block
        for global_op in reversed(self.globals):
            if block.first_op is None:
                block.add_op(global_op)
            else:
                block.insert_op_before(global_op, block.first_op)


def _dense_value(op: arith.ConstantOp) -> DenseIntOrFPElementsAttr:
    """The elements of a dense tensor constant (a `dense_resource` read out)."""
    value = op.value
    if isinstance(value, DenseIntOrFPElementsAttr):
        return value
    if isinstance(value, DenseResourceAttr):
        try:
            array = dense_resource_to_array(value)
        except IRKitError as error:
            raise op_error(op, str(error)) from None
        tensor_type = cast(TensorType[Any], op.result.type)
        flat = array.reshape(-1)
        items = [int(x) for x in flat] if flat.dtype.kind in "biu" else flat.tolist()
        return cast(
            DenseIntOrFPElementsAttr,
            DenseIntOrFPElementsAttr.from_list(tensor_type, items),
        )
    raise op_error(op, f"cannot bufferize a tensor constant of {value}")


@dataclass(frozen=True)
class Signature:
    """A function's signature before bufferization."""

    inputs: tuple[Attribute, ...]
    results: tuple[Attribute, ...]


def _check_signature(op: func.FuncOp) -> Signature:
    """The signature of `op`, if the ABI can express it."""
    inputs = tuple(op.function_type.inputs.data)
    results = tuple(op.function_type.outputs.data)
    for index, result in enumerate(results):
        if not isinstance(result, TensorType):
            raise op_error(
                op,
                f"result #{index} of @{op.sym_name.data} is {result}, not a tensor: "
                "bufferized functions return tensors only, as output buffers",
            )
    for type_ in (*inputs, *results):
        if isinstance(type_, TensorType) and DYNAMIC_INDEX in type_.get_shape():
            raise op_error(op, f"dynamic shapes are not supported: {type_}")
    return Signature(inputs, results)


def _bufferize_signature(op: func.FuncOp, signature: Signature) -> None:
    """Rewrite `op`'s type and argument attributes to the ABI's."""
    inputs = [
        _memref_type(t) if isinstance(t, TensorType) else t for t in signature.inputs
    ]
    outputs = [_memref_type(t) for t in signature.results]
    old_attrs = (
        list(op.arg_attrs.data)
        if op.arg_attrs is not None
        else [DictionaryAttr({}) for _ in inputs]
    )
    op.function_type = FunctionType.from_lists([*inputs, *outputs], [])
    if outputs or op.arg_attrs is not None:
        op.arg_attrs = ArrayAttr([*old_attrs, *(output_attrs() for _ in outputs)])
    op.res_attrs = None


# --------------------------------------------------------------------------
# One function
# --------------------------------------------------------------------------


def _split_empty_tensors(block: Block) -> None:
    """Give each use of a `tensor.empty` its own, right in front of the user.

    An empty tensor has no contents, so a copy per use changes nothing; it
    lets each use get its own buffer (the output buffer, where it flows into a
    result) and allocates it no earlier than needed.
    """
    for op in list(block.ops):
        if not isinstance(op, upstream_tensor.EmptyOp):
            continue
        for use in list(op.tensor.uses):
            user = block.find_ancestor_op_in_block(use.operation)
            assert user is not None
            copy = op.clone()
            block.insert_op_before(copy, user)
            use.operation.operands[use.index] = copy.tensor
        block.erase_op(op)


class FunctionBufferizer:
    """Bufferizes the body of one function (see the module docstring).

    Ops are visited in order; each tensor value gets a `Buffer` when its
    defining op is rewritten. The new ops are inserted in front of the old
    ones, which are erased at the end.
    """

    def __init__(
        self,
        op: func.FuncOp,
        signatures: dict[str, Signature],
        constants: ConstantGlobals,
    ) -> None:
        self.func = op
        self.signatures = signatures
        self.constants = constants
        self.block = op.body.blocks[0]
        self.buffers: dict[SSAValue, Buffer] = {}
        self.aliases: dict[Root, list[SSAValue]] = {}
        self.uses: dict[SSAValue, list[Use]] = {}
        self.position: dict[Operation, int] = {}
        self.destination: dict[SSAValue, int] = {}
        self.outputs: list[Buffer] = []
        self.claimed: set[int] = set()
        self.anchor: Operation | None = None

    # -- analysis ----------------------------------------------------------

    def _collect_uses(self) -> None:
        for position, top in enumerate(self.block.ops):
            self.position[top] = position
            for user in top.walk():
                for index, operand in enumerate(user.operands):
                    if not _is_tensor(operand):
                        continue
                    reads = _reads_contents(user, index) or user is not top
                    self.uses.setdefault(operand, []).append(
                        Use(position, user, index, reads)
                    )

    def _read_after(self, value: SSAValue, position: int) -> bool:
        """Whether `value`'s elements are read by an op after `position`."""
        return any(
            use.position > position and use.reads_contents
            for use in self.uses.get(value, ())
        )

    def _collect_destinations(self, returned: Sequence[SSAValue]) -> None:
        """Which output buffer each value should be built in, if any.

        A returned value's is its result's; a linalg init (or insert_slice
        destination, or cast source) inherits its result's when nothing reads
        it afterwards, which is what makes writing it in place possible.
        """
        for index, value in enumerate(returned):
            self.destination.setdefault(value, index)
        for op in reversed(list(self.block.ops)):
            pairs: list[tuple[SSAValue, SSAValue]] = []
            if isinstance(op, LinalgStructuredOperation) and op.res:
                # (a linalg op on memrefs has no results: nothing to place)
                pairs = list(zip(op.res, op.outputs, strict=True))
            elif isinstance(op, upstream_tensor.InsertSliceOp):
                pairs = [(op.result, op.dest)]
            elif isinstance(op, upstream_tensor.CastOp):
                pairs = [(op.dest, op.source)]  # the same buffer
            for result, init in pairs:
                target = self.destination.get(result)
                if target is None or init in self.destination:
                    continue
                if not self._read_after(init, self.position[op]):
                    self.destination[init] = target

    # -- building ------------------------------------------------------------

    def _insert(self, op: Operation) -> Operation:
        """Insert `op` in front of the op being rewritten, at its location."""
        assert self.anchor is not None
        op.location = self.anchor.location
        self.block.insert_op_before(op, self.anchor)
        return op

    def _bind(self, value: SSAValue, buffer: Buffer) -> None:
        self.buffers[value] = buffer
        self.aliases.setdefault(buffer.root, []).append(value)

    def _buffer(self, value: SSAValue) -> Buffer:
        return self.buffers[value]

    def _alloc(self, memref_type: MemRefType[Attribute]) -> Buffer:
        alloc = memref.AllocOp.get(
            memref_type.get_element_type(), shape=memref_type.get_shape()
        )
        self._insert(alloc)
        return Buffer(alloc.memref, Root(RootKind.ALLOC))

    def _fresh(self, result: SSAValue) -> Buffer:
        """A buffer nothing else lives in, for `result`: its output buffer
        when it flows into one still unused, else a new allocation."""
        index = self.destination.get(result)
        if index is not None and index not in self.claimed:
            self.claimed.add(index)
            return self.outputs[index]
        return self._alloc(_memref_type(result.type))

    def _copy(self, source: SSAValue, target: SSAValue) -> None:
        self._insert(memref.CopyOp(source, target))

    def _contiguous(self, value: SSAValue) -> Buffer:
        """`value`'s buffer, or an identity-layout copy of it if it is strided."""
        buffer = self._buffer(value)
        if _has_identity_layout(buffer.value.type):
            return buffer
        copy = self._alloc(_memref_type(value.type))
        self._copy(buffer.value, copy.value)
        return copy

    def _operand(self, value: SSAValue) -> SSAValue:
        return self._buffer(value).value if _is_tensor(value) else value

    def _can_write_in_place(
        self, op: Operation, init: SSAValue, result: SSAValue, operand_index: int
    ) -> bool:
        """Whether `op` may overwrite `init`'s buffer (its operand
        `operand_index`) to produce `result`.

        The allocation must be writable, an output buffer only by the values
        destined for it; and nothing living in the same allocation may be read
        after `op`, nor by `op` through another operand (except the very
        elements it is about to write, see `_reads_same_elements`).
        """
        init_buffer = self._buffer(init)
        root = init_buffer.root
        if not root.writable:
            return False
        if root.kind is RootKind.OUTPUT and (
            self.destination.get(result) != root.output_index
        ):
            return False
        position = self.position[op]
        for alias in self.aliases[root]:
            if isinstance(alias.owner, upstream_tensor.EmptyOp):
                continue  # no contents to preserve
            if self._read_after(alias, position):
                return False
            for use in self.uses.get(alias, ()):
                if use.position != position or (
                    use.user is op and use.operand_index == operand_index
                ):
                    continue
                same_buffer = self._buffer(alias).value is init_buffer.value
                if not (
                    same_buffer
                    and use.user is op
                    and _reads_same_elements(op, use.operand_index, operand_index)
                ):
                    return False
        return True

    def _rewrite_nested(self, op: Operation) -> None:
        """Rewrite tensor reads inside `op`'s regions (`tensor.extract` of a
        value defined outside) as loads; reject any other tensor use."""
        for region in op.regions:
            for inner in list(region.walk()):
                if isinstance(inner, upstream_tensor.ExtractOp):
                    load = memref.LoadOp.get(
                        self._buffer(inner.tensor).value, inner.indices
                    )
                    assert inner.parent is not None
                    inner.parent.insert_op_before(load, inner)
                    inner.result.replace_all_uses_with(load.res)
                    inner.parent.erase_op(inner)
                elif _touches_tensors(inner):
                    raise op_error(inner, "tensors inside regions are not supported")

    # -- one method per source op ------------------------------------------

    def bufferize_linalg(self, op: Operation) -> None:
        assert isinstance(op, LinalgStructuredOperation)
        if not op.res:
            raise op_error(op, "expected linalg on tensors, not on memrefs")
        self._rewrite_nested(op)
        outputs: list[Buffer] = []
        first_output = len(op.inputs)
        for index, (init, result) in enumerate(zip(op.outputs, op.res, strict=True)):
            if not _is_tensor(init):
                raise op_error(
                    op, "expected tensor outputs (mixed tensors and memrefs)"
                )
            if self._can_write_in_place(op, init, result, first_output + index):
                outputs.append(self._buffer(init))
                continue
            buffer = self._fresh(result)
            if _linalg_reads_init(op, index):
                self._copy(self._buffer(init).value, buffer.value)
            outputs.append(buffer)
        inputs = [self._operand(value) for value in op.inputs]
        new = type(op).create(
            operands=[*inputs, *(b.value for b in outputs)],
            result_types=[],
            properties=dict(op.properties),
            attributes=dict(op.attributes),
            regions=[op.detach_region(region) for region in list(op.regions)],
        )
        self._insert(new)
        for result, buffer in zip(op.res, outputs, strict=True):
            self._bind(result, buffer)

    def bufferize_empty(self, op: Operation) -> None:
        assert isinstance(op, upstream_tensor.EmptyOp)
        if op.tensor.uses:
            self._bind(op.tensor, self._fresh(op.tensor))

    def bufferize_extract_slice(self, op: Operation) -> None:
        assert isinstance(op, upstream_tensor.ExtractSliceOp)
        self._require_static_slice(op)
        source = self._buffer(op.source)
        view = _subview(
            source.value,
            op.static_offsets.get_values(),
            op.static_sizes.get_values(),
            op.static_strides.get_values(),
            op.result.type.get_shape(),
        )
        self._insert(view)
        self._bind(op.result, Buffer(view.result, source.root))

    def bufferize_insert_slice(self, op: Operation) -> None:
        assert isinstance(op, upstream_tensor.InsertSliceOp)
        self._require_static_slice(op)
        if self._can_write_in_place(op, op.dest, op.result, 1):
            target = self._buffer(op.dest)
        else:
            target = self._fresh(op.result)
            self._copy(self._buffer(op.dest).value, target.value)
        view = _subview(
            target.value,
            op.static_offsets.get_values(),
            op.static_sizes.get_values(),
            op.static_strides.get_values(),
            cast(TensorType[Attribute], op.source.type).get_shape(),
        )
        self._insert(view)
        self._copy(self._buffer(op.source).value, view.result)
        self._bind(op.result, target)

    def _require_static_slice(
        self, op: upstream_tensor.ExtractSliceOp | upstream_tensor.InsertSliceOp
    ) -> None:
        if op.offsets or op.sizes or op.strides:
            raise op_error(op, "dynamic offsets, sizes or strides are not supported")

    def bufferize_pad(self, op: Operation) -> None:
        assert isinstance(op, upstream_tensor.PadOp)
        if op.low or op.high:
            raise op_error(op, "dynamic padding is not supported")
        padding = self._padding_value(op)
        target = self._fresh(op.result)
        low = op.static_low.get_values()
        source_shape = cast(TensorType[Attribute], op.source.type).get_shape()
        if source_shape != op.result.type.get_shape():
            self._insert(linalg.FillOp((padding,), (target.value,), ()))
        interior = _subview(
            target.value, low, source_shape, [1] * len(low), source_shape
        )
        self._insert(interior)
        self._copy(self._buffer(op.source).value, interior.result)
        self._bind(op.result, target)

    def _padding_value(self, op: upstream_tensor.PadOp) -> SSAValue:
        """The scalar `op` pads with, made available in front of `op`."""
        yielded = op.region.block.last_op
        assert yielded is not None
        assert len(yielded.operands) == 1
        value = yielded.operands[0]
        if isinstance(value, BlockArgument):
            if value.owner is op.region.block:
                raise op_error(op, "the padding value must not depend on the index")
            return value
        defining = value.owner
        if not op.is_ancestor(defining):
            return value
        if not isinstance(defining, arith.ConstantOp):
            raise op_error(
                op, "the padding value must be a constant or defined outside the body"
            )
        constant = defining.clone()
        self._insert(constant)
        return constant.result

    def bufferize_reshape(self, op: Operation) -> None:
        assert isinstance(
            op, upstream_tensor.ExpandShapeOp | upstream_tensor.CollapseShapeOp
        )
        result_type = _memref_type(op.result.type)
        if isinstance(op, upstream_tensor.ExpandShapeOp):
            # Splitting a dimension never needs contiguity: a strided view
            # (a slice of q, k and v out of one projection) expands in place.
            source = self._buffer(op.src)
            result_type = _expanded_type(
                cast(MemRefType[Attribute], source.value.type),
                reassociation_groups(op.reassociation),
                result_type,
            )
        else:
            source = self._contiguous(op.src)
        if isinstance(op, upstream_tensor.ExpandShapeOp):
            if op.dynamic_output_shape:
                raise op_error(op, "dynamic output shapes are not supported")
            view: Operation = memref.ExpandShapeOp.build(
                operands=[source.value, []],
                result_types=[result_type],
                properties={
                    "reassociation": op.reassociation,
                    "static_output_shape": DenseArrayBase.from_list(
                        i64, result_type.get_shape()
                    ),
                },
            )
        else:
            view = memref.CollapseShapeOp.build(
                operands=[source.value],
                result_types=[result_type],
                properties={"reassociation": op.reassociation},
            )
        self._insert(view)
        self._bind(op.result, Buffer(view.results[0], source.root))

    def bufferize_concat(self, op: Operation) -> None:
        assert isinstance(op, upstream_tensor.ConcatOp)
        target = self._fresh(op.result)
        axis = op.dim.value.data
        shape = op.result.type.get_shape()
        start = 0
        for part in op.inputs:
            part_shape = cast(TensorType[Attribute], part.type).get_shape()
            offsets = [start if dim == axis else 0 for dim in range(len(shape))]
            view = _subview(
                target.value, offsets, part_shape, [1] * len(shape), part_shape
            )
            self._insert(view)
            self._copy(self._buffer(part).value, view.result)
            start += part_shape[axis]
        self._bind(op.result, target)

    def bufferize_extract(self, op: Operation) -> None:
        assert isinstance(op, upstream_tensor.ExtractOp)
        load = memref.LoadOp.get(self._buffer(op.tensor).value, op.indices)
        self._insert(load)
        op.result.replace_all_uses_with(load.res)

    def bufferize_cast(self, op: Operation) -> None:
        assert isinstance(op, upstream_tensor.CastOp)
        if op.source.type != op.dest.type:
            source_shape = cast(TensorType[Attribute], op.source.type).get_shape()
            if source_shape != cast(TensorType[Attribute], op.dest.type).get_shape():
                raise op_error(
                    op, "only casts between equal static shapes are supported"
                )
        self._bind(op.dest, self._buffer(op.source))

    def bufferize_constant(self, op: Operation) -> None:
        assert isinstance(op, arith.ConstantOp)
        name = self.constants.symbol_for(op)
        get = memref.GetGlobalOp(name, _memref_type(op.result.type))
        self._insert(get)
        self._bind(op.result, Buffer(get.memref, Root(RootKind.GLOBAL)))

    def bufferize_call(self, op: Operation) -> None:
        assert isinstance(op, func.CallOp)
        callee = op.callee.root_reference.data
        if callee not in self.signatures:
            raise op_error(op, f"calls only functions of the module, not @{callee}")
        arguments = [
            self._contiguous(value).value if _is_tensor(value) else value
            for value in op.arguments
        ]
        outputs = [self._fresh(result) for result in op.res]
        call = func.CallOp(
            SymbolRefAttr(callee), [*arguments, *(b.value for b in outputs)], []
        )
        self._insert(call)
        for result, buffer in zip(op.res, outputs, strict=True):
            self._bind(result, buffer)

    def bufferize_return(self, op: Operation) -> None:
        """Copy each result not already in its output buffer into it.

        A copy into an output waits for the copies that read from that output
        (a result may be a view of a value built in another output); when all
        wait on each other, one source is first copied to a temporary.
        """
        pending: list[tuple[Buffer, int]] = [
            (self._buffer(value), index)
            for index, value in enumerate(op.operands)
            if self._buffer(value).value is not self.outputs[index].value
        ]
        while pending:
            ready = next(
                (
                    position
                    for position, (_, index) in enumerate(pending)
                    if all(
                        source.root is not self.outputs[index].root
                        for source, _ in pending
                    )
                ),
                None,
            )
            if ready is not None:
                source, index = pending.pop(ready)
                shared = any(other.root is source.root for other, _ in pending)
                if shared or not self._build_in_output(source, index):
                    self._copy(source.value, self.outputs[index].value)
                continue
            # Every copy waits: free one that reads an output.
            position = next(
                position
                for position, (source, _) in enumerate(pending)
                if source.root.kind is RootKind.OUTPUT
            )
            source, index = pending[position]
            temporary = self._alloc(_memref_type(op.operands[index].type))
            self._copy(source.value, temporary.value)
            pending[position] = (temporary, index)
        self._insert(func.ReturnOp())

    def _build_in_output(self, source: Buffer, index: int) -> bool:
        """Make the allocation that `source`, a reshape of it, is a view of
        (the result of a function whose body `linalg-collapse-dims` ran on
        fewer dimensions: a convolution's `N x F x OH*OW` expanded to
        `N x F x OH x OW`) a view of output `index` instead, so nothing is
        copied; whether it did.

        Only for an output nothing was built in (`claimed`): the function
        then touches it nowhere else, and writing the allocation's
        intermediate values into it early is not seen by anyone, since
        outputs alias no other argument and the allocation's last contents
        are the result."""
        if source.root.kind is not RootKind.ALLOC or index in self.claimed:
            return False
        chain: list[Operation] = []
        value = source.value
        while isinstance(value.owner, memref.ExpandShapeOp | memref.CollapseShapeOp):
            chain.append(value.owner)
            value = value.owner.src
        alloc = value.owner
        if not chain or not isinstance(alloc, memref.AllocOp):
            return False
        views: list[Operation] = []
        view_value = self.outputs[index].value
        for reshape in chain:  # each undone, outermost first
            assert isinstance(reshape, memref.ExpandShapeOp | memref.CollapseShapeOp)
            inverse_type = reshape.src.type
            if not _has_identity_layout(view_value.type) or not _has_identity_layout(
                inverse_type
            ):
                return False
            assert isinstance(inverse_type, MemRefType)
            if isinstance(reshape, memref.ExpandShapeOp):
                inverse: Operation = memref.CollapseShapeOp.build(
                    operands=[view_value],
                    result_types=[inverse_type],
                    properties={"reassociation": reshape.reassociation},
                )
            else:
                inverse = memref.ExpandShapeOp.build(
                    operands=[view_value, []],
                    result_types=[inverse_type],
                    properties={
                        "reassociation": reshape.reassociation,
                        "static_output_shape": DenseArrayBase.from_list(
                            i64, inverse_type.get_shape()
                        ),
                    },
                )
            views.append(inverse)
            view_value = inverse.results[0]
        if view_value.type != alloc.memref.type:
            return False
        for view in views:
            view.location = alloc.location
            self.block.insert_op_before(view, alloc)
        alloc.memref.replace_all_uses_with(view_value)
        self.block.erase_op(alloc)
        self.claimed.add(index)
        return True

    # -- driver ----------------------------------------------------------------

    def run(self, signature: Signature) -> None:
        """Bufferize the body; `signature` is the function's before the pass."""
        if len(self.func.body.blocks) != 1:
            raise op_error(self.func, "functions with several blocks are not supported")
        _check_static_shapes(self.func)
        _split_empty_tensors(self.block)
        self._collect_uses()
        terminator = self.block.last_op
        assert isinstance(terminator, func.ReturnOp)
        self._collect_destinations(terminator.operands)

        tensor_args = [arg for arg in self.block.args if _is_tensor(arg)]
        for arg in tensor_args:
            new_arg = self.block.insert_arg(_memref_type(arg.type), arg.index)
            new_arg.name_hint = arg.name_hint
            self._bind(arg, Buffer(new_arg, Root(RootKind.INPUT)))
        for index, result_type in enumerate(signature.results):
            output = self.block.insert_arg(
                _memref_type(result_type), len(self.block.args)
            )
            output.name_hint = "out"
            self.outputs.append(Buffer(output, Root(RootKind.OUTPUT, index)))

        replaced: list[Operation] = []
        for op in list(self.block.ops):
            handler = self._handler(op)
            if handler is None:
                if any(_touches_tensors(inner) for inner in op.walk()):
                    raise op_error(op, "is not supported on tensors")
                continue
            self.anchor = op
            handler(op)
            replaced.append(op)
        for op in reversed(replaced):
            self.block.erase_op(op)
        for arg in tensor_args:
            self.block.erase_arg(arg)
        insert_deallocations(self.block)

    def _handler(self, op: Operation) -> Callable[[Operation], None] | None:
        """The method rewriting `op`, or None for ops without tensors."""
        if isinstance(op, arith.ConstantOp):
            return self.bufferize_constant if _is_tensor(op.result) else None
        if isinstance(op, LinalgStructuredOperation):
            return self.bufferize_linalg
        if op.name.startswith("linalg.") and _touches_tensors(op):
            raise op_error(
                op,
                "is not a structured op with ins/outs: run "
                "linalg-generalize-named-ops first",
            )
        handlers: dict[type[Operation], Callable[[Operation], None]] = {
            upstream_tensor.EmptyOp: self.bufferize_empty,
            upstream_tensor.ExtractSliceOp: self.bufferize_extract_slice,
            upstream_tensor.InsertSliceOp: self.bufferize_insert_slice,
            upstream_tensor.PadOp: self.bufferize_pad,
            upstream_tensor.ExpandShapeOp: self.bufferize_reshape,
            upstream_tensor.CollapseShapeOp: self.bufferize_reshape,
            upstream_tensor.ConcatOp: self.bufferize_concat,
            upstream_tensor.ExtractOp: self.bufferize_extract,
            upstream_tensor.CastOp: self.bufferize_cast,
            func.CallOp: self.bufferize_call,
            func.ReturnOp: self.bufferize_return,
        }
        return next(
            (method for kind, method in handlers.items() if isinstance(op, kind)),
            None,
        )


def _check_static_shapes(op: func.FuncOp) -> None:
    """Reject the first op of `op` with an unranked or dynamic tensor."""
    for inner in op.walk():
        for value in (*inner.operands, *inner.results):
            if isinstance(value.type, UnrankedTensorType):
                raise op_error(
                    inner, f"unranked tensors are not supported: {value.type}"
                )
            if isinstance(value.type, TensorType) and (
                DYNAMIC_INDEX in value.type.get_shape()
            ):
                raise op_error(inner, f"dynamic shapes are not supported: {value.type}")


# --------------------------------------------------------------------------
# Deallocation
# --------------------------------------------------------------------------

_VIEW_OPS = (
    memref.SubviewOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.CastOp,
)


def insert_deallocations(block: Block) -> None:
    """Free each `memref.alloc` of `block` after the last op of `block` that
    uses it or a view of it; erase allocations nothing uses."""
    position = {op: index for index, op in enumerate(block.ops)}
    for alloc in [op for op in block.ops if isinstance(op, memref.AllocOp)]:
        last: Operation | None = None
        pending: list[SSAValue] = [alloc.memref]
        while pending:
            value = pending.pop()
            for use in value.uses:
                if isinstance(use.operation, _VIEW_OPS):
                    pending.extend(use.operation.results)
                top = block.find_ancestor_op_in_block(use.operation)
                assert top is not None
                if last is None or position[top] > position[last]:
                    last = top
        if last is None:
            block.erase_op(alloc)
            continue
        block.insert_op_after(memref.DeallocOp.get(alloc.memref), last)


# --------------------------------------------------------------------------
# The module and the pass
# --------------------------------------------------------------------------


def bufferize_module(module: ModuleOp) -> None:
    """Bufferize every function of `module` (see the module docstring)."""
    functions = [op for op in module.walk() if isinstance(op, func.FuncOp)]
    signatures = {op.sym_name.data: _check_signature(op) for op in functions}
    constants = ConstantGlobals(module)
    for op in functions:
        signature = signatures[op.sym_name.data]
        if not op.is_declaration:
            FunctionBufferizer(op, signatures, constants).run(signature)
        _bufferize_signature(op, signature)
    constants.insert_into_module()


@dataclass(frozen=True)
class BufferizePass(ModulePass):
    """Tensors to memrefs with destination passing; results become
    `{irkit.output}` buffers (`docs/abi.md`). See the module docstring."""

    name = "bufferize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        bufferize_module(op)
