"""The integer constant of a value: MLIR's `getConstantIntValue`.

The one place that answers "is this SSA value a known integer?" for the
dialects' verifiers, the analyses, the passes and the printers. It looks at
the defining op only: an `arith.constant` with an integer attribute (`index`
or any `iN`); it does not fold arithmetic (that is `irkit.analysis.ranges`).

It lives with the dialects, the lowest of irkit's layers, so every layer
may use it (MLIR keeps `getConstantIntValue` in
`Dialect/Utils/StaticValueUtils`); it imports nothing from irkit.
"""

from __future__ import annotations

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import SSAValue


def constant_int(value: int | SSAValue) -> int | None:
    """The integer `value` holds when an `arith.constant` defines it, else None.

    `value` may be a plain `int` (a static entry of a mixed static/dynamic
    list, MLIR's `OpFoldResult`), which is its own constant. The value is
    xDSL's signed reading of the attribute: `true : i1` is -1, `200 : i8`
    is -56, as every copy this helper replaced read it.
    """
    if isinstance(value, int):
        return value
    owner = value.owner
    if isinstance(owner, ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None
