"""The Python builders and accessors of irkit's gpu dialect (others build on them)."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith, func
from xdsl.dialects import gpu as xdsl_gpu
from xdsl.dialects.builtin import (
    IndexType,
    MemRefType,
    UnitAttr,
    f32,
    i32,
)
from xdsl.dialects.builtin import (
    ModuleOp as BuiltinModuleOp,
)
from xdsl.ir import Block, Region, SSAValue

from irkit.context import make_context
from irkit.dialects import gpu
from irkit.parsing import parse_module
from irkit.verification import verify_module

WORKGROUP_TILE = MemRefType(f32, [32], memory_space=gpu.workgroup_memory_space())
PRIVATE_ACC = MemRefType(f32, [1], memory_space=gpu.private_memory_space())
BUFFER = MemRefType(f32, [128])


def test_address_space_helpers() -> None:
    assert gpu.is_workgroup_memref(WORKGROUP_TILE)
    assert not gpu.is_workgroup_memref(PRIVATE_ACC)
    assert gpu.is_private_memref(PRIVATE_ACC)
    assert not gpu.is_workgroup_memref(BUFFER)
    assert not gpu.is_workgroup_memref(f32)
    assert "#gpu.address_space<workgroup>" in str(WORKGROUP_TILE)


def test_mapping_attributes() -> None:
    block = gpu.BlockMappingAttr(gpu.DimensionEnum.Y)
    thread = gpu.ThreadMappingAttr(gpu.DimensionEnum("x"))
    assert (block.dimension, thread.dimension) == ("y", "x")
    assert (str(block), str(thread)) == ("#gpu.block<y>", "#gpu.thread<x>")


@pytest.mark.parametrize(
    ("op_class", "text"),
    [
        (gpu.ThreadIdOp, "gpu.thread_id"),
        (gpu.BlockIdOp, "gpu.block_id"),
        (gpu.BlockDimOp, "gpu.block_dim"),
        (gpu.GridDimOp, "gpu.grid_dim"),
        (gpu.GlobalIdOp, "gpu.global_id"),
    ],
)
def test_dimension_ops(op_class: type[gpu.ThreadIdOp], text: str) -> None:
    op = op_class("z")
    assert op.dimension == "z"
    assert op.result.type == IndexType()
    assert f"{text} z" in str(op)
    assert op_class(gpu.DimensionAttr(gpu.DimensionEnum.X)).dimension == "x"


def _index_constant(block: Block, value: int) -> SSAValue:
    constant = arith.ConstantOp.from_int_and_width(value, IndexType())
    block.add_op(constant)
    return constant.result


def _host_with_launch() -> tuple[BuiltinModuleOp, gpu.LaunchOp]:
    """A host function launching a 4x32 grid with one tile of shared memory."""
    entry = Block(arg_types=[BUFFER])
    c1, c4, c32 = (_index_constant(entry, value) for value in (1, 4, 32))
    launch = gpu.LaunchOp.build(
        (c4, c1, c1), (c32, c1, c1), workgroup=[WORKGROUP_TILE], private=[PRIVATE_ACC]
    )
    entry.add_op(launch)
    launch.entry_block.add_ops(
        [gpu.ThreadIdOp("x"), gpu.BarrierOp(), gpu.TerminatorOp()]
    )
    entry.add_op(func.ReturnOp())
    host = func.FuncOp("host", ((BUFFER,), ()), Region(entry))
    return BuiltinModuleOp([host]), launch


def test_launch_builder_and_accessors() -> None:
    module, launch = _host_with_launch()
    verify_module(module)
    assert isinstance(launch, gpu.LaunchOp)
    args = launch.entry_block.args
    assert launch.block_ids == args[0:3]
    assert launch.thread_ids == args[3:6]
    assert launch.grid_size_args == args[6:9]
    assert launch.block_size_args == args[9:12]
    assert [a.type for a in launch.workgroup_attributions] == [WORKGROUP_TILE]
    assert [a.type for a in launch.private_attributions] == [PRIVATE_ACC]
    assert launch.workgroup_attribution_count == 1
    assert all(isinstance(v.owner, arith.ConstantOp) for v in launch.grid_size)
    assert len(launch.block_size) == 3
    text = str(module)
    assert " : memref<32xf32, #gpu.address_space<workgroup>>) private(%" in text
    reparsed = parse_module(text, make_context())
    verify_module(reparsed)
    assert str(reparsed) == text


def test_launch_rejects_wrong_sizes() -> None:
    c1 = arith.ConstantOp.from_int_and_width(1, IndexType()).result
    with pytest.raises(ValueError, match="three grid sizes"):
        gpu.LaunchOp((c1, c1), (c1, c1, c1))


def test_func_builder_and_launch_func() -> None:
    kernel = gpu.FuncOp.build(
        "scale",
        [BUFFER, IndexType()],
        workgroup=[WORKGROUP_TILE],
        private=[PRIVATE_ACC],
        known_block_size=[32, 1, 1],
    )
    assert kernel.is_kernel
    assert isinstance(kernel.kernel, UnitAttr)
    assert [a.type for a in kernel.arguments] == [BUFFER, IndexType()]
    assert [a.type for a in kernel.workgroup_attributions] == [WORKGROUP_TILE]
    assert [a.type for a in kernel.private_attributions] == [PRIVATE_ACC]
    kernel.entry_block.add_op(gpu.ReturnOp())
    helper = gpu.FuncOp("helper", [f32], result_types=[f32], kernel=False)
    helper.entry_block.add_op(gpu.ReturnOp(helper.arguments))
    assert not helper.is_kernel

    entry = Block(arg_types=[BUFFER, IndexType()])
    c1 = _index_constant(entry, 1)
    launch = gpu.LaunchFuncOp(
        gpu.LaunchFuncOp.kernel_reference("kernels", "scale"),
        (c1, c1, c1),
        (c1, c1, c1),
        entry.args,
    )
    entry.add_ops([launch, func.ReturnOp()])
    host = func.FuncOp("host", ((BUFFER, IndexType()), ()), Region(entry))
    kernels = gpu.ModuleOp("kernels", [kernel, helper])
    module = BuiltinModuleOp([host, kernels])
    module.attributes[gpu.CONTAINER_MODULE_ATTRIBUTE] = UnitAttr()
    verify_module(module)
    assert (launch.kernel_module_name, launch.kernel_name) == ("kernels", "scale")
    assert launch.kernel_operands == tuple(entry.args)
    assert kernels.lookup_function("scale") is kernel
    text = str(module)
    assert "gpu.launch_func @kernels::@scale blocks in" in text
    assert "kernel attributes {gpu.known_block_size = array<i32: 32, 1, 1>}" in text
    assert str(parse_module(text, make_context())) == text


def test_shuffle_builder() -> None:
    value = arith.ConstantOp.from_int_and_width(3, i32).result
    shuffle = gpu.ShuffleOp(value, value, value, "down")
    assert shuffle.mode == "down"
    assert shuffle.result.type == i32
    assert "gpu.shuffle down" in str(shuffle)


def test_subclasses_keep_xdsl_isinstance() -> None:
    assert issubclass(gpu.ModuleOp, xdsl_gpu.ModuleOp)
    assert issubclass(gpu.LaunchFuncOp, xdsl_gpu.LaunchFuncOp)
    assert issubclass(gpu.BarrierOp, xdsl_gpu.BarrierOp)
    assert issubclass(gpu.YieldOp, xdsl_gpu.YieldOp)
