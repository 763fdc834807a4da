"""A failing property test reports its counterexample, as IR text, in seconds
(issue 23, item 1): Hypothesis once pretty-printed xDSL's object graph for
10 to 29 minutes instead. Each deliberately failing test runs in a pytest of
its own, which must finish within `REPORT_SECONDS`."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis.vendor.pretty import pretty

from irkit.parsing import parse_module
from irkit.testing.printing import IRText

ROOT = Path(__file__).resolve().parents[2]
REPORT_SECONDS = 30

PREAMBLE = """
import pytest
from hypothesis import given, settings, strategies as st

from irkit.testing import check_pass
from irkit.testing.strategies import lowered, nn_programs

settings.load_profile("ci")
"""

FAILING_TESTS = {
    # The GPU matmul programs of the relayout and pipeline-copies tests,
    # through check_pass: barriers dropped, the grid emulator sees a race.
    "check_pass_on_gpu_matmuls": """
from tests.properties.gpu_matmuls import matmul_programs, up_to
from tests.testing.mutants import DropGpuBarriersPass

UP_TO = up_to(
    "matmul-block=8,8,2 matmul-thread=4,4 matmul-cyclic=true elementwise-block=4",
    "gpu-promote-accumulators",
)

def test_fails():
    check_pass(DropGpuBarriersPass(), lowered(matmul_programs([8, 16], [8], [2]), UP_TO))
""",
    # Modules handed to the test itself, lowered.
    "given_lowered_nn_programs": """
@given(lowered(nn_programs(max_ops=4), "convert-nn-to-linalg"))
def test_fails(module):
    assert "linalg.generic" not in str(module)
""",
    # A fixture holding IR, as tests/targets/test_c.py's scalar unit does.
    "fixture_holding_ir": """
from dataclasses import dataclass
from xdsl.dialects.builtin import ModuleOp
from irkit.parsing import parse_module

@dataclass
class Unit:
    module: ModuleOp
    ops: dict

@pytest.fixture(scope="module")
def unit():
    module = parse_module(
        "func.func @f(%a: f32) -> f32 {\\n"
        "  %b = arith.addf %a, %a : f32\\n"
        "  return %b : f32\\n"
        "}"
    )
    return Unit(module, {op.name: op for op in module.walk()})

@given(seed=st.integers(0, 100))
def test_fails(unit, seed):
    assert seed < 10
""",
}


def _run_failing(name: str, tmp_path: Path) -> str:
    test_file = tmp_path / f"test_{name}.py"
    test_file.write_text(PREAMBLE + textwrap.dedent(FAILING_TESTS[name]))
    # The repository first, then whatever the caller's environment needs
    # (a machine whose dependencies live on PYTHONPATH).
    search_path = os.pathsep.join(
        part for part in (str(ROOT), os.environ.get("PYTHONPATH", "")) if part
    )
    environment = {**os.environ, "PYTHONPATH": search_path}
    try:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", test_file],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=REPORT_SECONDS,
        )
    except subprocess.TimeoutExpired as error:
        pytest.fail(f"no report within {REPORT_SECONDS} s: {error.stdout!r}")
    assert run.returncode == 1, run.stdout + run.stderr
    return run.stdout


def test_check_pass_reports_a_gpu_matmul_counterexample(tmp_path: Path) -> None:
    report = _run_failing("check_pass_on_gpu_matmuls", tmp_path)
    assert "Falsifying example" in report
    assert "test-drop-gpu-barriers" in report
    # The program as the text the pass was given.
    assert "gpu.launch" in report
    assert "ModuleOp(" not in report


def test_a_module_argument_is_reported_as_ir(tmp_path: Path) -> None:
    report = _run_failing("given_lowered_nn_programs", tmp_path)
    assert "Falsifying example" in report
    assert "module=parse_module(" in report
    assert "linalg.generic" in report
    assert "_operands=" not in report


def test_a_fixture_holding_ir_is_reported_as_ir(tmp_path: Path) -> None:
    report = _run_failing("fixture_holding_ir", tmp_path)
    assert "Falsifying example" in report
    assert "seed=10" in report
    assert "arith.addf" in report
    assert "_operands=" not in report


def test_ir_prints_as_its_text() -> None:
    module = parse_module("func.func @f() {\n  return\n}")
    assert pretty(module).splitlines() == [
        "parse_module(",
        "    '''",
        "    builtin.module {",
        "      func.func @f() {",
        "        func.return",
        "      }",
        "    }",
        "    ''',",
        ")",
    ]
    (function,) = module.ops
    assert pretty(function).startswith("<func.func op: '''")
    assert pretty(IRText("a\nb")) == "'''\na\nb\n'''"
