"""The C target: loop-level IR as one self-contained C99 translation unit.

`emit_c(module)` prints every `func.func` with a body as

```c
int f(const float *restrict a, const float *restrict b, float *restrict out);
```

following `docs/abi.md`: one pointer per memref argument (to the element at
offset 0 of the buffer; the callee adds the memref type's offset), inputs
`const`, every pointer `restrict`, scalars by value. The return value is a
status: 0 on success; k > 0 when the k-th `cf.assert` of the module (in
program order, numbered across the translation unit so that a status passed
up through `func.call` keeps its meaning) failed, whose message is
`CFunction.assertions[k - 1]`; `ALLOCATION_FAILURE_STATUS` (-1) when `malloc`
returned NULL. Buffers allocated before a failing assertion are not freed.

The outermost `scf.parallel` of a loop nest gets `#pragma omp parallel for`
(`collapse(n)` for n induction variables, and then `simd` where the body has
no loop, as gcc vectorises a collapsed nest only so; inside `#ifdef _OPENMP`
so that `-Wall` without `-fopenmp` does not warn) unless it carries reductions or
holds an op that returns from the function (`cf.assert`, `func.call`,
`memref.alloc`); those loops run sequentially.

Symbol names are mangled by `irkit.targets.language.mangle_symbol`: ASCII letters,
digits and `_` are kept, every other UTF-8 byte is written `_xHH_`; a name
starting with a digit or `_` gets the prefix `f`; a C keyword, `main`, a
library name or an `irkit_`-prefixed name gets the suffix `_fn`; a collision
gets `_h` and 8 hex digits of the symbol's SHA-1. `CFunction.c_name` is the
result. The walk itself lives in `irkit.targets.cstyle`; this module is the C
language's tables and the interface the runtime codes against.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from irkit.abi import is_output_argument
from irkit.diagnostics import DiagnosticError, IRKitError, location_of
from irkit.dtypes import numpy_dtype
from irkit.targets.c_math import MATH_HELPER_KINDS
from irkit.targets.cstyle import CStyleEmitter
from irkit.targets.cstyle_memory import ALLOCATION_FAILURE_STATUS
from irkit.targets.language import Language

__all__ = [
    "ALLOCATION_FAILURE_STATUS",
    "C_LANGUAGE",
    "C_MATH_FUNCTIONS",
    "CArgument",
    "CFunction",
    "CTranslationUnit",
    "c_argument",
    "emit_c",
]


@dataclass(frozen=True)
class CArgument:
    """One parameter of a printed function."""

    name: str  # the C parameter name (mangled)
    element_type: np.dtype[Any]  # NumPy dtype of the elements (or of the scalar)
    shape: tuple[int, ...]  # static shape of the memref argument (() for a scalar)
    strides: tuple[int, ...]  # in elements, from the memref type's layout
    offset: int  # in elements (0 for identity layouts)
    is_output: bool  # carries {irkit.output}
    # A scalar passed by value rather than a pointer (not a rank-0 memref).
    is_scalar: bool = False


@dataclass(frozen=True)
class CFunction:
    """A printed function: how to call it and how to read its status."""

    symbol: str  # the func.func sym_name
    c_name: str  # the mangled C function name
    arguments: tuple[CArgument, ...]  # in parameter order
    assertions: tuple[str, ...]  # cf.assert messages; status k -> assertions[k-1]


@dataclass(frozen=True)
class CTranslationUnit:
    source: str  # one self-contained C99 translation unit
    functions: dict[str, CFunction]  # by symbol name


def _math_functions(suffix: str, one: str) -> dict[str, str]:
    """libm templates for one float width (`f` suffix for float)."""
    names = {
        "math.absf": "fabs",
        "math.acos": "acos",
        "math.acosh": "acosh",
        "math.asin": "asin",
        "math.asinh": "asinh",
        "math.atan": "atan",
        "math.atanh": "atanh",
        "math.cbrt": "cbrt",
        "math.ceil": "ceil",
        "math.cos": "cos",
        "math.cosh": "cosh",
        "math.erf": "erf",
        "math.exp": "exp",
        "math.exp2": "exp2",
        "math.expm1": "expm1",
        "math.floor": "floor",
        "math.log": "log",
        "math.log10": "log10",
        "math.log1p": "log1p",
        "math.log2": "log2",
        "math.round": "round",
        # Round half to even in the default rounding mode, without FE_INEXACT.
        "math.roundeven": "nearbyint",
        "math.sin": "sin",
        "math.sinh": "sinh",
        "math.sqrt": "sqrt",
        "math.tan": "tan",
        "math.tanh": "tanh",
        "math.trunc": "trunc",
    }
    binary = {
        "math.atan2": "atan2",
        "math.copysign": "copysign",
        "math.powf": "pow",
        "arith.remf": "fmod",
        "arith.maxnumf": "fmax",
        "arith.minnumf": "fmin",
    }
    templates = {op: f"{name}{suffix}({{0}})" for op, name in names.items()}
    templates |= {op: f"{name}{suffix}({{0}}, {{1}})" for op, name in binary.items()}
    templates["math.fma"] = f"fma{suffix}({{0}}, {{1}}, {{2}})"
    templates["math.rsqrt"] = f"{one} / sqrt{suffix}({{0}})"
    return templates


# libm's functions per float width; CUDA's device library has the same names.
C_MATH_FUNCTIONS = {32: _math_functions("f", "1.0f"), 64: _math_functions("", "1.0")}

C_LANGUAGE = Language(
    target_name="C target",
    includes=("stdint.h", "stdbool.h", "stddef.h", "math.h", "stdlib.h", "string.h"),
    scalar_types={
        "f16": "_Float16",
        # gcc 12 has no bf16 arithmetic type (`__bf16` only stores): raw bits,
        # converted by the `widen`/`narrow` helpers around each op.
        "bf16": "uint16_t",
        "f32": "float",
        "f64": "double",
        "i1": "bool",
        "i8": "int8_t",
        "i16": "int16_t",
        "i32": "int32_t",
        "i64": "int64_t",
        "index": "int64_t",
    },
    half_compute_type="float",
    helper_converted=frozenset({"bf16"}),
    bits_literals={"bf16": "(uint16_t)0x{bits:04x}"},
    function_qualifier="",
    helper_qualifier="static inline",
    restrict="restrict",
    restrict_read_write=True,
    math_functions=C_MATH_FUNCTIONS,
    float_literal_suffix={32: "f", 64: ""},
    nan="NAN",
    infinity="INFINITY",
    barrier=None,
    thread_index={},
    shared_qualifier=None,
    # Guarded: without -fopenmp, -Wall would warn about an unknown pragma.
    parallel_loop_pragma=(
        "#ifdef _OPENMP",
        "#pragma omp parallel for{simd}{collapse}",
        "#endif",
    ),
    # GCC's own spelling; clang reads it too.
    unroll_pragma="#pragma GCC unroll {count}",
    # GCC's vector extensions (clang's too): element-wise operators, `[i]`
    # lanes, kept in vector registers where the machine has them.
    vector_typedef="typedef {element} {name} __attribute__((vector_size({bytes})));",
    # The libm functions the templates call: a local must not shadow them.
    reserved_names=frozenset(
        name
        for templates in C_MATH_FUNCTIONS.values()
        for template in templates.values()
        for name in re.findall(r"[A-Za-z_][A-Za-z0-9_]*(?=\()", template)
    ),
    # f32 exp, tanh and erf as polynomials gcc vectorises (libm's are calls).
    math_helpers=MATH_HELPER_KINDS,
)


def _argument_dtype(func: FuncOp, index: int, element_type: Attribute) -> np.dtype[Any]:
    try:
        return numpy_dtype(element_type)
    except IRKitError:
        # Reached by IR that was not lowered (a tensor argument under `-t c`
        # without `-p lower-to-c`): the type alone would not say where.
        argument_type = func.function_type.inputs.data[index]
        raise DiagnosticError(
            f"argument #{index} of @{func.sym_name.data} has type {argument_type}: "
            "a compiled function takes memrefs and scalars of integer, index or "
            "float type (lower the program first)",
            location_of(func),
        ) from None


def c_argument(func: FuncOp, index: int, name: str) -> CArgument:
    """How argument `index` of `func` is passed, per docs/abi.md."""
    argument_type = func.function_type.inputs.data[index]
    output = is_output_argument(func, index)
    if isinstance(argument_type, MemRefType):
        strides = argument_type.get_strides() or ()
        return CArgument(
            name=name,
            element_type=_argument_dtype(func, index, argument_type.get_element_type()),
            shape=tuple(argument_type.get_shape()),
            strides=tuple(int(s) for s in strides if s is not None),
            offset=int(argument_type.get_offset() or 0),
            is_output=output,
        )
    return CArgument(
        name=name,
        element_type=_argument_dtype(func, index, argument_type),
        shape=(),
        strides=(),
        offset=0,
        is_output=output,
        is_scalar=True,
    )


def emit_c(module: ModuleOp) -> CTranslationUnit:
    """Print `module` as C; raises a located `DiagnosticError` on an op or
    type the C target cannot print."""
    emitted = CStyleEmitter(C_LANGUAGE, module).emit()
    funcs = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
    functions = {
        symbol: CFunction(
            symbol=symbol,
            c_name=function.c_name,
            arguments=tuple(
                c_argument(funcs[symbol], index, name)
                for index, name in enumerate(function.parameter_names)
            ),
            assertions=function.assertions,
        )
        for symbol, function in emitted.functions.items()
    }
    return CTranslationUnit(emitted.source, functions)
