"""irkit-opt and irkit-run as a user meets them: messages and exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)

from irkit.tools import irkit_opt

VALID = """\
func.func @main(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %b : tensor<2x3xf32>
}
"""

WRONG_RETURN = """\
func.func @main(%a: tensor<2xf32>) -> tensor<3xf32> {
  return %a : tensor<2xf32>
}
"""


def run_tool(
    tool: str, *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    code = f"from irkit.tools.{tool.replace('-', '_')} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


@pytest.fixture
def valid_file(tmp_path: Path) -> Path:
    path = tmp_path / "valid.mlir"
    path.write_text(VALID)
    return path


def test_opt_round_trips_valid_input(valid_file: Path) -> None:
    result = run_tool("irkit-opt", str(valid_file))
    assert result.returncode == 0, result.stderr
    assert "func.func @main" in result.stdout


def test_opt_verifier_error_is_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(WRONG_RETURN)
    result = run_tool("irkit-opt", str(path))
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:2:3: error: 'func.return' op ")
    assert "Traceback" not in result.stderr
    assert result.stderr.splitlines()[2] == "  ^"


def test_target_error_on_an_op_a_pass_created_is_located(tmp_path: Path) -> None:
    # The CUDA target refuses f80; the ops holding it were made by the
    # pipeline and have no location of their own: the diagnostic points at
    # the nearest op from the source before or around them.
    path = tmp_path / "wide.mlir"
    path.write_text(
        "func.func @main(%x: tensor<4xf32>) -> tensor<4xf80> {\n"
        "  %e = tensor.empty() : tensor<4xf80>\n"
        "  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, "
        'affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} '
        "ins(%x : tensor<4xf32>) outs(%e : tensor<4xf80>) {\n"
        "  ^bb0(%a: f32, %o: f80):\n"
        "    %t = arith.truncf %a : f32 to f80\n"
        "    linalg.yield %t : f80\n"
        "  } -> tensor<4xf80>\n"
        "  return %y : tensor<4xf80>\n"
        "}\n"
    )
    result = run_tool("irkit-opt", str(path), "-p", "lower-to-cuda", "-t", "cuda")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first.startswith(f"{path}:"), result.stderr
    assert "error: CUDA target: unsupported type f80" in first
    assert "Traceback" not in result.stderr


def test_opt_parse_error_is_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(
        "func.func @f() {\n  %x = arith.constant 1 : i32\n"
        "  %y = arith.addi %x, %x : i64\n}\n"
    )
    result = run_tool("irkit-opt", str(path))
    assert result.returncode == 1
    assert result.stderr.startswith(f"{path}:3:")
    assert "previously used or defined with type i32" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["/nonexistent/x.mlir"], "error: cannot read '/nonexistent/x.mlir'"),
        (["-p", "no-such-pass"], "error: unknown pass 'no-such-pass'"),
        (["-p", "canonicalize{"], "error: malformed pass pipeline"),
        (["--no-such-flag"], "unrecognized arguments: --no-such-flag"),
    ],
)
def test_opt_user_errors_exit_1(
    valid_file: Path, args: list[str], message: str
) -> None:
    argv = args if args[0].startswith("/") else [str(valid_file), *args]
    result = run_tool("irkit-opt", *argv)
    assert result.returncode == 1
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_opt_output_file_untouched_on_failure(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(WRONG_RETURN)
    out = tmp_path / "out.mlir"
    out.write_text("precious")
    result = run_tool("irkit-opt", str(bad), "-o", str(out))
    assert result.returncode == 1
    assert out.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir", "out.mlir"]


def test_opt_output_file_written(valid_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    result = run_tool("irkit-opt", str(valid_file), "-o", str(out))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert "func.func @main" in out.read_text()


def test_opt_runs_upstream_passes(tmp_path: Path) -> None:
    path = tmp_path / "cse.mlir"
    path.write_text(
        "func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {\n"
        "  %x = arith.addf %a, %a : tensor<2xf32>\n"
        "  %y = arith.addf %a, %a : tensor<2xf32>\n"
        "  return %x, %y : tensor<2xf32>, tensor<2xf32>\n}\n"
    )
    result = run_tool("irkit-opt", str(path), "-p", "cse")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("arith.addf") == 1


def test_run_random_inputs_writes_npz(valid_file: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    result = run_tool(
        "irkit-run", str(valid_file), "--random-inputs", "3", "--output", str(out)
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("result0: tensor<2x3xf32> = [")
    saved = np.load(out)
    assert list(saved.keys()) == ["result0"]
    assert saved["result0"].shape == (2, 3)
    assert saved["result0"].dtype == np.float32
    assert np.any(saved["result0"] != 0)


def test_run_inputs_from_npy(valid_file: Path, tmp_path: Path) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = a * 2
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "out.npz"
    result = run_tool(
        "irkit-run",
        str(valid_file),
        "--input",
        str(tmp_path / "a.npy"),
        "--input",
        str(tmp_path / "b.npy"),
        "--output",
        str(out),
    )
    assert result.returncode == 0, result.stderr
    np.testing.assert_array_equal(np.load(out)["result0"], b)


@pytest.mark.parametrize(
    ("shape", "dtype", "count", "message"),
    [
        (
            (2, 2),
            np.float32,
            2,
            "argument #0 of @main must be tensor<2x3xf32>, got tensor<2x2xf32>",
        ),
        (
            (2, 3),
            np.float64,
            2,
            "argument #0 of @main must be tensor<2x3xf32>, got tensor<2x3xf64>",
        ),
        ((2, 3), np.float32, 1, "@main takes 2 argument(s), 1 given"),
    ],
)
def test_run_rejects_mismatched_inputs(
    valid_file: Path,
    tmp_path: Path,
    shape: tuple[int, ...],
    dtype: type,
    count: int,
    message: str,
) -> None:
    np.save(tmp_path / "a.npy", np.ones(shape, dtype))
    inputs = [arg for _ in range(count) for arg in ("--input", str(tmp_path / "a.npy"))]
    result = run_tool("irkit-run", str(valid_file), *inputs)
    assert result.returncode == 1
    assert result.stderr.strip() == f"error: {message}"


def test_run_requires_inputs(valid_file: Path) -> None:
    result = run_tool("irkit-run", str(valid_file))
    assert result.returncode == 1
    assert "--random-inputs SEED" in result.stderr


def test_run_unknown_entry(valid_file: Path) -> None:
    result = run_tool(
        "irkit-run", str(valid_file), "--entry", "nope", "--random-inputs", "0"
    )
    assert result.returncode == 1
    assert "no function named '@nope'" in result.stderr


def test_opt_undefined_value_is_located_at_its_use(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(
        "func.func @f(%a: i32) {\n  %x = arith.addi %a, %y : i32\n  return\n}\n"
    )
    result = run_tool("irkit-opt", str(path))
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0] == f"{path}:2:23: error: use of undeclared SSA value name '%y'"
    assert lines[2] == " " * 22 + "^^"


def test_opt_internal_error_exits_70_with_reproducer(
    valid_file: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A bug in a pass irkit ships (here xDSL's cse, made to crash): exit 70,
    # one line naming the pass, and a reproducer.
    def crash(self: object, ctx: object, op: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(CommonSubexpressionElimination, "apply", crash)
    monkeypatch.setattr(sys, "argv", ["irkit-opt", str(valid_file), "-p", "cse"])
    with pytest.raises(SystemExit) as exited:
        irkit_opt.main()
    assert exited.value.code == 70
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        "irkit-opt: internal error: pass 'cse' raised RuntimeError: boom "
        "(please report it; reproducer written to "
    )
    reproducer = Path(lines[0].split("reproducer written to ")[1].rstrip(")"))
    text = reproducer.read_text()
    reproducer.unlink()
    assert "-p cse" in text
    assert "RuntimeError: boom" in text  # the pass's own traceback
    assert "func.func @main" in text


def test_opt_bad_plugin_is_a_user_error(valid_file: Path, tmp_path: Path) -> None:
    plugin = tmp_path / "broken.py"
    plugin.write_text("def (:\n")
    result = run_tool("irkit-opt", str(valid_file), "--load-pass-plugin", str(plugin))
    assert result.returncode == 1
    assert f"error: cannot load pass plugin '{plugin}': SyntaxError" in result.stderr


def test_opt_output_to_a_pipe_writes_through_it(
    valid_file: Path, tmp_path: Path
) -> None:
    """A path that is not a regular file (a pipe here, `/dev/null` in a lit
    test) is written to, never renamed over: as root, the rename replaced the
    machine's `/dev/null` with a regular file."""
    import os
    import stat
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(
        target=lambda: received.append(pipe.read_bytes()), daemon=True
    )
    reader.start()
    result = run_tool("irkit-opt", str(valid_file), "-o", str(pipe))
    reader.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert b"func.func" in received[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe", "valid.mlir"]


def test_opt_output_through_a_symlink_keeps_the_link(
    valid_file: Path, tmp_path: Path
) -> None:
    target = tmp_path / "real.mlir"
    target.write_text("old")
    link = tmp_path / "link.mlir"
    link.symlink_to(target)
    result = run_tool("irkit-opt", str(valid_file), "-o", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink()
    assert "func.func" in target.read_text()
