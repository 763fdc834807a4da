"""`irkit-run --target c` as a user meets it: results, --check, --bench, errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

LOOPS = """\
func.func @main(%a: memref<2x3xf32>, %out: memref<2x3xf32> {irkit.output}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %x = memref.load %a[%i, %j] : memref<2x3xf32>
      %y = arith.mulf %x, %x : f32
      memref.store %y, %out[%i, %j] : memref<2x3xf32>
    }
  }
  return
}
"""


def irkit_run(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    code = "from irkit.tools.irkit_run import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "IRKIT_CACHE_DIR": str(cache)},
    )


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "square.mlir"
    path.write_text(LOOPS)
    return path


def test_runs_compiled_c_and_checks_it_against_the_interpreter(
    program: Path, tmp_path: Path
) -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.save(tmp_path / "a.npy", a)
    out = tmp_path / "out.npz"
    result = irkit_run(
        str(program),
        "--target",
        "c",
        "--check",
        "--input",
        str(tmp_path / "a.npy"),
        "--output",
        str(out),
        cache=tmp_path / "cache",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(
        "result0: tensor<2x3xf32> = [ 0.,  1.,  4.,  9., 16., 25.]"
    )
    assert "check: 1 result(s) match the interpreter" in result.stdout
    np.testing.assert_array_equal(np.load(out)["result0"], a * a)


def test_bench_prints_the_median(program: Path, tmp_path: Path) -> None:
    result = irkit_run(
        str(program),
        "--target",
        "c",
        "--random-inputs",
        "1",
        "--bench",
        "5",
        cache=tmp_path / "cache",
    )
    assert result.returncode == 0, result.stderr
    assert "bench: median " in result.stdout
    assert "over 5 runs" in result.stdout


def test_check_reports_a_mismatch_with_figures(
    program: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # A correct compiler gives no mismatch to test with: stand in a wrong one.
    from irkit.tools import irkit_run as tool

    class WrongFunction:
        tuning = None

        def __call__(self, a: np.ndarray) -> tuple[np.ndarray]:
            return (a * a + np.float32(0.5),)

    def wrong_compile(
        module: object,
        target: str = "c",
        entry: str | None = None,
        tune: bool = False,
        checked: bool = False,
    ) -> object:
        return WrongFunction()

    monkeypatch.setattr(tool, "compile_module", wrong_compile)
    monkeypatch.setenv("IRKIT_CACHE_DIR", str(tmp_path / "cache"))
    status = tool.run(
        [str(program), "--target", "c", "--check", "--random-inputs", "3"], {}
    )
    assert status == 1
    err = capsys.readouterr().err
    assert "check: result0 differs: 6/6 elements differ; max abs error 0.5" in err


def test_check_needs_the_c_target(program: Path, tmp_path: Path) -> None:
    result = irkit_run(str(program), "--check", "--random-inputs", "0", cache=tmp_path)
    assert result.returncode == 1
    assert "use it with --target c" in result.stderr


def test_failing_c_compile_is_a_clean_error(program: Path, tmp_path: Path) -> None:
    fake = tmp_path / "failing-cc"
    fake.write_text(
        '#!/bin/sh\ncase "$*" in *--version*) echo fake 1.0; exit 0;; esac\necho "fake-cc: cannot compile" >&2\nexit 1\n'
    )
    fake.chmod(0o755)
    code = "from irkit.tools.irkit_run import main; main()"
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            str(program),
            "--target",
            "c",
            "--random-inputs",
            "0",
        ],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "IRKIT_CACHE_DIR": str(tmp_path / "cache"), "CC": str(fake)},
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("error: C compilation failed")
    assert "fake-cc: cannot compile" in result.stderr
    assert "Traceback" not in result.stderr


def test_wrong_input_shape_is_a_one_line_error(program: Path, tmp_path: Path) -> None:
    np.save(tmp_path / "a.npy", np.zeros((3, 2), np.float32))
    result = irkit_run(
        str(program),
        "--target",
        "c",
        "--input",
        str(tmp_path / "a.npy"),
        cache=tmp_path / "cache",
    )
    assert result.returncode == 1
    assert (
        "argument 0 (%a): expected shape (2, 3) float32, got (3, 2) float32"
        in result.stderr
    )
