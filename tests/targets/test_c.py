"""The C target, tested by running its output.

Every sample is printed with `emit_c`, compiled with the system `cc`
(`-std=c99 -O2 -Wall -Wextra -Werror`), loaded with ctypes and run on inputs
whose outputs were first poisoned (NaN, INT_MIN) so an element nothing wrote
shows. Scalar ops are checked one function per (op, type) against the
interpreter's own implementation of that op, applied to the whole input
arrays; loop nests and views against NumPy.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.vendor.pretty import pretty
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from irkit.diagnostics import DiagnosticError
from irkit.dtypes import BFLOAT16, is_float_dtype
from irkit.interpreter import Interpreter, interpret
from irkit.parsing import parse_module
from irkit.targets.c import (
    ALLOCATION_FAILURE_STATUS,
    CTranslationUnit,
    emit_c,
)
from irkit.testing import compare_arrays

CC = shutil.which("cc")
needs_cc = pytest.mark.skipif(CC is None, reason="no C compiler `cc` on PATH")
WARNINGS = ["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror"]

_CTYPES = {
    "float32": ctypes.c_float,
    "float64": ctypes.c_double,
    "int8": ctypes.c_int8,
    "int16": ctypes.c_int16,
    "int32": ctypes.c_int32,
    "int64": ctypes.c_int64,
    "bool": ctypes.c_bool,
}


# ---------------------------------------------------------------------------
# Harness
# ---------------------------------------------------------------------------


def build(
    unit: CTranslationUnit, directory: Path, *, openmp: bool = False
) -> ctypes.CDLL:
    """Compile `unit` into a shared library and load it."""
    assert CC is not None
    # A fresh name per build: dlopen returns the library already loaded
    # from a path, even if the file changed.
    stem = f"unit{len(list(directory.glob('*.c')))}"
    source = directory / f"{stem}.c"
    library = directory / f"{stem}.so"
    source.write_text(unit.source)
    flags = [*WARNINGS, "-fPIC", "-shared", *(["-fopenmp"] if openmp else [])]
    compiled = subprocess.run(
        [CC, *flags, str(source), "-o", str(library), "-lm"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stderr + "\n" + unit.source
    return ctypes.CDLL(str(library))


def poison(dtype: np.dtype[Any], count: int) -> np.ndarray:
    if is_float_dtype(dtype):
        return np.full(count, np.nan, dtype)
    if dtype == np.bool_:
        return np.ones(count, dtype)
    return np.full(count, np.iinfo(dtype).min, dtype)


def call(
    unit: CTranslationUnit, library: ctypes.CDLL, symbol: str, *inputs: Any
) -> tuple[int, list[np.ndarray]]:
    """Call `symbol` on `inputs` (arrays for memrefs, scalars by value);
    returns the status and the output buffers, shaped."""
    function = unit.functions[symbol]
    pending = iter(inputs)
    arguments: list[Any] = []
    argtypes: list[Any] = []
    outputs: list[tuple[np.ndarray, Any]] = []
    keep: list[np.ndarray] = []
    for argument in function.arguments:
        if argument.is_scalar:
            scalar_type = _CTYPES[argument.element_type.name]
            arguments.append(scalar_type(next(pending)))
            argtypes.append(scalar_type)
            continue
        span = (
            argument.offset
            + 1
            + sum(
                (size - 1) * stride
                for size, stride in zip(argument.shape, argument.strides, strict=True)
            )
        )
        if argument.is_output:
            buffer = poison(argument.element_type, span)
            outputs.append((buffer, argument))
        else:
            value = np.asarray(next(pending), argument.element_type)
            buffer = poison(argument.element_type, span)
            view = np.lib.stride_tricks.as_strided(
                buffer[argument.offset :],
                argument.shape,
                [s * buffer.itemsize for s in argument.strides],
            )
            view[...] = value
        keep.append(buffer)
        arguments.append(ctypes.c_void_p(buffer.ctypes.data))
        argtypes.append(ctypes.c_void_p)
    entry = getattr(library, function.c_name)
    entry.argtypes = argtypes
    entry.restype = ctypes.c_int
    status = entry(*arguments)
    shaped = [
        np.lib.stride_tricks.as_strided(
            buffer[argument.offset :],
            argument.shape,
            [s * buffer.itemsize for s in argument.strides],
        ).copy()
        for buffer, argument in outputs
    ]
    return status, shaped


def assert_close(expected: Any, actual: np.ndarray, context: str = "") -> None:
    expected = np.asarray(expected)
    assert actual.dtype == expected.dtype, context
    difference = compare_arrays(expected, actual)
    assert difference is None, f"{context}: {difference.describe()}"


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("c_target")


# ---------------------------------------------------------------------------
# Scalar ops against the interpreter, one function per (op, type)
# ---------------------------------------------------------------------------

SIZE = 64
INTEGERS = ("i1", "i8", "i16", "i32", "i64", "index")
FLOATS = ("f16", "bf16", "f32", "f64")
DTYPES = {
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "index": np.int64,
    "f16": np.float16,
    "bf16": BFLOAT16,
    "f32": np.float32,
    "f64": np.float64,
}


@dataclass(frozen=True)
class ScalarCase:
    """`result = op(operands)` elementwise over memrefs of SIZE elements."""

    op_name: str
    operand_types: tuple[str, ...]
    result_type: str
    text: str  # the op, operands named %x0, %x1, ...
    domain: str = "special"  # how to draw inputs: special, in_range_of:<type>, ...

    @property
    def symbol(self) -> str:
        suffix = "_".join(self.operand_types) + "_to_" + self.result_type
        extra = re.sub(r"\W", "", self.text.split()[1]) if "cmp" in self.op_name else ""
        return f"{self.op_name.replace('.', '_')}{extra}_{suffix}"


def _scalar_cases() -> Iterator[ScalarCase]:
    integer_binary = (
        "addi subi muli andi ori xori divsi remsi floordivsi ceildivsi divui "
        "remui ceildivui maxsi minsi maxui minui shli shrui shrsi"
    ).split()
    for key in INTEGERS:
        for name in integer_binary:
            if key == "index" and name in ("ceildivui", "floordivsi", "ceildivsi"):
                continue
            yield ScalarCase(
                f"arith.{name}", (key, key), key, f"arith.{name} %x0, %x1 : {key}"
            )
        for predicate in "eq ne slt sle sgt sge ult ule ugt uge".split():
            yield ScalarCase(
                "arith.cmpi",
                (key, key),
                "i1",
                f"arith.cmpi {predicate}, %x0, %x1 : {key}",
            )
        yield ScalarCase(
            "arith.select",
            ("i1", key, key),
            key,
            f"arith.select %x0, %x1, %x2 : {key}",
        )
    for key in ("i8", "i16", "i32", "i64"):
        for name in ("absi", "ctpop", "ctlz", "cttz"):
            yield ScalarCase(f"math.{name}", (key,), key, f"math.{name} %x0 : {key}")
        yield ScalarCase(
            "math.ipowi", (key, key), key, "math.ipowi %x0, %x1 : " + key, "power"
        )
    float_binary = "addf subf mulf divf remf maximumf minimumf maxnumf minnumf".split()
    unary = (
        "absf atan cbrt ceil cos erf exp exp2 expm1 floor log log10 log1p log2 "
        "round roundeven rsqrt sin sqrt tan tanh trunc sinh cosh asin acos "
        "asinh atanh"
    ).split()
    for key in FLOATS:
        for name in float_binary:
            yield ScalarCase(
                f"arith.{name}", (key, key), key, f"arith.{name} %x0, %x1 : {key}"
            )
        yield ScalarCase("arith.negf", (key,), key, f"arith.negf %x0 : {key}")
        for predicate in (
            "false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true"
        ).split():
            yield ScalarCase(
                "arith.cmpf",
                (key, key),
                "i1",
                f"arith.cmpf {predicate}, %x0, %x1 : {key}",
            )
        for name in unary:
            yield ScalarCase(
                f"math.{name}", (key,), key, f"math.{name} %x0 : {key}", "math"
            )
        for name in ("atan2", "copysign", "powf"):
            yield ScalarCase(
                f"math.{name}", (key, key), key, f"math.{name} %x0, %x1 : {key}", "math"
            )
        yield ScalarCase(
            "math.fma", (key, key, key), key, f"math.fma %x0, %x1, %x2 : {key}", "math"
        )
        yield ScalarCase(
            "math.fpowi",
            (key, "i32"),
            key,
            f"math.fpowi %x0, %x1 : {key}, i32",
            "power",
        )
    casts = [
        ("arith.extf", "f16", "f32"),
        ("arith.extf", "f32", "f64"),
        ("arith.truncf", "f64", "f32"),
        ("arith.truncf", "f32", "f16"),
        ("arith.truncf", "f64", "f16"),
        ("arith.extsi", "i1", "i32"),
        ("arith.extsi", "i8", "i32"),
        ("arith.extsi", "i32", "i64"),
        ("arith.extui", "i1", "i32"),
        ("arith.extui", "i8", "i32"),
        ("arith.extui", "i32", "i64"),
        ("arith.trunci", "i64", "i8"),
        ("arith.trunci", "i32", "i1"),
        ("arith.trunci", "i64", "i32"),
        ("arith.index_cast", "i32", "index"),
        ("arith.index_cast", "i1", "index"),
        ("arith.index_cast", "index", "i8"),
        ("arith.index_castui", "i32", "index"),
        ("arith.index_castui", "index", "i16"),
        ("arith.sitofp", "i32", "f32"),
        ("arith.sitofp", "i64", "f64"),
        ("arith.sitofp", "i1", "f32"),
        ("arith.sitofp", "i16", "f16"),
        ("arith.uitofp", "i8", "f32"),
        ("arith.uitofp", "i32", "f64"),
        ("arith.uitofp", "i1", "f64"),
        ("arith.bitcast", "f32", "i32"),
        ("arith.bitcast", "i64", "f64"),
        ("arith.bitcast", "f16", "i16"),
        # bf16 is uint16_t bits in C: every conversion goes through the
        # helpers; from f64 and 32/64-bit integers it rounds once.
        ("arith.extf", "bf16", "f32"),
        ("arith.extf", "bf16", "f64"),
        ("arith.truncf", "f32", "bf16"),
        ("arith.truncf", "f64", "bf16"),
        ("arith.sitofp", "i1", "bf16"),
        ("arith.sitofp", "i16", "bf16"),
        ("arith.sitofp", "i32", "bf16"),
        ("arith.sitofp", "i64", "bf16"),
        ("arith.uitofp", "i8", "bf16"),
        ("arith.uitofp", "i32", "bf16"),
        ("arith.bitcast", "bf16", "i16"),
        ("arith.bitcast", "i16", "bf16"),
    ]
    for name, source, target in casts:
        yield ScalarCase(name, (source,), target, f"{name} %x0 : {source} to {target}")
    float_to_int = [
        ("arith.fptosi", "f32", "i32"),
        ("arith.fptosi", "f64", "i8"),
        ("arith.fptosi", "f16", "i16"),
        ("arith.fptosi", "bf16", "i32"),
        ("arith.fptosi", "bf16", "i8"),
        ("arith.fptoui", "bf16", "i16"),
        ("arith.fptosi", "bf16", "i1"),
        ("arith.fptosi", "f64", "i64"),
        ("arith.fptoui", "f32", "i32"),
        ("arith.fptoui", "f64", "i8"),
        ("arith.fptosi", "f32", "i1"),
        ("arith.fptoui", "f64", "i1"),
    ]
    for name, source, target in float_to_int:
        yield ScalarCase(
            name,
            (source,),
            target,
            f"{name} %x0 : {source} to {target}",
            f"{'unsigned' if name.endswith('ui') else 'signed'}:{target}",
        )


SCALAR_CASES = list(_scalar_cases())


def _scalar_function(case: ScalarCase) -> str:
    def memref(key: str) -> str:
        return f"memref<{SIZE}x{key}>"

    parameters = [f"%a{i}: {memref(k)}" for i, k in enumerate(case.operand_types)]
    parameters.append(f"%out: {memref(case.result_type)} {{irkit.output}}")
    loads = "\n".join(
        f"    %x{i} = memref.load %a{i}[%i] : {memref(k)}"
        for i, k in enumerate(case.operand_types)
    )
    return f"""
func.func @{case.symbol}({", ".join(parameters)}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {SIZE} : index
  scf.for %i = %c0 to %n step %c1 {{
{loads}
    %r = {case.text}
    memref.store %r, %out[%i] : {memref(case.result_type)}
  }}
  return
}}"""


@pytest.fixture(scope="module")
def scalar_unit(workdir: Path) -> ScalarUnit:
    module = parse_module("\n".join(_scalar_function(c) for c in SCALAR_CASES))
    unit = emit_c(module)
    ops: dict[str, Operation] = {}
    for function in module.ops:
        assert isinstance(function, FuncOp)
        case = next(c for c in SCALAR_CASES if c.symbol == function.sym_name.data)
        ops[case.symbol] = next(o for o in function.walk() if o.name == case.op_name)
    return ScalarUnit(Interpreter(module), unit, build(unit, workdir), ops)


def _special_values(key: str, rng: np.random.Generator) -> np.ndarray:
    dtype = np.dtype(DTYPES[key])
    if dtype == np.bool_:
        return rng.integers(0, 2, SIZE).astype(np.bool_)
    if is_float_dtype(dtype):
        specials = np.array(
            [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 1e-3],
            dtype,
        )
        values = (rng.standard_normal(SIZE) * 4).astype(dtype)
        mask = rng.random(SIZE) < 0.3
        values[mask] = rng.choice(specials, int(mask.sum()))
        return values
    info = np.iinfo(dtype)
    width = 8 * dtype.itemsize
    specials = np.array(
        [0, 1, -1, 2, -2, info.min, info.max, width - 1, width, width + 3, 7], np.int64
    ).astype(dtype)
    values = rng.integers(info.min, info.max, SIZE, dtype=dtype, endpoint=True)
    small = rng.integers(-20, 20, SIZE).astype(dtype)
    choice = rng.random(SIZE)
    values = np.where(choice < 0.4, small, values)
    mask = choice > 0.75
    values[mask] = rng.choice(specials, int(mask.sum()))
    return values


def _float_to_integer_inputs(
    domain: str, dtype: np.dtype[Any], rng: np.random.Generator
) -> np.ndarray:
    """Mostly the target's range (in float: its ends may round out of it),
    some values beyond it, NaN and infinities: irkit saturates them all the
    same way (docs/targets.md)."""
    kind, target = domain.split(":")
    if target == "i1":
        low, high = -3.0, 3.0
    else:
        info = np.iinfo(DTYPES[target])
        low = 0.0 if kind == "unsigned" else max(float(info.min), -60000.0)
        high = min(float(info.max), 60000.0)
    values = rng.uniform(low, high, SIZE)
    beyond = rng.choice([-1.0, 1.0], SIZE) * 2.0 ** rng.uniform(7, 70, SIZE)
    specials = rng.choice([np.nan, np.inf, -np.inf, -0.0, 0.5, -0.5], SIZE)
    choice = rng.random(SIZE)
    values = np.where(choice < 0.2, beyond, values)
    values = np.where(choice > 0.9, specials, values)
    with np.errstate(over="ignore"):  # beyond f16's range: infinities
        return values.astype(dtype)


def _inputs(case: ScalarCase, rng: np.random.Generator) -> list[np.ndarray]:
    inputs: list[np.ndarray] = []
    for position, key in enumerate(case.operand_types):
        dtype = np.dtype(DTYPES[key])
        if case.domain == "math":
            inputs.append((rng.random(SIZE) * 4 - 2).astype(dtype))
        elif case.domain == "power" and position == 1:
            inputs.append(rng.integers(-3, 9, SIZE).astype(dtype))
        elif case.domain == "power":
            inputs.append(rng.integers(-4, 5, SIZE).astype(dtype))
        elif case.domain.startswith(("signed:", "unsigned:")):
            inputs.append(_float_to_integer_inputs(case.domain, dtype, rng))
        else:
            inputs.append(_special_values(key, rng))
    return inputs


@dataclass(frozen=True)
class ScalarUnit:
    """The scalar-op module, its C, the loaded library, and for each case
    the op the interpreter evaluates as the reference."""

    interpreter: Interpreter
    unit: CTranslationUnit
    library: ctypes.CDLL
    ops: dict[str, Operation]

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Hypothesis prints a failing test's fixtures too: the C source and
        # every op would bury the seed that reproduces the failure.
        printer.text(f"ScalarUnit(<{len(self.ops)} scalar functions>)")

    def reference(self, case: ScalarCase, inputs: Sequence[np.ndarray]) -> Any:
        """The interpreter's implementation of the op on the whole arrays."""
        operands = tuple(
            np.asarray(a, np.int64) if k == "index" else a
            for a, k in zip(inputs, case.operand_types, strict=True)
        )
        with np.errstate(all="ignore"):
            (result,) = self.interpreter.run_op(self.ops[case.symbol], operands)
        return np.asarray(result).astype(DTYPES[case.result_type])


@needs_cc
def test_the_scalar_unit_prints_small(scalar_unit: ScalarUnit) -> None:
    # Hypothesis prints it with a failing example: once, the C source and
    # every op's object graph, for 10 minutes and more (issue 23).
    assert pretty(scalar_unit) == f"ScalarUnit(<{len(SCALAR_CASES)} scalar functions>)"


@needs_cc
@given(seed=st.integers(0, 2**32 - 1))
def test_scalar_ops_match_the_interpreter(scalar_unit: ScalarUnit, seed: int) -> None:
    rng = np.random.default_rng(seed)
    for case in SCALAR_CASES:
        inputs = _inputs(case, rng)
        status, (actual,) = call(
            scalar_unit.unit, scalar_unit.library, case.symbol, *inputs
        )
        assert status == 0
        expected = scalar_unit.reference(case, inputs)
        assert_close(expected, actual, f"{case.text} on {inputs}")


@needs_cc
def test_integer_semantics_edge_cases(scalar_unit: ScalarUnit) -> None:
    """Wraparound, division by negatives and by zero, over-wide shifts and
    unsigned comparison give MLIR's results (the interpreter's where MLIR
    leaves them undefined), with no undefined behaviour in the C."""
    unit, library = scalar_unit.unit, scalar_unit.library
    i32 = np.int32
    minimum, maximum = np.iinfo(i32).min, np.iinfo(i32).max

    def run(
        symbol: str, a: Sequence[int], b: Sequence[int], out: Any = i32
    ) -> list[Any]:
        lhs = np.resize(np.array(a, i32), SIZE)
        rhs = np.resize(np.array(b, i32), SIZE)
        status, (result,) = call(unit, library, symbol, lhs, rhs)
        assert status == 0
        return result[: len(a)].tolist()

    assert run("arith_addi_i32_i32_to_i32", [maximum], [1]) == [minimum]
    assert run("arith_muli_i32_i32_to_i32", [65536], [65536]) == [0]
    assert run("arith_divsi_i32_i32_to_i32", [-7, 7, minimum, 5], [2, -2, -1, 0]) == [
        -3, -3, minimum, 0,
    ]  # fmt: skip
    assert run("arith_remsi_i32_i32_to_i32", [-7, 7, minimum], [2, -2, -1]) == [
        -1,
        1,
        0,
    ]
    assert run("arith_floordivsi_i32_i32_to_i32", [-7, 7, -8], [2, -2, 2]) == [
        -4,
        -4,
        -4,
    ]
    assert run("arith_ceildivsi_i32_i32_to_i32", [-7, 7, 8], [2, -2, 3]) == [-3, -3, 3]
    assert run("arith_divui_i32_i32_to_i32", [-1, 7], [2, 0]) == [maximum, 0]
    assert run("arith_shli_i32_i32_to_i32", [1, 1, 1], [31, 32, -1]) == [minimum, 0, 0]
    assert run("arith_shrui_i32_i32_to_i32", [-1, -1], [28, 40]) == [15, 0]
    assert run("arith_shrsi_i32_i32_to_i32", [-16, -16, 16], [2, 99, 99]) == [-4, -1, 0]
    assert run("arith_cmpiult_i32_i32_to_i1", [-1, 1], [1, -1], bool) == [False, True]
    assert run("arith_cmpislt_i32_i32_to_i1", [-1, 1], [1, -1], bool) == [True, False]


@needs_cc
@pytest.mark.parametrize(
    ("case", "inputs", "expected"),
    [
        # 3e9 to i32: the value `irkit-run --target c --check` once reported
        # as a mismatch (NumPy's cast gives INT_MIN on x86).
        (
            ("fptosi", "f32", "i32"),
            [3e9, -3e9, np.nan, np.inf, -np.inf, 2.5, -2.5, 2147483520.0],
            [2**31 - 1, -(2**31), 0, 2**31 - 1, -(2**31), 2, -2, 2147483520],
        ),
        # f16 rounds 32767.5 to 32768: one past i16's maximum.
        (
            ("fptosi", "f16", "i16"),
            [32767.5, -32768.0, -40000.0, np.nan],
            [32767, -32768, -32768, 0],
        ),
        (
            ("fptosi", "f64", "i64"),
            [2.0**63, -(2.0**64), 1e300],
            [2**63 - 1, -(2**63), 2**63 - 1],
        ),
        # Unsigned results are stored signless: 255 reads as -1 in an int8.
        (("fptoui", "f64", "i8"), [-5.0, 300.0, 255.9, np.nan], [0, -1, -1, 0]),
        (("fptoui", "f32", "i32"), [-1.0, 5e9, 4e9], [0, -1, -294967296]),
        # i1 is -1 (true) or 0 signed, 0 or 1 (true) unsigned.
        (
            ("fptosi", "f32", "i1"),
            [-1.0, -0.5, 1.0, -7.0, np.nan],
            [True, False, False, True, False],
        ),
        (
            ("fptoui", "f64", "i1"),
            [1.0, 0.9, 7.0, -1.0, np.nan],
            [True, False, True, False, False],
        ),
    ],
    ids=lambda value: "_".join(value) if isinstance(value, tuple) else "",
)
def test_float_to_integer_saturates(
    scalar_unit: ScalarUnit,
    case: tuple[str, str, str],
    inputs: list[float],
    expected: list[Any],
) -> None:
    """Out of range, `fptosi`/`fptoui` give the integer type's minimum or
    maximum and NaN gives 0, in C and on the interpreter alike (MLIR says
    poison; docs/targets.md)."""
    kind, source, target = case
    scalar = next(
        c for c in SCALAR_CASES if c.text == f"arith.{kind} %x0 : {source} to {target}"
    )
    with np.errstate(over="ignore"):
        values = np.resize(np.array(inputs, DTYPES[source]), SIZE)
    status, (actual,) = call(
        scalar_unit.unit, scalar_unit.library, scalar.symbol, values
    )
    assert status == 0
    want = np.array(expected).astype(DTYPES[target])
    assert actual[: len(inputs)].tolist() == want.tolist()
    assert scalar_unit.reference(scalar, [values])[: len(inputs)].tolist() == (
        want.tolist()
    )


# bf16 bit patterns worked out by hand (sign, 8 exponent bits, 7 fraction
# bits): the expected results do not come from ml_dtypes or the interpreter.
BF16_ONE = 0x3F80
BF16_CONVERSIONS = [
    # 1 + 2**-8 is a tie between 1 and 1 + 2**-7: to even, 1. Just above it
    # (by 2**-40, lost in f32) rounds up: a conversion through f32 gives 1.
    (("truncf", "f64", "bf16"), [1 + 2**-8, 1 + 2**-8 + 2**-40], [BF16_ONE, 0x3F81]),
    # 1 + 3 * 2**-8 is a tie between 1 + 2**-7 and 1 + 2**-6: to even.
    (("truncf", "f32", "bf16"), [1 + 3 * 2**-8, -(1 + 2**-8)], [0x3F82, 0xBF80]),
    # Past bf16's largest (0x7F7F) by half a unit or more: infinity; NaN
    # stays NaN (quiet, sign kept); infinities and zeros keep their sign;
    # 2**-134 ties between 0 and bf16's least subnormal 2**-133: to even, 0.
    (
        ("truncf", "f32", "bf16"),
        [3.4e38, -np.inf, np.nan, -0.0, 2.0**-134, 3 * 2.0**-134],
        [0x7F80, 0xFF80, 0x7FC0, 0x8000, 0x0000, 0x0002],
    ),
    # 2**24 + 2**16 + 1 is past the tie between 2**24 and 2**24 + 2**17;
    # in f32 it is 2**24 + 2**16, the tie itself, which rounds to 2**24.
    (("sitofp", "i32", "bf16"), [2**24 + 2**16 + 1, -3, 257], [0x4B81, 0xC040, 0x4380]),
    (("uitofp", "i32", "bf16"), [-1], [0x4F80]),  # 2**32 - 1 rounds to 2**32
]


@needs_cc
@pytest.mark.parametrize(
    ("case", "inputs", "expected"),
    BF16_CONVERSIONS,
    ids=lambda value: "_".join(value) if isinstance(value, tuple) else "",
)
def test_bf16_conversions_round_once_to_nearest_even(
    scalar_unit: ScalarUnit,
    case: tuple[str, str, str],
    inputs: list[float],
    expected: list[int],
) -> None:
    """The C helpers and the interpreter give the same bits, bf16's correctly
    rounded value (ml_dtypes alone rounds f64 and integers twice)."""
    kind, source, target = case
    scalar = next(
        c for c in SCALAR_CASES if c.text == f"arith.{kind} %x0 : {source} to {target}"
    )
    with np.errstate(over="ignore"):
        values = np.resize(np.array(inputs, DTYPES[source]), SIZE)
    status, (actual,) = call(
        scalar_unit.unit, scalar_unit.library, scalar.symbol, values
    )
    assert status == 0
    count = len(inputs)
    assert actual[:count].view(np.uint16).tolist() == expected
    reference = scalar_unit.reference(scalar, [values])[:count]
    assert reference.view(np.uint16).tolist() == expected


@needs_cc
def test_bf16_widens_exactly_and_computes_in_float(scalar_unit: ScalarUnit) -> None:
    """bf16 to float is the bits shifted up; each op rounds its float result
    once: 1 + 2**-7 (0x3F81) squared is 1 + 2**-6 + 2**-14, which rounds to
    1 + 2**-6 (0x3F82)."""
    bits = np.resize(np.array([0x3F81, 0xC0A0, 0x7F80, 0x0001], np.uint16), SIZE)
    values = bits.view(BFLOAT16)
    symbol = next(c for c in SCALAR_CASES if c.text == "arith.extf %x0 : bf16 to f32")
    status, (wide,) = call(scalar_unit.unit, scalar_unit.library, symbol.symbol, values)
    assert status == 0
    assert wide[:4].tolist() == [1 + 2**-7, -5.0, np.inf, 2.0**-133]
    square = next(c for c in SCALAR_CASES if c.text == "arith.mulf %x0, %x1 : bf16")
    status, (product,) = call(
        scalar_unit.unit, scalar_unit.library, square.symbol, values, values
    )
    assert status == 0
    assert product[:2].view(np.uint16).tolist() == [0x3F82, 0x41C8]


# ---------------------------------------------------------------------------
# Loop nests, views, globals, calls and statuses against NumPy
# ---------------------------------------------------------------------------

PROGRAMS = """
"memref.global"() <{sym_name = "table", sym_visibility = "private",
  type = memref<2x3xf32>, constant,
  initial_value = dense<[[1.5, 0x7FC00000, 0x7F800000], [-0.0, 1.0e-40, 3.4e38]]>
  : tensor<2x3xf32>}> : () -> ()
"memref.global"() <{sym_name = "splat", sym_visibility = "private",
  type = memref<4xi8>, constant, initial_value = dense<-128> : tensor<4xi8>}>
  : () -> ()
"memref.global"() <{sym_name = "counter", sym_visibility = "private",
  type = memref<1xi64>, initial_value = dense<5> : tensor<1xi64>}> : () -> ()

func.func @matmul(%a: memref<4x3xf32>, %b: memref<3x5xf32>,
                  %out: memref<4x5xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c5) step (%c1, %c1) {
    %sum = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zero) -> (f32) {
      %x = memref.load %a[%i, %k] : memref<4x3xf32>
      %y = memref.load %b[%k, %j] : memref<3x5xf32>
      %p = arith.mulf %x, %y : f32
      %s = arith.addf %acc, %p : f32
      scf.yield %s : f32
    }
    memref.store %sum, %out[%i, %j] : memref<4x5xf32>
    scf.reduce
  }
  return
}

func.func @fibonacci_and_swap(%n: index, %out: memref<4xi64> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %fib:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero, %b = %one) -> (i64, i64) {
    %s = arith.addi %a, %b : i64
    scf.yield %b, %s : i64, i64
  }
  %swapped:2 = scf.for %i = %c0 to %n step %c1 iter_args(%x = %zero, %y = %one) -> (i64, i64) {
    scf.yield %y, %x : i64, i64
  }
  memref.store %fib#0, %out[%c0] : memref<4xi64>
  memref.store %fib#1, %out[%c1] : memref<4xi64>
  memref.store %swapped#0, %out[%c2] : memref<4xi64>
  memref.store %swapped#1, %out[%c3] : memref<4xi64>
  return
}

func.func @relu_or_scale(%a: memref<16xf64>, %out: memref<16xf64> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  scf.for %i = %c0 to %c16 step %c1 {
    %x = memref.load %a[%i] : memref<16xf64>
    %positive = arith.cmpf ogt, %x, %zero : f64
    %r = scf.if %positive -> (f64) {
      %e = math.exp %x : f64
      scf.yield %e : f64
    } else {
      %m = arith.mulf %x, %half : f64
      scf.yield %m : f64
    }
    memref.store %r, %out[%i] : memref<16xf64>
  }
  return
}

func.func @views(%a: memref<6x8xf32>, %row: index,
                 %strided: memref<2x3xf32> {irkit.output},
                 %flat: memref<48xf32> {irkit.output},
                 %transposed: memref<8x6xf32> {irkit.output},
                 %window: memref<2x4xf32> {irkit.output},
                 %line: memref<8xf32> {irkit.output},
                 %dims: memref<2xindex> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %s = memref.subview %a[1, 2] [2, 3] [1, 2]
    : memref<6x8xf32> to memref<2x3xf32, strided<[8, 2], offset: 10>>
  "memref.copy"(%s, %strided)
    : (memref<2x3xf32, strided<[8, 2], offset: 10>>, memref<2x3xf32>) -> ()
  %tmp = memref.alloc() : memref<6x8xf32>
  "memref.copy"(%a, %tmp) : (memref<6x8xf32>, memref<6x8xf32>) -> ()
  %c = memref.collapse_shape %tmp [[0, 1]] : memref<6x8xf32> into memref<48xf32>
  "memref.copy"(%c, %flat) : (memref<48xf32>, memref<48xf32>) -> ()
  memref.dealloc %tmp : memref<6x8xf32>
  %t = memref.reinterpret_cast %a to offset: [0], sizes: [8, 6], strides: [1, 8]
    : memref<6x8xf32> to memref<8x6xf32, strided<[1, 8]>>
  "memref.copy"(%t, %transposed)
    : (memref<8x6xf32, strided<[1, 8]>>, memref<8x6xf32>) -> ()
  %w = memref.subview %a[%row, %c2] [2, 4] [1, 1]
    : memref<6x8xf32> to memref<2x4xf32, strided<[8, 1], offset: ?>>
  %scratch = memref.alloca() : memref<2x4xf32>
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %v = memref.load %w[%i, %j] : memref<2x4xf32, strided<[8, 1], offset: ?>>
      memref.store %v, %scratch[%i, %j] : memref<2x4xf32>
    }
  }
  %e = memref.expand_shape %flat [[0, 1]] output_shape [6, 8]
    : memref<48xf32> into memref<6x8xf32>
  %unused = memref.load %e[%c1, %c1] : memref<6x8xf32>
  "memref.copy"(%scratch, %window) : (memref<2x4xf32>, memref<2x4xf32>) -> ()
  %l = memref.subview %a[%row, 0] [1, 8] [1, 1]
    : memref<6x8xf32> to memref<8xf32, strided<[1], offset: ?>>
  "memref.copy"(%l, %line) : (memref<8xf32, strided<[1], offset: ?>>, memref<8xf32>) -> ()
  %d = memref.subview %a[0, 0] [%row, %c4] [1, 1]
    : memref<6x8xf32> to memref<?x?xf32, strided<[8, 1]>>
  %d0 = memref.dim %d, %c0 : memref<?x?xf32, strided<[8, 1]>>
  %d1 = memref.dim %d, %c1 : memref<?x?xf32, strided<[8, 1]>>
  memref.store %d0, %dims[%c0] : memref<2xindex>
  memref.store %d1, %dims[%c1] : memref<2xindex>
  return
}

func.func @globals(%table: memref<2x3xf32> {irkit.output},
                   %bytes: memref<4xi8> {irkit.output},
                   %count: memref<1xi64> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %g = memref.get_global @table : memref<2x3xf32>
  "memref.copy"(%g, %table) : (memref<2x3xf32>, memref<2x3xf32>) -> ()
  %s = memref.get_global @splat : memref<4xi8>
  "memref.copy"(%s, %bytes) : (memref<4xi8>, memref<4xi8>) -> ()
  %k = memref.get_global @counter : memref<1xi64>
  %v = memref.load %k[%c0] : memref<1xi64>
  %one = arith.constant 1 : i64
  %next = arith.addi %v, %one : i64
  memref.store %next, %k[%c0] : memref<1xi64>
  memref.store %next, %count[%c0] : memref<1xi64>
  return
}

func.func @gather(%indices: memref<4xi64>, %table: memref<10xf32>,
                  %out: memref<4xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0 : i64
  %ten = arith.constant 10 : i64
  scf.for %i = %c0 to %c4 step %c1 {
    %k = memref.load %indices[%i] : memref<4xi64>
    %nonnegative = arith.cmpi sge, %k, %zero : i64
    cf.assert %nonnegative, "index is negative"
    %small = arith.cmpi slt, %k, %ten : i64
    cf.assert %small, "index out of range"
    %index = arith.index_cast %k : i64 to index
    %v = memref.load %table[%index] : memref<10xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  }
  return
}

func.func @gather_twice(%indices: memref<4xi64>, %table: memref<10xf32>,
                        %out: memref<4xf32> {irkit.output}) {
  %tmp = memref.alloc() : memref<4xf32>
  func.call @gather(%indices, %table, %tmp)
    : (memref<4xi64>, memref<10xf32>, memref<4xf32>) -> ()
  func.call @gather(%indices, %table, %out)
    : (memref<4xi64>, memref<10xf32>, memref<4xf32>) -> ()
  memref.dealloc %tmp : memref<4xf32>
  return
}

func.func @sum_and_doublings(%a: memref<32xf32>, %limit: i64,
                             %out: memref<1xf32> {irkit.output},
                             %steps: memref<1xi64> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.parallel (%i) = (%c0) to (%c32) step (%c1) init (%zero) -> f32 {
    %x = memref.load %a[%i] : memref<32xf32>
    scf.reduce(%x : f32) {
    ^bb0(%lhs: f32, %rhs: f32):
      %s = arith.addf %lhs, %rhs : f32
      scf.reduce.return %s : f32
    }
  }
  memref.store %sum, %out[%c0] : memref<1xf32>
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %zero_i64 = arith.constant 0 : i64
  %count:2 = scf.while (%v = %one, %n = %zero_i64) : (i64, i64) -> (i64, i64) {
    %go = arith.cmpi slt, %v, %limit : i64
    scf.condition(%go) %v, %n : i64, i64
  } do {
  ^bb0(%v2: i64, %n2: i64):
    %doubled = arith.muli %v2, %two : i64
    %more = arith.addi %n2, %one : i64
    scf.yield %doubled, %more : i64, i64
  }
  memref.store %count#1, %steps[%c0] : memref<1xi64>
  return
}

func.func @forall_scale(%a: memref<4x6xf32>, %n: index,
                        %out: memref<4x6xf32> {irkit.output}) {
  %two = arith.constant 2.0 : f32
  %c0 = arith.constant 0 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  scf.forall (%i, %j) in (4, 6) {
    memref.store %zero, %out[%i, %j] : memref<4x6xf32>
  }
  scf.forall (%i, %j) = (0, %c0) to (4, %n) step (1, 1) {
    %x = memref.load %a[%i, %j] : memref<4x6xf32>
    %y = arith.mulf %x, %two : f32
    memref.store %y, %out[%i, %j] : memref<4x6xf32>
  }
  return
}

func.func @affine_maps(%x: index, %y: index, %out: memref<4xindex> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %f = affine.apply affine_map<(d0)[s0] -> (d0 floordiv 4 + s0 * 3)>(%x)[%y]
  %m = affine.apply affine_map<(d0) -> (d0 mod 5)>(%x)
  %c = affine.apply affine_map<(d0, d1) -> (d0 ceildiv 3 - d1)>(%x, %y)
  %lo = affine.min affine_map<(d0, d1) -> (d0, d1 + 2, 7)>(%x, %y)
  memref.store %f, %out[%c0] : memref<4xindex>
  memref.store %m, %out[%c1] : memref<4xindex>
  memref.store %c, %out[%c2] : memref<4xindex>
  memref.store %lo, %out[%c3] : memref<4xindex>
  return
}
"""


@pytest.fixture(scope="module")
def programs(workdir: Path) -> tuple[CTranslationUnit, ctypes.CDLL]:
    unit = emit_c(parse_module(PROGRAMS))
    return unit, build(unit, workdir)


def _program_inputs(rng: np.random.Generator) -> dict[str, list[Any]]:
    return {
        "matmul": [
            rng.standard_normal((4, 3)).astype(np.float32),
            rng.standard_normal((3, 5)).astype(np.float32),
        ],
        "fibonacci_and_swap": [int(rng.integers(0, 20))],
        "relu_or_scale": [rng.standard_normal(16) * 3],
        "views": [
            rng.standard_normal((6, 8)).astype(np.float32),
            int(rng.integers(0, 5)),
        ],
        "gather": [rng.integers(0, 10, 4), rng.standard_normal(10).astype(np.float32)],
        "gather_twice": [
            rng.integers(0, 10, 4),
            rng.standard_normal(10).astype(np.float32),
        ],
        "sum_and_doublings": [
            rng.standard_normal(32).astype(np.float32),
            int(rng.integers(-5, 5000)),
        ],
        "affine_maps": [int(rng.integers(-50, 50)), int(rng.integers(-50, 50))],
        "forall_scale": [
            rng.standard_normal((4, 6)).astype(np.float32),
            int(rng.integers(0, 7)),
        ],
    }


@needs_cc
@given(seed=st.integers(0, 2**32 - 1))
def test_programs_match_the_interpreter(
    programs: tuple[CTranslationUnit, ctypes.CDLL], seed: int
) -> None:
    """Each loop-level program gives the interpreter's outputs."""
    unit, library = programs
    module = parse_module(PROGRAMS)
    for symbol, inputs in _program_inputs(np.random.default_rng(seed)).items():
        expected = interpret(module, symbol, *inputs)
        status, outputs = call(unit, library, symbol, *inputs)
        assert status == 0
        assert len(outputs) == len(expected)
        for index, (want, got) in enumerate(zip(expected, outputs, strict=True)):
            assert_close(want, got, f"@{symbol} output #{index}")


@needs_cc
def test_matmul_with_iter_args(programs: tuple[CTranslationUnit, ctypes.CDLL]) -> None:
    unit, library = programs
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 3)).astype(np.float32)
    b = rng.standard_normal((3, 5)).astype(np.float32)
    status, (out,) = call(unit, library, "matmul", a, b)
    assert status == 0
    assert_close(a @ b, out)


@needs_cc
def test_iter_args_are_assigned_in_parallel(
    programs: tuple[CTranslationUnit, ctypes.CDLL],
) -> None:
    unit, library = programs
    for n in (0, 1, 2, 7, 10):
        status, (out,) = call(unit, library, "fibonacci_and_swap", n)
        fib = [0, 1]
        for _ in range(n):
            fib = [fib[1], fib[0] + fib[1]]
        swapped = [0, 1] if n % 2 == 0 else [1, 0]
        assert status == 0
        assert out.tolist() == fib + swapped


@needs_cc
def test_if_with_results(programs: tuple[CTranslationUnit, ctypes.CDLL]) -> None:
    unit, library = programs
    a = np.linspace(-3, 3, 16)
    status, (out,) = call(unit, library, "relu_or_scale", a)
    assert status == 0
    assert_close(np.where(a > 0, np.exp(a), a * 0.5), out)


@needs_cc
def test_views_subviews_copies_and_allocations(
    programs: tuple[CTranslationUnit, ctypes.CDLL],
) -> None:
    unit, library = programs
    a = np.arange(48, dtype=np.float32).reshape(6, 8) + 0.25
    for row in (0, 3, 4):
        status, (strided, flat, transposed, window, line, dims) = call(
            unit, library, "views", a, row
        )
        assert status == 0
        assert_close(a[1:3, 2:8:2], strided)
        assert_close(a.reshape(-1), flat)
        assert_close(a.reshape(-1).reshape(6, 8).T.copy(), transposed)
        assert_close(a[row : row + 2, 2:6], window)
        assert_close(a[row], line)
        assert dims.tolist() == [row, 4]
    assert "memcpy(" in unit.source  # the contiguous copy


@needs_cc
def test_globals_keep_exact_values(
    programs: tuple[CTranslationUnit, ctypes.CDLL],
) -> None:
    unit, library = programs
    status, (table, splat, count) = call(unit, library, "globals")
    expected = np.array([[1.5, np.nan, np.inf], [-0.0, 1.0e-40, 3.4e38]], np.float32)
    assert status == 0
    assert table.tobytes()[4:] != b""  # shape sanity
    assert np.array_equal(table, expected, equal_nan=True)
    assert np.signbit(table[1, 0])
    assert splat.tolist() == [-128] * 4
    assert count.tolist() == [6]
    # A mutable global keeps its state between calls, as a C static does.
    assert call(unit, library, "globals")[1][2].tolist() == [7]


@needs_cc
def test_assertion_statuses(programs: tuple[CTranslationUnit, ctypes.CDLL]) -> None:
    unit, library = programs
    table = np.arange(10, dtype=np.float32) * 1.5 + 1
    function = unit.functions["gather"]
    for symbol in ("gather", "gather_twice"):
        status, (out,) = call(unit, library, symbol, np.array([3, 0, 9, 2]), table)
        assert status == 0
        assert_close(table[[3, 0, 9, 2]], out)
        status, _ = call(unit, library, symbol, np.array([3, -1, 9, 2]), table)
        assert function.assertions[status - 1] == "index is negative"
        status, _ = call(unit, library, symbol, np.array([3, 1, 10, 2]), table)
        assert function.assertions[status - 1] == "index out of range"
    assert unit.functions["gather_twice"].assertions == function.assertions
    assert ALLOCATION_FAILURE_STATUS < 0


@needs_cc
def test_parallel_reduction_and_while(
    programs: tuple[CTranslationUnit, ctypes.CDLL],
) -> None:
    unit, library = programs
    a = np.random.default_rng(3).standard_normal(32).astype(np.float32)
    for limit, doublings in ((1, 0), (2, 1), (100, 7), (1024, 10)):
        status, (total, steps) = call(unit, library, "sum_and_doublings", a, limit)
        assert status == 0
        assert_close(np.array([a.sum()], np.float32), total)
        assert steps.tolist() == [doublings]


@needs_cc
def test_affine_maps_use_mlir_rounding(
    programs: tuple[CTranslationUnit, ctypes.CDLL],
) -> None:
    unit, library = programs
    for x in range(-13, 14):
        for y in (-5, 0, 4):
            status, (out,) = call(unit, library, "affine_maps", x, y)
            # Python's // and % (positive divisor) round like MLIR's floordiv/mod.
            expected = [x // 4 + y * 3, x % 5, -(-x // 3) - y, min(x, y + 2, 7)]
            assert status == 0
            assert out.tolist() == expected, (x, y)


@needs_cc
def test_openmp_build_runs_the_parallel_loop(workdir: Path) -> None:
    text = """
    func.func @scale(%a: memref<512x64xf32>, %out: memref<512x64xf32> {irkit.output}) {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %two = arith.constant 2.0 : f32
      scf.parallel (%i, %j) = (%c0, %c0) to (%c512, %c64) step (%c1, %c1) {
        %x = memref.load %a[%i, %j] : memref<512x64xf32>
        %y = arith.mulf %x, %two : f32
        memref.store %y, %out[%i, %j] : memref<512x64xf32>
        scf.reduce
      }
      return
    }
    """
    unit = emit_c(parse_module(text))
    assert "#pragma omp parallel for simd collapse(2)" in unit.source
    library = build(unit, workdir, openmp=True)
    a = np.random.default_rng(0).standard_normal((512, 64)).astype(np.float32)
    status, (out,) = call(unit, library, "scale", a)
    assert status == 0
    assert_close(a * 2, out)


# ---------------------------------------------------------------------------
# Names cannot inject C; errors are located
# ---------------------------------------------------------------------------

HOSTILE = r"""
func.func @"a(); system(\"rm -rf /\"); int b("(%int: memref<2xf32>,
    %NULL: memref<2xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %malloc = memref.load %int[%c0] : memref<2xf32>
  %expf = math.exp %malloc : f32
  %_Bool = arith.addf %expf, %malloc : f32
  %x.y = arith.addf %_Bool, %_Bool : f32
  %irkit_divsi_i32 = arith.addf %x.y, %x.y : f32
  memref.store %irkit_divsi_i32, %NULL[%c0] : memref<2xf32>
  %c1 = arith.constant 1 : index
  memref.store %expf, %NULL[%c1] : memref<2xf32>
  return
}
func.func @"a.b"(%a: memref<1xf32> {irkit.output}) { return }
func.func @"a_x2E_b"(%a: memref<1xf32> {irkit.output}) { return }
func.func @main(%a: memref<1xf32> {irkit.output}) { return }
func.func @free(%a: memref<1xf32> {irkit.output}) { return }
func.func @"1st"(%a: memref<1xf32> {irkit.output}) { return }
func.func @"_Exit"(%a: memref<1xf32> {irkit.output}) { return }
func.func @"*/ int x; /*"(%a: memref<1xf32> {irkit.output}) { return }
func.func @"naïve"(%a: memref<1xf32> {irkit.output}) { return }
"""


@needs_cc
def test_hostile_names_become_harmless_identifiers(workdir: Path) -> None:
    unit = emit_c(parse_module(HOSTILE))
    names = [function.c_name for function in unit.functions.values()]
    assert len(set(names)) == len(names)
    for name in names:
        assert re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name), name
        assert name not in ("main", "free")
    for statement in ("system(", '"rm', "int b(", "*/", "/*"):
        body = unit.source.split("\n", 1)[1]  # after the generated-by comment
        assert statement not in body
    library = build(unit, workdir)
    status, (out,) = call(unit, library, 'a(); system("rm -rf /"); int b(', [0.5, 2.0])
    assert status == 0
    e = np.exp(np.float32(0.5))
    assert_close(np.array([4 * (e + np.float32(0.5)), e], np.float32), out)
    for symbol in ("a.b", "a_x2E_b", "main", "free", "1st", "_Exit", "naïve"):
        assert call(unit, library, symbol)[0] == 0


def _emit_error(text: str) -> DiagnosticError:
    with pytest.raises(DiagnosticError) as raised:
        emit_c(parse_module(text, filename="input.mlir"))
    return raised.value


def test_unprintable_op_is_a_located_error() -> None:
    error = _emit_error(
        "func.func @f(%out: memref<4xf32> {irkit.output}) {\n"
        "  %t = tensor.empty() : tensor<4xf32>\n"
        "  return\n"
        "}\n"
    )
    assert error.message == "C target cannot print op 'tensor.empty'"
    assert error.location is not None
    assert (error.location.file, error.location.line, error.location.col) == (
        "input.mlir", 2, 3,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "func.func @f(%a: f32) -> f32 {\n  return %a : f32\n}",
            "C target: functions return through output buffers",
        ),
        (
            "func.func @f(%a: memref<4xf32>) {\n  %c0 = arith.constant 0 : index\n"
            "  %x = arith.constant 1.0 : f32\n"
            "  memref.store %x, %a[%c0] : memref<4xf32>\n  return\n}",
            "C target: stores to a read-only buffer (an input or a constant)",
        ),
        (
            "func.func @f(%a: memref<?xf32>) {\n  return\n}",
            "C target: argument #0 needs a static shape",
        ),
        (
            "func.func @f(%a: memref<4xf32>, %o: memref<4xf32> {irkit.output}) {\n"
            "  func.call @g(%a) : (memref<4xf32>) -> ()\n  return\n}\n"
            "func.func private @g(%a: memref<4xf32>)",
            "C target: calls only functions defined in the module",
        ),
    ],
)
def test_unsupported_input_is_rejected(body: str, message: str) -> None:
    error = _emit_error(body)
    assert error.message == message
    assert error.location is not None
