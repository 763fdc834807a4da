"""The C target's f32 `exp`, `tanh` and `erf` (`irkit.targets.c_math`).

Each function is compiled as the runtime compiles every program (the host's
C compiler, `-O3 -march=native -fopenmp -fno-trapping-math`) and run over a
dense sweep of f32 inputs: every 8191st bit pattern (both signs, denormals,
infinities and NaNs included), the edge values, and the 4096 floats on each
side of every point where the implementation switches formula or saturates.
Each result is compared with the float64 result rounded to f32 (NumPy's
`exp` and `tanh`, the interpreter's `erf`) in f32 ulps, the count of f32
numbers between the two: the documented bounds are 1 for exp and tanh, 2
for erf (the whole f32 range was checked once by `c_math_exhaustive.py`:
`docs/targets.md`). NaN must stay NaN and nothing else may become NaN.

Then: the special values exactly (signed zeros, infinities, NaN), f16 and bf16
through the f32 helpers, f64 still on libm, a loop over the helpers
vectorised by gcc, and random `nn` programs of exp, tanh, erf, sigmoid and
GELU over wide input ranges on the C target against the interpreter.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from xdsl.dialects.func import FuncOp

import irkit
from irkit.dtypes import BFLOAT16
from irkit.interpreter.special import erf
from irkit.parsing import parse_module
from irkit.runtime.cpu import CompiledFunction, load_function, toolchain
from irkit.targets.c import emit_c
from irkit.testing import compare_arrays, random_arguments
from irkit.testing.strategies import nn_programs

needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")

CHUNK = 1 << 16
# The documented bound, in f32 ulps, for each function.
MAX_ULPS = {"exp": 1, "tanh": 1, "erf": 2}
REFERENCES: dict[str, Callable[[np.ndarray], Any]] = {
    "exp": np.exp,
    "tanh": np.tanh,
    "erf": erf,
}
# Where a formula changes or the result saturates (c_math's constants).
SWITCH_POINTS = {
    "exp": (
        0.0,
        float.fromhex("0x1.62e42ep+6"),  # the largest finite result
        -float.fromhex("0x1.9fe368p+6"),  # the smallest nonzero result
        -float.fromhex("0x1.5d589ep+6"),  # results turn denormal (2^-126)
        -104.0,
        89.0,
        float.fromhex("0x1.62e4p-2"),  # n changes (ln 2 / 2)
    ),
    "tanh": (0.0, 0.625, -0.625, 9.0, 44.5),
    "erf": (0.0, 1.0, -1.0, float.fromhex("0x1.f5a888p+1"), 4.0),
}
EDGES = np.array(
    [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        float.fromhex("0x1p-149"),
        -float.fromhex("0x1p-149"),
        float.fromhex("0x1.fffffcp-127"),  # the largest denormal
        float.fromhex("0x1p-126"),  # the smallest normal
        float.fromhex("0x1.fffffep+127"),  # FLT_MAX
        -float.fromhex("0x1.fffffep+127"),
    ],
    np.float32,
)


def math_program(element: str, size: int) -> str:
    """exp, tanh and erf over `size` elements of `element`, one function each."""
    functions = []
    for name in MAX_ULPS:
        memref = f"memref<{size}x{element}>"
        functions.append(f"""
func.func @{name}(%a: {memref}, %out: {memref} {{irkit.output}}) {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant {size} : index
  scf.for %i = %c0 to %n step %c1 {{
    %x = memref.load %a[%i] : {memref}
    %r = math.{name} %x : {element}
    memref.store %r, %out[%i] : {memref}
  }}
  return
}}""")
    return "\n".join(functions)


def _compiled(element: str, size: int) -> dict[str, CompiledFunction]:
    module = parse_module(math_program(element, size))
    unit = emit_c(module)
    functions = {op.sym_name.data: op for op in module.ops if isinstance(op, FuncOp)}
    return {
        name: load_function(unit, name, functions[name], checked=True)
        for name in MAX_ULPS
    }


@pytest.fixture(scope="module")
def f32_functions() -> dict[str, CompiledFunction]:
    return _compiled("f32", CHUNK)


def _run(function: CompiledFunction, x: np.ndarray) -> np.ndarray:
    """`function` over `x` of any length, CHUNK elements per call."""
    padded = np.zeros(-(-x.size // CHUNK) * CHUNK, np.float32)
    padded[: x.size] = x
    pieces = [function(padded[i : i + CHUNK])[0] for i in range(0, padded.size, CHUNK)]
    return np.concatenate(pieces)[: x.size]


def _neighbourhood(point: float, count: int = 4096) -> np.ndarray:
    """The `count` f32 numbers on each side of `point` (and `point`)."""
    bits = np.array([point], np.float32).view(np.int32).astype(np.int64)[0]
    if bits < 0:  # negative: order by magnitude
        bits = -(bits & 0x7FFFFFFF)
    ordered = np.arange(bits - count, bits + count + 1)
    raw = np.where(ordered < 0, (-ordered) | (1 << 31), ordered)
    return raw.astype(np.uint32).view(np.float32)


def _sweep(name: str) -> np.ndarray:
    patterns = np.arange(0, 1 << 32, 8191, dtype=np.uint64).astype(np.uint32)
    around = [_neighbourhood(p) for p in SWITCH_POINTS[name]]
    return np.concatenate([patterns.view(np.float32), EDGES, *around])


def _ordered(values: np.ndarray) -> np.ndarray:
    """f32 bit patterns as integers in the order of the numbers (+-0 alike)."""
    bits = values.view(np.int32).astype(np.int64)
    return np.where(bits < 0, -(bits & 0x7FFFFFFF), bits)


def ulp_distances(got: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """f32 ulps between `got` and `expected`; NaN against NaN is 0, NaN
    against a number is 2^40."""
    distance = np.abs(_ordered(got) - _ordered(expected))
    nan_got, nan_expected = np.isnan(got), np.isnan(expected)
    distance[nan_got & nan_expected] = 0
    distance[nan_got != nan_expected] = 1 << 40
    return distance


def _reference(name: str, x: np.ndarray) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.asarray(REFERENCES[name](x.astype(np.float64))).astype(np.float32)


@needs_cc
@pytest.mark.parametrize("name", sorted(MAX_ULPS))
def test_f32_helper_is_within_its_ulp_bound(
    f32_functions: dict[str, CompiledFunction], name: str
) -> None:
    x = _sweep(name)
    got = _run(f32_functions[name], x)
    distances = ulp_distances(got, _reference(name, x))
    worst = int(np.argmax(distances))
    assert distances.max() <= MAX_ULPS[name], (
        f"{name}({x[worst]!r}) = {got[worst]!r}, expected "
        f"{_reference(name, x[worst : worst + 1])[0]!r}: {distances[worst]} ulps"
    )
    # Most results are the correctly rounded ones: an implementation merely
    # inside the bound everywhere would show here.
    assert (distances == 0).mean() > 0.9


@needs_cc
def test_special_values_exactly(f32_functions: dict[str, CompiledFunction]) -> None:
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 100.0, -200.0])
    expected = {
        "exp": [1.0, 1.0, np.inf, 0.0, np.nan, np.nan, np.inf, 0.0],
        "tanh": [0.0, -0.0, 1.0, -1.0, np.nan, np.nan, 1.0, -1.0],
        "erf": [0.0, -0.0, 1.0, -1.0, np.nan, np.nan, 1.0, -1.0],
    }
    for name, values in expected.items():
        got = _run(f32_functions[name], x.astype(np.float32))
        want = np.array(values, np.float32)
        np.testing.assert_array_equal(got, want, err_msg=name)
        # Signed zeros keep their sign (exp's zeros are +0); a NaN's is free.
        numbers = ~np.isnan(want)
        assert (np.signbit(got) == np.signbit(want))[numbers].all(), name


@needs_cc
@pytest.mark.parametrize("element", ["f16", "bf16"])
def test_halves_compute_through_the_f32_helpers(element: str) -> None:
    """Every f16 and bf16 input: the f32 helper's result rounded once to the
    half type is the correctly rounded result (f32's extra bits absorb the
    helper's ulp), the interpreter's too."""
    dtype = np.dtype(np.float16 if element == "f16" else BFLOAT16)
    x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(dtype)
    functions = _compiled(element, 1 << 16)
    for name, function in functions.items():
        assert f"irkit_{name}_f32" in function.source
        (got,) = function(x)
        with np.errstate(over="ignore"):  # exp past f16's range: infinity
            want = _reference(name, x.astype(np.float32)).astype(dtype)
        difference = compare_arrays(want, got, rtol=0, atol=0)
        assert difference is None, f"{name} {element}: {difference.describe()}"


def test_f64_keeps_libm() -> None:
    source = emit_c(parse_module(math_program("f64", 4))).source
    for name in MAX_ULPS:
        assert f" {name}(x)" in source
        assert f"irkit_{name}" not in source


def _is_gcc() -> bool:
    command = toolchain().command
    version = subprocess.run(
        [*command, "--version"], capture_output=True, text=True, check=False
    )
    return "Free Software Foundation" in version.stdout and "clang" not in (
        version.stdout
    )


@needs_cc
def test_gcc_vectorises_loops_over_the_helpers(tmp_path: Path) -> None:
    """What the helpers are for: each loop is vectorised (no libm call
    left in it), by the flags the runtime compiles with."""
    if not _is_gcc():
        pytest.skip("the system C compiler is not gcc")
    tools = toolchain()
    source = tmp_path / "math.c"
    source.write_text(emit_c(parse_module(math_program("f32", 1024))).source)
    report = subprocess.run(
        [
            *tools.command,
            *tools.shared_library_flags,
            "-fopt-info-vec-optimized",
            "-c",
            str(source),
            "-o",
            str(tmp_path / "math.o"),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = source.read_text().splitlines()
    vectorised = {
        lines[int(match.group(1)) - 1].strip()
        for match in re.finditer(
            r":(\d+):\d+: optimized: loop vectorized", report.stderr
        )
    }
    loops = [line.strip() for line in lines if line.strip().startswith("for (")]
    assert len(loops) == len(MAX_ULPS)
    assert set(loops) <= vectorised, report.stderr


# ---------------------------------------------------------------------------
# Random programs on the C target against the interpreter
# ---------------------------------------------------------------------------

TRANSCENDENTAL_OPS = {"nn.exp", "nn.tanh", "nn.erf", "nn.sigmoid", "nn.gelu"}


@needs_cc
@settings(max_examples=max(4, settings().max_examples // 6), deadline=None)
@given(
    program=nn_programs(max_ops=3, ops=TRANSCENDENTAL_OPS, max_dim=5).map(str),
    scale=st.sampled_from([1.0, 6.0, 40.0, 120.0]),
    specials=st.booleans(),
)
def test_random_transcendental_programs_match_the_interpreter(
    program: str, scale: float, specials: bool
) -> None:
    module = irkit.parse(program)
    main = module.body.block.first_op
    assert isinstance(main, FuncOp)
    rng = np.random.default_rng(0)
    inputs: list[Any] = []
    for value in random_arguments(main, rng):
        # Past the thresholds of each function (saturation, overflow).
        array = (np.asarray(value) * scale).astype(np.float32)
        if specials and array.size:
            flat = array.reshape(-1)
            flat[rng.integers(0, flat.size, 2)] = rng.choice(
                [np.inf, -np.inf, np.nan, 0.0, -0.0], 2
            )
        inputs.append(array)
    compiled: Any = irkit.compile(program, target="c")
    # The rewrite fired: the helpers, not libm, compute these ops.
    assert re.search(r"irkit_(exp|tanh|erf)_f32\(", compiled.source)
    assert not re.search(r"\b(expf|tanhf|erff)\(", compiled.source)
    with np.errstate(all="ignore"):
        want = irkit.interpret(module, "main", *inputs)
    got = compiled(*inputs)
    for index, (g, w) in enumerate(zip(got, want, strict=True)):
        difference = compare_arrays(w, g)
        assert difference is None, f"result {index}: {difference.describe()}"
