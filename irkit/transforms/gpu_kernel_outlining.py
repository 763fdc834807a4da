"""`gpu-kernel-outlining`: `gpu.launch` bodies into `gpu.func` kernels.

Mirrors MLIR's `-gpu-kernel-outlining` (`mlir/lib/Dialect/GPU/Transforms/
KernelOutlining.cpp`), with MLIR's `-gpu-launch-sink-index-computations`
folded in, and checks that what stays on the host is a launch plan.

Contract
--------
Input: `func.func`s over memrefs whose work is in single-block, non-async
`gpu.launch`es (what `convert-parallel-loops-to-gpu` produces), next to
`arith.constant`s, `memref.alloc`/`dealloc` of intermediate buffers, views
of buffers (`memref.subview`, `expand_shape`, `collapse_shape`, `cast`,
`reinterpret_cast`), `memref.get_global` and index arithmetic that launches
use. A multi-block or async launch is an error at the op.

Output, for each `gpu.launch` of `@f`, in order:

- a `gpu.module @f_kernel` (MLIR's name; `@f_kernel_0`, `@f_kernel_1`, ...
  for further launches, as MLIR's symbol table renames them) right after
  `@f`, holding `gpu.func @f_kernel(...) kernel`:
  - its inputs are the values the body uses from above, in the order of
    their first use, after sinking: `arith.constant`s, `affine.apply` /
    `min` / `max` of sunk values, views of buffers and `memref.get_global`
    are cloned into the kernel instead of passed (so a kernel receives whole
    buffers, never a view: the launch plan passes pointers to first
    elements, `irkit/targets/cuda.py`);
  - the launch's workgroup and private attributions become the kernel's;
  - the launch's block and thread ids and sizes become `gpu.block_id`,
    `gpu.thread_id`, `gpu.grid_dim`, `gpu.block_dim` (those the body uses)
    at the top of the kernel; `gpu.terminator` becomes `gpu.return`;
  - `gpu.known_block_size` / `gpu.known_grid_size` when the launch's sizes
    are constants;
  - with `min-blocks-per-sm=n` (n > 0), `nvvm.minctasm = n : i32`, MLIR's
    NVVM kernel attribute for "keep `n` blocks of this kernel resident per
    multiprocessor" (the CUDA target prints `__launch_bounds__(threads, n)`,
    which caps the registers a thread may take at 65536 / (threads * n));
    a launch carrying `nvvm.minctasm` itself (its builder knows how many
    registers it needs) keeps its own;
  - a clone of every `memref.global` the kernel reads;
- the launch becomes `gpu.launch_func @f_kernel::@f_kernel blocks in (...)
  threads in (...) args(...)` with the same sizes (and dynamic shared
  memory size);
- the enclosing `builtin.module` gets `gpu.container_module`.

Host code the kernels no longer need (sunk constants and views) is erased,
and so are private `memref.global`s only kernels use. Then every host
`func.func` may hold only `arith.constant`, `memref.alloc`,
`memref.dealloc`, `gpu.launch_func` and `func.return`; anything else is an
error at that op (it would have to run on the host).

Preserves: each launch's grid, block and body, with every value it reads
from above (passed or recomputed identically in the kernel).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr, UnitAttr
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from irkit.diagnostics import op_error
from irkit.dialects import affine, memref
from irkit.dialects.gpu import (
    CONTAINER_MODULE_ATTRIBUTE,
    MIN_BLOCKS_ATTRIBUTE,
    BlockDimOp,
    BlockIdOp,
    FuncOp,
    GridDimOp,
    LaunchFuncOp,
    LaunchOp,
    ReturnOp,
    TerminatorOp,
    ThreadIdOp,
)
from irkit.dialects.gpu import ModuleOp as GpuModuleOp
from irkit.dialects.static_values import constant_int

PASS_NAME = "gpu-kernel-outlining"

# Cloned into a kernel rather than passed to it: free to recompute, and a
# view passed as an argument would need an offset the launch plan lacks.
_INDEX_OPS = (arith.ConstantOp, affine.ApplyOp, affine.MinOp, affine.MaxOp)
_VIEW_OPS = (
    memref.SubviewOp,
    memref.ExpandShapeOp,
    memref.CollapseShapeOp,
    memref.CastOp,
    memref.ReinterpretCastOp,
    memref.GetGlobalOp,
)

# What a host function may hold once its launches are outlined.
_HOST_OPS = (
    arith.ConstantOp,
    memref.AllocOp,
    memref.DeallocOp,
    LaunchFuncOp,
    func.ReturnOp,
)

# The launch's id and size arguments, in block-argument order, as ops.
_CONFIG_OPS = (BlockIdOp, ThreadIdOp, GridDimOp, BlockDimOp)
_DIMENSIONS = ("x", "y", "z")


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _defined_in(value: SSAValue, region_holder: Operation) -> bool:
    if isinstance(value, BlockArgument):
        holder = value.block.parent_op()
        return holder is not None and region_holder.is_ancestor(holder)
    return isinstance(value.owner, Operation) and region_holder.is_ancestor(value.owner)


def is_sinkable(value: SSAValue) -> bool:
    """Whether a kernel recomputes `value` instead of taking it as an argument.

    Views and globals always; index ops only when they are computed from
    constants (otherwise their operands would be passed anyway).
    """
    owner = value.owner
    if isinstance(owner, (*_VIEW_OPS, arith.ConstantOp)):
        return True
    if isinstance(owner, _INDEX_OPS):
        return all(is_sinkable(operand) for operand in owner.operands)
    return False


def _known_sizes(sizes: Sequence[SSAValue]) -> list[int] | None:
    known = [constant_int(size) for size in sizes]
    return None if None in known else [size for size in known if size is not None]


def _symbol_names(module: ModuleOp) -> set[str]:
    names: set[str] = set()
    for op in module.body.block.ops:
        name = op.attributes.get("sym_name") or op.properties.get("sym_name")
        if isinstance(name, StringAttr):
            names.add(name.data)
    return names


def unique_symbol(base: str, taken: set[str]) -> str:
    """`base`, or MLIR's renaming of it: `base_0`, `base_1`, ..."""
    name, counter = base, 0
    while name in taken:
        name = f"{base}_{counter}"
        counter += 1
    taken.add(name)
    return name


# --------------------------------------------------------------------------
# Building one kernel
# --------------------------------------------------------------------------


@dataclass
class _KernelInterface:
    """What a launch body takes from above: arguments and ops to clone."""

    arguments: list[SSAValue] = field(default_factory=list)
    sunk: list[Operation] = field(default_factory=list)

    def take(self, value: SSAValue) -> None:
        """Record `value` (used in the body, defined above) at its first use."""
        if value in self.arguments:
            return
        owner = value.owner
        if is_sinkable(value) and isinstance(owner, Operation):
            if owner in self.sunk:
                return
            for operand in owner.operands:
                self.take(operand)
            self.sunk.append(owner)
        else:
            self.arguments.append(value)


def kernel_interface(launch: LaunchOp) -> _KernelInterface:
    """Arguments and sunk ops of `launch`, in the order of first use."""
    interface = _KernelInterface()
    for op in launch.body.walk():
        for operand in op.operands:
            if not _defined_in(operand, launch):
                interface.take(operand)
    return interface


def _index_ops(launch: LaunchOp, insertion: InsertPoint) -> None:
    """Replace the launch's id and size arguments by the ops that give them."""
    config = launch.entry_block.args[:12]
    for position, argument in enumerate(config):
        if not argument.uses:
            continue
        kind = _CONFIG_OPS[position // 3]
        op = kind(_DIMENSIONS[position % 3])
        op.result.name_hint = argument.name_hint
        Rewriter.insert_op(op, insertion)
        argument.replace_all_uses_with(op.result)


def build_kernel(launch: LaunchOp, name: str, interface: _KernelInterface) -> FuncOp:
    """Move `launch`'s body into a new kernel `name` (the launch stays, emptied)."""
    grid, block = _known_sizes(launch.grid_size), _known_sizes(launch.block_size)
    kernel = FuncOp(
        name,
        [value.type for value in interface.arguments],
        workgroup=[arg.type for arg in launch.workgroup_attributions],
        private=[arg.type for arg in launch.private_attributions],
        known_block_size=block,
        known_grid_size=grid,
    )
    entry = kernel.entry_block
    inputs = entry.args[: len(interface.arguments)]
    for value, argument in zip(interface.arguments, inputs, strict=True):
        argument.name_hint = value.name_hint
    for old, new in zip(
        (*launch.workgroup_attributions, *launch.private_attributions),
        entry.args[len(interface.arguments) :],
        strict=True,
    ):
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)

    # Clones of sunk ops first, then the body, which uses them.
    mapping: dict[SSAValue, SSAValue] = dict(
        zip(interface.arguments, inputs, strict=True)
    )
    for op in interface.sunk:
        clone = op.clone()
        clone.operands = [mapping.get(operand, operand) for operand in op.operands]
        for result, cloned in zip(op.results, clone.results, strict=True):
            cloned.name_hint = result.name_hint
            mapping[result] = cloned
        entry.add_op(clone)
    body = launch.entry_block
    anchor = ReturnOp()
    entry.add_op(anchor)
    _index_ops(launch, InsertPoint.before(anchor))
    for op in list(body.ops):
        op.detach()
        if isinstance(op, TerminatorOp):
            continue
        Rewriter.insert_op(op, InsertPoint.before(anchor))
    for op in kernel.walk():
        if any(operand in mapping for operand in op.operands):
            op.operands = [mapping.get(operand, operand) for operand in op.operands]
    return kernel


def _globals_read(kernel: FuncOp) -> list[str]:
    names: list[str] = []
    for op in kernel.walk():
        if isinstance(op, memref.GetGlobalOp):
            name = op.name_.root_reference.data
            if name not in names:
                names.append(name)
    return names


def _host_global(module: ModuleOp, name: str) -> memref.GlobalOp | None:
    for op in module.body.block.ops:
        if isinstance(op, memref.GlobalOp) and op.sym_name.data == name:
            return op
    return None


def outline_launch(
    launch: LaunchOp,
    module: ModuleOp,
    host: func.FuncOp,
    insertion: InsertPoint,
    taken: set[str],
) -> GpuModuleOp:
    """Outline one launch into a new `gpu.module` inserted at `insertion`."""
    if launch.asyncToken is not None or launch.asyncDependencies:
        raise op_error(launch, f"{PASS_NAME} does not outline async launches")
    if len(launch.body.blocks) != 1:
        raise op_error(launch, f"{PASS_NAME} outlines single-block launch bodies only")
    base = f"{host.sym_name.data}_kernel"
    interface = kernel_interface(launch)
    kernel = build_kernel(launch, base, interface)
    kernel.location = launch.location
    gpu_module = GpuModuleOp(unique_symbol(base, taken), [kernel])
    gpu_module.location = launch.location
    for name in _globals_read(kernel):
        declaration = _host_global(module, name)
        if declaration is None:
            raise op_error(launch, f"{PASS_NAME}: no memref.global @{name} to clone")
        gpu_module.body.block.insert_op_before(declaration.clone(), kernel)
    Rewriter.insert_op(gpu_module, insertion)
    launch_func = LaunchFuncOp(
        LaunchFuncOp.kernel_reference(gpu_module.module_name, base),
        launch.grid_size,
        launch.block_size,
        interface.arguments,
        dynamic_shared_memory_size=launch.dynamicSharedMemorySize,
    )
    launch_func.location = launch.location
    Rewriter.replace_op(launch, launch_func)
    return gpu_module


# --------------------------------------------------------------------------
# The host after outlining
# --------------------------------------------------------------------------


def _erase_dead_host_ops(host: func.FuncOp) -> None:
    """Erase sunk ops (views, constants, index math) nothing on the host uses."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(host.walk())):
            if isinstance(op, (*_INDEX_OPS, *_VIEW_OPS)) and not any(
                result.uses for result in op.results
            ):
                Rewriter.erase_op(op)
                changed = True


def _erase_kernel_only_globals(module: ModuleOp) -> None:
    used: set[str] = set()
    for op in module.body.block.ops:
        if isinstance(op, GpuModuleOp):
            continue
        for nested in op.walk():
            if isinstance(nested, memref.GetGlobalOp):
                used.add(nested.name_.root_reference.data)
    for op in list(module.body.block.ops):
        if (
            isinstance(op, memref.GlobalOp)
            and op.sym_name.data not in used
            and op.sym_visibility is not None
            and op.sym_visibility.data == "private"
        ):
            Rewriter.erase_op(op)


def check_host(host: func.FuncOp) -> None:
    """Every op of an outlined host function must be a launch-plan step."""
    for op in host.body.walk():
        if not isinstance(op, _HOST_OPS):
            raise op_error(
                op,
                f"{PASS_NAME}: a host function may hold only arith.constant, "
                "memref.alloc, memref.dealloc, gpu.launch_func and func.return "
                "once its kernels are outlined (this op would run on the host)",
            )


def outline_kernels(module: ModuleOp, min_blocks_per_sm: int = 0) -> list[GpuModuleOp]:
    """Outline every `gpu.launch` of `module`; return the new `gpu.module`s."""
    if min_blocks_per_sm < 0:
        raise PassFailedException(f"{PASS_NAME}: min-blocks-per-sm must be >= 0")
    taken = _symbol_names(module)
    outlined: list[GpuModuleOp] = []
    hosts = [op for op in module.body.block.ops if isinstance(op, func.FuncOp)]
    for host in hosts:
        if not host.body.blocks:
            continue
        insertion = InsertPoint.after(host)
        for launch in [op for op in host.walk() if isinstance(op, LaunchOp)]:
            # A launch's own request (its builder knows its registers) wins.
            resident = launch.attributes.get(MIN_BLOCKS_ATTRIBUTE)
            if resident is None and min_blocks_per_sm:
                resident = IntegerAttr(min_blocks_per_sm, 32)
            gpu_module = outline_launch(launch, module, host, insertion, taken)
            if resident is not None:
                for kernel in gpu_module.body.block.ops:
                    if isinstance(kernel, FuncOp):
                        kernel.attributes[MIN_BLOCKS_ATTRIBUTE] = resident
            insertion = InsertPoint.after(gpu_module)
            outlined.append(gpu_module)
        _erase_dead_host_ops(host)
    if outlined:
        module.attributes[CONTAINER_MODULE_ATTRIBUTE] = UnitAttr()
        _erase_kernel_only_globals(module)
    for host in hosts:
        if host.body.blocks:
            check_host(host)
    return outlined


@dataclass(frozen=True)
class GpuKernelOutliningPass(ModulePass):
    """`gpu.launch` bodies into `gpu.module`/`gpu.func` kernels; host launch plans."""

    name = PASS_NAME

    # 0: no hint (`nvvm.minctasm` is not set).
    min_blocks_per_sm: int = 0

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        outline_kernels(op, self.min_blocks_per_sm)
