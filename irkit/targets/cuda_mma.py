"""CUDA C for the `mma` dialect: PTX inline assembly, one instruction per op.

A fragment is a run of a private array of 16-bit elements (`__half`,
`__nv_bfloat16`) or of floats (`irkit.dialects.mma`). PTX takes 16-bit
operands in pairs, as 32-bit registers: a pair is packed from the elements'
bits into a `uint32_t` (and unpacked after `ldmatrix`) instead of reading the
array through a `uint32_t *`, which would be undefined behaviour in C and
could keep nvcc from putting the array in registers. The packing costs no
instructions once nvcc assigns registers.

A `tf32` product takes f32 fragments: each operand element is converted by
`cvt.rna.tf32.f32` (what `mma.sync {tf32}` means: rounded to TF32, to
nearest, ties away) into the 32-bit register the instruction reads. The
conversions are plain `asm` statements, not `volatile` ones, as CUDA's own
`wmma::__float_to_tf32` is: a pure function of its operand, so nvcc
converts each fragment element once however many products read it.

A warpgroup product (`mma.warpgroup_mma`) is `wgmma.mma_async` with its
operands named by 64-bit matrix descriptors: the bits
`irkit.dialects.mma.operand_descriptor_bits` gives, ORed with the operand's
shared-memory address (`__cvta_generic_to_shared`) >> 4; its accumulators
are `"+f"` operands, one per element of the thread's fragment. A `tf32`
product is `m64nNk8.f32.tf32.tf32` on the f32 tiles as they are (the
tensor cores drop the low mantissa bits; no transpose immediates). The
instruction needs the architecture-specific target (`sm_90a`): the runtime
compiles for `GpuHardware.architecture_specific` when the source uses it
(`uses_architecture_specific_features`). Workgroup buffers a warpgroup
product reads are aligned to the 1024-byte swizzle atom
(`workgroup_alignment`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Operation, SSAValue

from irkit.dialects import mma

if TYPE_CHECKING:
    from irkit.targets.cuda import CudaEmitter

# PTX's name of each 16-bit element type, and CUDA's bit casts for it.
_HALF_TYPES = {
    "f16": ("f16", "__half_as_ushort", "__ushort_as_half"),
    "bf16": ("bf16", "__bfloat16_as_ushort", "__ushort_as_bfloat16"),
}


def _element_key(emitter: CudaEmitter, value: SSAValue, op: Operation) -> str:
    memref_type = value.type
    assert isinstance(memref_type, MemRefType)
    element: Attribute = memref_type.get_element_type()
    return emitter.key_of(element, op)


def _element(
    emitter: CudaEmitter,
    op: Operation,
    memref: SSAValue,
    indices: Sequence[SSAValue],
    offset: int = 0,
) -> str:
    """The lvalue `offset` elements past `memref[indices]` along the last
    dimension."""
    names = [emitter.name_of(index) for index in indices]
    if offset:
        last = names[-1]
        names[-1] = (
            str(int(last) + offset) if last.isdigit() else f"({last} + {offset})"
        )
    return emitter.view_of(memref, op).element(names)


def _half_kind(
    emitter: CudaEmitter, op: Operation, memref: SSAValue
) -> tuple[str, str, str]:
    key = _element_key(emitter, memref, op)
    if key not in _HALF_TYPES:
        raise emitter.error(op, f"cannot use {key} elements in a warp-level product")
    return _HALF_TYPES[key]


def _packed(low: str, high: str, to_bits: str) -> str:
    return f"((uint32_t){to_bits}({low}) | ((uint32_t){to_bits}({high}) << 16))"


def _shared_address(lvalue: str) -> str:
    return f"(uint32_t)__cvta_generic_to_shared(&{lvalue})"


def _ldmatrix(emitter: CudaEmitter, op: Operation) -> None:
    assert isinstance(op, mma.LdMatrixOp)
    source, fragment = op.source[0], op.fragment[0]
    _, _, from_bits = _half_kind(emitter, op, fragment)
    tiles = op.tile_count
    registers = [emitter.fresh_name("matrix") for _ in range(tiles)]
    emitter.writer.line(f"uint32_t {', '.join(registers)};")
    placeholders = ", ".join(f"%{i}" for i in range(tiles))
    trans = ".trans" if op.transposed else ""
    address = _shared_address(_element(emitter, op, source, op.source_indices))
    outputs = ", ".join(f'"=r"({register})' for register in registers)
    emitter.writer.line(
        f'asm volatile("ldmatrix.sync.aligned.m8n8.x{tiles}{trans}.shared.b16 '
        f'{{{placeholders}}}, [%{tiles}];\\n" : {outputs} : "r"({address}));'
    )
    for tile, register in enumerate(registers):
        for half in range(2):
            target = _element(
                emitter, op, fragment, op.fragment_indices, 2 * tile + half
            )
            bits = f"{register} & 0xffffu" if half == 0 else f"{register} >> 16"
            emitter.writer.line(f"{target} = {from_bits}((unsigned short)({bits}));")


def _paired_registers(
    emitter: CudaEmitter,
    op: Operation,
    fragment: SSAValue,
    at: Sequence[SSAValue],
    count: int,
    to_bits: str,
) -> list[str]:
    """The `count` 16-bit elements of a fragment as `count / 2` 32-bit
    register values, each packing an element pair (low element first)."""
    return [
        _packed(
            _element(emitter, op, fragment, at, 2 * i),
            _element(emitter, op, fragment, at, 2 * i + 1),
            to_bits,
        )
        for i in range(count // 2)
    ]


def _tf32_registers(
    emitter: CudaEmitter,
    op: Operation,
    fragment: SSAValue,
    at: Sequence[SSAValue],
    count: int,
) -> list[str]:
    """The `count` f32 elements of a fragment converted to TF32, each in a
    32-bit register value of its own."""
    registers = [emitter.fresh_name("tf32") for _ in range(count)]
    emitter.writer.line(f"uint32_t {', '.join(registers)};")
    for index, register in enumerate(registers):
        element = _element(emitter, op, fragment, at, index)
        emitter.writer.line(
            f'asm("cvt.rna.tf32.f32 %0, %1;\\n" : "=r"({register}) : "f"({element}));'
        )
    return registers


def _placeholders(first: int, count: int) -> str:
    return "{" + ", ".join(f"%{i}" for i in range(first, first + count)) + "}"


def _sync(emitter: CudaEmitter, op: Operation) -> None:
    assert isinstance(op, mma.SyncOp)
    (a, a_at), (b, b_at), (c, c_at) = op.accesses()
    a_count, b_count, c_count = op.fragments
    if op.rounds_to_tf32:
        ptx_type = "tf32"
        registers = [
            *_tf32_registers(emitter, op, a, a_at, a_count),
            *_tf32_registers(emitter, op, b, b_at, b_count),
        ]
        a_registers, b_registers = a_count, b_count
    else:
        ptx_type, to_bits, _ = _half_kind(emitter, op, a)
        registers = [
            *_paired_registers(emitter, op, a, a_at, a_count, to_bits),
            *_paired_registers(emitter, op, b, b_at, b_count, to_bits),
        ]
        a_registers, b_registers = a_count // 2, b_count // 2
    accumulators = [_element(emitter, op, c, c_at, i) for i in range(c_count)]
    m, n, k = op.shape
    d = _placeholders(0, c_count)
    a_operands = _placeholders(c_count, a_registers)
    b_operands = _placeholders(c_count + a_registers, b_registers)
    emitter.writer.line(
        f'asm volatile("mma.sync.aligned.m{m}n{n}k{k}.row.col.f32.{ptx_type}.'
        f'{ptx_type}.f32 {d}, {a_operands}, {b_operands}, {d};\\n"'
    )
    with emitter.writer.indented():
        emitter.writer.line(
            ": " + ", ".join(f'"+f"({value})' for value in accumulators)
        )
        emitter.writer.line(
            ": " + ", ".join(f'"r"({value})' for value in registers) + ");"
        )


def _cp_async(emitter: CudaEmitter, op: Operation) -> None:
    """16 bytes bypass L1 (`.cg`); PTX takes 4 and 8 only through it
    (`.ca`). With `valid_bytes`, PTX's src-size operand: the bytes past it
    are written as zeros."""
    assert isinstance(op, mma.CpAsyncOp)
    destination = _shared_address(
        _element(emitter, op, op.destination[0], op.destination_indices),
    )
    source = _element(emitter, op, op.source[0], op.source_indices)
    size = op.copy_bytes
    cache = "cg" if size == mma.ASYNC_COPY_BYTES else "ca"
    if op.valid_bytes is None:
        emitter.writer.line(
            f'asm volatile("cp.async.{cache}.shared.global [%0], [%1], {size};\\n" '
            f':: "r"({destination}), "l"(&{source}));'
        )
        return
    valid = emitter.name_of(op.valid_bytes)
    emitter.writer.line(
        f'asm volatile("cp.async.{cache}.shared.global [%0], [%1], {size}, %2;\\n" '
        f':: "r"({destination}), "l"(&{source}), "r"((uint32_t)({valid})));'
    )


def _cp_async_commit(emitter: CudaEmitter, op: Operation) -> None:
    emitter.writer.line('asm volatile("cp.async.commit_group;\\n" ::);')


def _cp_async_wait(emitter: CudaEmitter, op: Operation) -> None:
    assert isinstance(op, mma.CpAsyncWaitOp)
    # The wait also orders this thread's later reads after the copies; the
    # memory clobber keeps nvcc from moving shared loads above it.
    emitter.writer.line(
        f'asm volatile("cp.async.wait_group {op.pending_groups};\\n" ::: "memory");'
    )


def _descriptor(
    emitter: CudaEmitter,
    op: Operation,
    tile: SSAValue,
    indices: Sequence[SSAValue],
    transposed: bool,
) -> str:
    """A uint64_t variable holding the descriptor of the operand at
    `tile[indices]`."""
    tile_type = tile.type
    assert isinstance(tile_type, MemRefType)
    bits = mma.operand_descriptor_bits(tile_type, transposed)
    address = _shared_address(_element(emitter, op, tile, indices))
    name = emitter.fresh_name("descriptor")
    emitter.writer.line(
        f"uint64_t {name} = {bits:#x}ull | (uint64_t)(({address} & "
        f"{mma.DESCRIPTOR_ADDRESS_MASK:#x}u) >> 4);"
    )
    return name


def _warpgroup_mma(emitter: CudaEmitter, op: Operation) -> None:
    assert isinstance(op, mma.WarpgroupMmaOp)
    (a, a_at), (b, b_at), (d, d_at) = op.accesses()
    ptx_type = "tf32" if op.reads_tf32 else _half_kind(emitter, op, a)[0]
    n = op.columns
    count = mma.warpgroup_accumulator_count(n)
    a_descriptor = _descriptor(emitter, op, a, a_at, transposed=False)
    b_descriptor = _descriptor(emitter, op, b, b_at, op.b_transposed)
    accumulators = [_element(emitter, op, d, d_at, i) for i in range(count)]
    # imm-scale-a, imm-scale-b, then (16-bit types only: PTX has none for
    # tf32) imm-trans-a, imm-trans-b.
    immediates = "1, 1" if op.reads_tf32 else f"1, 1, 0, {int(op.b_transposed)}"
    # D = A B + D: the scale-d predicate set (PTX takes a predicate only).
    lines = [
        "{",
        ".reg .pred accumulate;",
        f"setp.ne.b32 accumulate, %{count + 2}, 0;",
        f"wgmma.mma_async.sync.aligned.m{mma.WARPGROUP_M}n{n}k{op.depth}"
        f".f32.{ptx_type}.{ptx_type} {_placeholders(0, count)}, %{count}, "
        f"%{count + 1}, accumulate, {immediates};",
        "}",
    ]
    emitter.writer.line("asm volatile(")
    with emitter.writer.indented():
        for line in lines:
            emitter.writer.line(f'"{line}\\n"')
        _operand_lines(emitter, [f'"+f"({value})' for value in accumulators])
        emitter.writer.line(
            f': "l"({a_descriptor}), "l"({b_descriptor}), "r"(1) : "memory");'
        )


def _warpgroup_fence(emitter: CudaEmitter, op: Operation) -> None:
    emitter.writer.line('asm volatile("wgmma.fence.sync.aligned;\\n" ::: "memory");')


def _warpgroup_commit(emitter: CudaEmitter, op: Operation) -> None:
    emitter.writer.line(
        'asm volatile("wgmma.commit_group.sync.aligned;\\n" ::: "memory");'
    )


def _warpgroup_wait(emitter: CudaEmitter, op: Operation) -> None:
    """The wait, with every accumulator element an `"+f"` operand: no read
    of a product's result is moved above it, no write below."""
    assert isinstance(op, mma.WarpgroupWaitOp)
    elements: list[str] = []
    for accumulator in op.accumulators:
        memref_type = accumulator.type
        assert isinstance(memref_type, MemRefType)
        view = emitter.view_of(accumulator, op)
        for index in itertools.product(*(range(n) for n in memref_type.get_shape())):
            elements.append(view.element([str(i) for i in index]))
    instruction = f'"wgmma.wait_group.sync.aligned {op.pending_groups};\\n"'
    if not elements:
        emitter.writer.line(f'asm volatile({instruction} ::: "memory");')
        return
    emitter.writer.line(f"asm volatile({instruction}")
    with emitter.writer.indented():
        _operand_lines(emitter, [f'"+f"({element})' for element in elements])
        emitter.writer.line(':: "memory");')


def _operand_lines(emitter: CudaEmitter, operands: Sequence[str]) -> None:
    """`: operands`, eight a line."""
    for first in range(0, len(operands), 8):
        prefix = ": " if first == 0 else "  "
        comma = "," if first + 8 < len(operands) else ""
        emitter.writer.line(prefix + ", ".join(operands[first : first + 8]) + comma)


def _fence_proxy_async(emitter: CudaEmitter, op: Operation) -> None:
    emitter.writer.line(
        'asm volatile("fence.proxy.async.shared::cta;\\n" ::: "memory");'
    )


def _barrier_address(emitter: CudaEmitter, op: Operation) -> str:
    assert isinstance(
        op, mma.MbarrierInitOp | mma.MbarrierArriveExpectTxOp | mma.MbarrierWaitOp
    )
    return _shared_address(_element(emitter, op, op.barriers[0], op.barrier_indices))


def _mbarrier_init(emitter: CudaEmitter, op: Operation) -> None:
    """The init, then the fence that makes it visible to the async proxy
    (the TMA unit) once a barrier follows, as CUTLASS's
    `fence_barrier_init`."""
    assert isinstance(op, mma.MbarrierInitOp)
    emitter.writer.line(
        f'asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\\n" :: '
        f'"r"({_barrier_address(emitter, op)}), "r"({op.arrivals}) : "memory");'
    )
    emitter.writer.line(
        'asm volatile("fence.mbarrier_init.release.cluster;\\n" ::: "memory");'
    )


def _mbarrier_arrive_expect_tx(emitter: CudaEmitter, op: Operation) -> None:
    assert isinstance(op, mma.MbarrierArriveExpectTxOp)
    emitter.writer.line(
        f'asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\\n" '
        f':: "r"({_barrier_address(emitter, op)}), "r"({op.expected_bytes}) '
        ': "memory");'
    )


def _mbarrier_wait(emitter: CudaEmitter, op: Operation) -> None:
    """`try_wait` in a loop; the braces scope the label, so the wait may be
    printed more than once in a kernel."""
    assert isinstance(op, mma.MbarrierWaitOp)
    parity = emitter.name_of(op.parity[0])
    lines = [
        "{",
        ".reg .pred complete;",
        "irkit_wait:",
        "mbarrier.try_wait.parity.shared::cta.b64 complete, [%0], %1;",
        "@!complete bra irkit_wait;",
        "}",
    ]
    emitter.writer.line("asm volatile(")
    with emitter.writer.indented():
        for line in lines:
            emitter.writer.line(f'"{line}\\n"')
        emitter.writer.line(
            f':: "r"({_barrier_address(emitter, op)}), "r"((uint32_t)({parity})) '
            ': "memory");'
        )


def _tma_load(emitter: CudaEmitter, op: Operation) -> None:
    """The copy through the kernel's tensor map of its source
    (`CudaEmitter.tensor_maps`); coordinates innermost first, as PTX and
    the driver count them."""
    assert isinstance(op, mma.TmaLoadOp)
    source = op.source[0]
    tensor_map = emitter.tensor_maps.get(source)
    if tensor_map is None:
        raise emitter.error(op, "a tma_load source must be a kernel argument")
    destination = _shared_address(
        _element(emitter, op, op.destination[0], op.destination_indices)
    )
    barrier = _shared_address(_element(emitter, op, op.barriers[0], op.barrier_indices))
    coordinates = [
        f'"r"((int32_t)({emitter.name_of(index)}))'
        for index in reversed(op.source_indices)
    ]
    rank = len(coordinates)
    placeholders = ", ".join(f"%{3 + k}" for k in range(rank))
    instruction = (
        f"cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::"
        f"complete_tx::bytes [%0], [%1, {{{placeholders}}}], [%2];"
    )
    emitter.writer.line(
        f'asm volatile("{instruction}\\n" :: "r"({destination}), '
        f'"l"(&{tensor_map}), "r"({barrier}), {", ".join(coordinates)} : "memory");'
    )


# Ops that only the architecture-specific target (`sm_90a`) compiles.
ARCHITECTURE_SPECIFIC_OPS = frozenset(
    {
        "mma.warpgroup_mma",
        "mma.warpgroup_fence",
        "mma.warpgroup_commit",
        "mma.warpgroup_wait",
    }
)
# The PTX the printer writes for them, by which the runtime recognises a
# source that needs the architecture-specific target.
ARCHITECTURE_SPECIFIC_MARKER = "wgmma."


def uses_architecture_specific_features(source: str) -> bool:
    """Whether printed CUDA C needs the architecture-specific target."""
    return ARCHITECTURE_SPECIFIC_MARKER in source


def workgroup_alignment(buffer: SSAValue) -> int:
    """The bytes a workgroup buffer must be aligned to: a swizzle atom when a
    warpgroup product reads it, else 16 (one `ld.shared.v4`)."""
    if any(
        isinstance(use.operation, mma.WarpgroupMmaOp | mma.TmaLoadOp)
        for use in buffer.uses
    ):
        return mma.SWIZZLE_ATOM_BYTES
    return 16


MMA_PRINTERS: dict[str, Callable[[CudaEmitter, Operation], None]] = {
    "mma.ldmatrix": _ldmatrix,
    "mma.sync": _sync,
    "mma.cp_async": _cp_async,
    "mma.cp_async_commit": _cp_async_commit,
    "mma.cp_async_wait": _cp_async_wait,
    "mma.warpgroup_mma": _warpgroup_mma,
    "mma.warpgroup_fence": _warpgroup_fence,
    "mma.warpgroup_commit": _warpgroup_commit,
    "mma.warpgroup_wait": _warpgroup_wait,
    "mma.fence_proxy_async": _fence_proxy_async,
    "mma.mbarrier_init": _mbarrier_init,
    "mma.mbarrier_arrive_expect_tx": _mbarrier_arrive_expect_tx,
    "mma.mbarrier_wait": _mbarrier_wait,
    "mma.tma_load": _tma_load,
}
