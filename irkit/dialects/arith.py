"""irkit's `arith` dialect: MLIR's `arith`, xDSL's ops plus the ones it lacks.

Mirrors MLIR's `mlir/include/mlir/Dialect/Arith/IR/ArithOps.td`. Added:
`arith.remf` (what torch-mlir emits for `torch.fmod`) and
`arith.index_castui`. Importing it also declares what xDSL leaves out of two
upstream ops, MLIR's traits: `arith.remui` has no memory effects and
`arith.extsi` is pure (xDSL declares neither, so every pass that moves or
drops effect-free ops took an im2col gather's `remui` for a side effect).
"""

from __future__ import annotations

from functools import partial

from xdsl.dialects import arith as upstream
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.ir.core import OpTraits
from xdsl.irdl import (
    IRDLOperation,
    base,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import NoMemoryEffect, OpTrait, Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class RemFOp(upstream.FloatingPointLikeBinaryOperation):
    """The remainder of a float division, with the sign of the dividend (C fmod).

    ```mlir
    %r = arith.remf %a, %b : f32
    ```
    """

    name = "arith.remf"

    traits = traits_def(Pure())


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """Cast between `index` and an integer, zero-extending when widening.

    ```mlir
    %i = arith.index_castui %x : i32 to index
    ```
    """

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(
            self.result.type, IndexType
        ):
            raise VerifyException(
                f"operand type {self.input.type} and result type {self.result.type} "
                "are cast incompatible: exactly one must be index"
            )


def _declare_missing_effects() -> None:
    """Give `arith.remui` MLIR's `NoMemoryEffect` and `arith.extsi` `Pure`:
    on xDSL's classes, so that the ops passes build from them have them too."""
    missing: tuple[tuple[type[IRDLOperation], OpTrait], ...] = (
        (upstream.RemUIOp, NoMemoryEffect()),
        (upstream.ExtSIOp, Pure()),
    )
    for op_class, trait in missing:
        if op_class.get_trait(type(trait)) is None:
            op_class.traits = OpTraits(partial(tuple, (*op_class.traits, trait)))


_declare_missing_effects()


Arith = Dialect(
    "arith",
    [*upstream.Arith.operations, RemFOp, IndexCastUIOp],
    list(upstream.Arith.attributes),
)
