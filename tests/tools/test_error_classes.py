"""Every error class of issue 8 as a command-line user meets it.

Each class gets a clear message and exit code 1 (70 for an internal error,
with a reproducer), no traceback, an untouched `-o` file and an unmodified
input. Classes already tested elsewhere are not repeated here:

| error class                                  | where it is tested                                    |
|----------------------------------------------|-------------------------------------------------------|
| parse error                                  | test_cli.py::test_opt_parse_error_is_located,         |
|                                              | test_opt_undefined_value_is_located_at_its_use        |
| verifier error                               | test_cli.py::test_opt_verifier_error_is_located       |
| pass failure (unsupported input, names pass) | here: test_pass_failure_names_the_pass                |
| unknown pass                                 | test_cli.py::test_opt_user_errors_exit_1              |
| malformed pipeline text                      | test_cli.py::test_opt_user_errors_exit_1              |
| malformed pass options (name or value)       | here: test_malformed_pass_options                     |
| unknown target                               | here: test_unknown_target                             |
| missing file                                 | test_cli.py::test_opt_user_errors_exit_1              |
| unreadable file (directory, not UTF-8)       | here: test_unreadable_input                           |
| wrong input count / shape / dtype (run)      | test_cli.py::test_run_rejects_mismatched_inputs,      |
|                                              | test_irkit_run_c.py (compiled target)                 |
| unloadable .npy input                        | here: test_run_unloadable_input                       |
| failing C compile                            | test_irkit_run_c.py::test_failing_c_compile_is_a_...  |
| no C compiler                                | here: test_missing_c_compiler                         |
| internal error: exit 70 + reproducer         | test_cli.py::test_opt_internal_error_exits_70_...;    |
|                                              | here with the pipeline in the reproducer and `-o`     |
| pass producing invalid IR: exit 70 + pass    | here: test_invalid_pass_output_is_internal            |
| `-o FILE` untouched on failure               | test_cli.py (verifier error); here for every class    |
| input file never modified                    | here for every class                                  |
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

VALID = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
"""

# `bufferize` returns tensors only, as output buffers: a scalar result is
# unsupported input.
SCALAR_RESULT = """\
func.func @f(%a: i32) -> i32 {
  return %a : i32
}
"""

CRASHING_PLUGIN = """\
from dataclasses import dataclass

from xdsl.passes import ModulePass


@dataclass(frozen=True)
class CrashingPass(ModulePass):
    name = "test-crash"

    def apply(self, ctx, op):
        raise KeyError("no such thing")
"""

# A pass that leaves a `func.return` of the wrong type behind.
INVALID_OUTPUT_PLUGIN = """\
from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.passes import ModulePass


@dataclass(frozen=True)
class BreakReturnPass(ModulePass):
    name = "test-break-return"

    def apply(self, ctx, op):
        for inner in list(op.walk()):
            if isinstance(inner, func.ReturnOp):
                inner.detach()
                inner.erase()
"""


def run_tool(
    tool: str, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    code = f"from irkit.tools.{tool.replace('-', '_')} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def assert_user_error(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 1, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_pass_failure_names_the_pass(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", SCALAR_RESULT)
    out = write(tmp_path / "out.mlir", "precious")
    result = run_tool("irkit-opt", str(source), "-p", "bufferize", "-o", str(out))
    assert_user_error(
        result, f"{source}:1:1: error: bufferize: 'func.func' op result #0 of @f"
    )
    assert out.read_text() == "precious"
    assert source.read_text() == SCALAR_RESULT


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("lower-to-c{nope=1}", "invalid options for pass 'lower-to-c'"),
        ("lower-to-c{fuse=maybe}", "invalid options for pass 'lower-to-c'"),
    ],
)
def test_malformed_pass_options(tmp_path: Path, pipeline: str, message: str) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    out = write(tmp_path / "out.mlir", "precious")
    result = run_tool("irkit-opt", str(source), "-p", pipeline, "-o", str(out))
    assert_user_error(result, f"error: {message}")
    assert out.read_text() == "precious"


def test_unknown_target(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    result = run_tool("irkit-opt", str(source), "--target", "ptx")
    assert_user_error(result, "argument -t/--target: invalid choice: 'ptx'")
    result = run_tool("irkit-run", str(source), "--target", "ptx")
    assert_user_error(result, "argument --target: invalid choice: 'ptx'")


def test_unreadable_input(tmp_path: Path) -> None:
    result = run_tool("irkit-opt", str(tmp_path))
    assert_user_error(result, f"error: cannot read '{tmp_path}': Is a directory")
    binary = tmp_path / "binary.mlir"
    binary.write_bytes(b"\xff\xfe")
    result = run_tool("irkit-opt", str(binary))
    assert_user_error(result, f"error: cannot read '{binary}': not UTF-8 text")
    result = run_tool("irkit-run", str(binary), "--random-inputs", "0")
    assert_user_error(result, f"error: cannot read '{binary}': not UTF-8 text")
    assert binary.read_bytes() == b"\xff\xfe"


def test_run_unloadable_input(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    not_npy = write(tmp_path / "a.npy", "not numpy")
    result = run_tool("irkit-run", str(source), "--input", str(not_npy))
    assert_user_error(result, f"error: cannot load input '{not_npy}'")


def test_missing_c_compiler(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    out = write(tmp_path / "out.npz", "precious")
    env = {
        **os.environ,
        "CC": str(tmp_path / "no-such-cc"),
        "IRKIT_CACHE_DIR": str(tmp_path / "cache"),
    }
    result = run_tool(
        "irkit-run",
        str(source),
        "--target",
        "c",
        "--random-inputs",
        "0",
        "--output",
        str(out),
        env=env,
    )
    assert_user_error(result, f"C compiler '{tmp_path / 'no-such-cc'}' not found")
    assert out.read_text() == "precious"


def _reproducer(stderr: str) -> Path:
    return Path(stderr.split("reproducer written to ")[1].strip().rstrip(")"))


def test_internal_error_keeps_output_and_writes_reproducer(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    plugin = write(tmp_path / "crash.py", CRASHING_PLUGIN)
    out = write(tmp_path / "out.mlir", "precious")
    result = run_tool(
        "irkit-opt",
        str(source),
        "--load-pass-plugin",
        str(plugin),
        "-p",
        "canonicalize,test-crash",
        "-o",
        str(out),
    )
    assert result.returncode == 70
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("irkit-opt: internal error: KeyError: 'no such thing'")
    reproducer = _reproducer(lines[0])
    text = reproducer.read_text()
    reproducer.unlink()
    assert "-p canonicalize,test-crash" in text  # the pipeline
    assert VALID in text  # the input IR
    assert out.read_text() == "precious"
    assert source.read_text() == VALID


def test_invalid_pass_output_is_internal(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    plugin = write(tmp_path / "break.py", INVALID_OUTPUT_PLUGIN)
    result = run_tool(
        "irkit-opt",
        str(source),
        "--load-pass-plugin",
        str(plugin),
        "-p",
        "test-break-return",
    )
    assert result.returncode == 70
    lines = result.stderr.splitlines()
    assert len(lines) == 1
    expected = "internal error: InvalidPassOutput: pass 'test-break-return' produced"
    assert expected in lines[0]
    _reproducer(lines[0]).unlink()
    assert source.read_text() == VALID


def test_run_success_for_reference(tmp_path: Path) -> None:
    """The programs above are valid: the failures come from what each test varies."""
    source = write(tmp_path / "in.mlir", VALID)
    np.save(tmp_path / "a.npy", np.arange(4, dtype=np.float32) + 1)
    result = run_tool("irkit-run", str(source), "--input", str(tmp_path / "a.npy"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("result0: tensor<4xf32> = [2., 4., 6., 8.]")
