"""irkit's `vector` dialect: the subset of MLIR's `vector` dialect irkit emits.

Mirrors MLIR's `mlir/include/mlir/Dialect/Vector/IR/VectorOps.td` for the
ops a vectorised micro-kernel is made of (`linalg-vectorize-micro-kernels`):

```mlir
%v = vector.load %m[%i, %j] : memref<4x32xf32>, vector<16xf32>
%b = vector.broadcast %s : f32 to vector<16xf32>
%r = vector.fma %b, %v, %acc : vector<16xf32>
vector.store %r, %m[%i, %j] : memref<4x32xf32>, vector<16xf32>
```

The ops are xDSL's, whose syntax is MLIR's (so `isinstance` checks against
`xdsl.dialects.vector` keep working); `vector.load`, `vector.store` and
`vector.broadcast` are subclassed here for MLIR's verification, which
xDSL lacks:

- `vector.load` / `vector.store` of more than one element need a memref
  whose innermost dimension has unit stride (MLIR's
  `verifyLoadStoreMemRefLayout`: "most minor memref dim must have unit
  stride"), a vector of no higher rank than the memref, and the memref's
  element type;
- `vector.broadcast` takes a scalar of the result's element type, or a
  vector whose shape broadcasts to the result's (MLIR's
  `isBroadcastableTo`: trailing dimensions equal or 1).

Every other op is xDSL's, re-exported in the dialect unchanged.
"""

from __future__ import annotations

from xdsl.dialects import vector as upstream
from xdsl.dialects.builtin import MemRefType, VectorType
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

__all__ = ["BroadcastOp", "FMAOp", "LoadOp", "StoreOp", "Vector"]

FMAOp = upstream.FMAOp


def _verify_access(memref: SSAValue, vector_type: Attribute, indices: int) -> None:
    """MLIR's checks of a `vector.load` or `vector.store` on `memref`."""
    memref_type = memref.type
    assert isa(memref_type, MemRefType)
    assert isa(vector_type, VectorType)
    if memref_type.get_element_type() != vector_type.get_element_type():
        raise VerifyException(
            f"base and result element types should match: "
            f"{memref_type.get_element_type()} and {vector_type.get_element_type()}"
        )
    if indices != memref_type.get_num_dims():
        raise VerifyException(
            f"requires {memref_type.get_num_dims()} indices, got {indices}"
        )
    if vector_type.get_num_dims() > memref_type.get_num_dims():
        raise VerifyException(
            "the vector's rank may not exceed the memref's "
            f"({vector_type.get_num_dims()} > {memref_type.get_num_dims()})"
        )
    if vector_type.get_num_dims() == 0 or vector_type.element_count() == 1:
        return
    strides = memref_type.get_strides()
    if strides is None or strides[-1] != 1:
        raise VerifyException("most minor memref dim must have unit stride")


class LoadOp(upstream.LoadOp):
    """Consecutive elements of the memref's innermost dimensions, from `indices`.

    ```mlir
    %v = vector.load %m[%i, %j] : memref<4x32xf32>, vector<16xf32>
    ```
    """

    def verify_(self) -> None:
        _verify_access(self.base, self.result.type, len(self.indices))


class StoreOp(upstream.StoreOp):
    """The vector into consecutive elements of the memref, from `indices`.

    ```mlir
    vector.store %v, %m[%i, %j] : memref<4x32xf32>, vector<16xf32>
    ```
    """

    def verify_(self) -> None:
        _verify_access(self.base, self.vector.type, len(self.indices))


class BroadcastOp(upstream.BroadcastOp):
    """A scalar (or a lower-rank vector) repeated to fill the result.

    ```mlir
    %b = vector.broadcast %s : f32 to vector<16xf32>
    ```
    """

    def verify_(self) -> None:
        result = self.vector.type
        assert isa(result, VectorType)
        source = self.source.type
        if isa(source, VectorType):
            if source.get_element_type() != result.get_element_type():
                raise VerifyException(
                    "source and result element types should match: "
                    f"{source.get_element_type()} and {result.get_element_type()}"
                )
            source_shape = source.get_shape()
            target_shape = result.get_shape()
            if len(source_shape) > len(target_shape) or any(
                size not in (1, target)
                for size, target in zip(
                    reversed(source_shape), reversed(target_shape), strict=False
                )
            ):
                raise VerifyException(
                    f"source {source} is not broadcastable to {result}"
                )
        elif source != result.get_element_type():
            raise VerifyException(
                f"source type {source} is not the result's element type "
                f"{result.get_element_type()}"
            )


_IRKIT_OPS: tuple[type[IRDLOperation], ...] = (LoadOp, StoreOp, BroadcastOp)
_REPLACED = {op.name for op in _IRKIT_OPS}

Vector = Dialect(
    "vector",
    [
        *(op for op in upstream.Vector.operations if op.name not in _REPLACED),
        *_IRKIT_OPS,
    ],
    list(upstream.Vector.attributes),
)
