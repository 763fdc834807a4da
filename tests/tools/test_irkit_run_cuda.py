"""`irkit-run --target cuda` as a user meets it without a GPU: one line, exit 1."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from irkit.runtime.cuda import gpu_unavailable_reason

# What `irkit.runtime.cuda` says is missing; `test_error_classes.py` brings
# about each on any machine.
UNAVAILABLE = re.compile(
    r"error: (cuda-python is not installed \(.+\): install irkit\[cuda\]"
    r"|no usable NVIDIA driver: .+"
    r"|no CUDA device found"
    r"|cannot use CUDA device 0: .+)"
)

PROGRAM = """\
func.func @main(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %b = nn.relu %a : tensor<2x3xf32> -> tensor<2x3xf32>
  return %b : tensor<2x3xf32>
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
    path = tmp_path / "relu.mlir"
    path.write_text(PROGRAM)
    return path


@pytest.mark.skipif(gpu_unavailable_reason() is None, reason="a GPU is present")
@pytest.mark.parametrize("extra", [[], ["--check"], ["--bench", "3"]])
def test_no_gpu_is_one_line_and_exit_1(
    program: Path, tmp_path: Path, extra: list[str]
) -> None:
    result = irkit_run(
        str(program),
        "--target",
        "cuda",
        "--random-inputs",
        "0",
        *extra,
        cache=tmp_path / "cache",
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0] == f"error: {gpu_unavailable_reason()}"
    assert UNAVAILABLE.fullmatch(lines[0]), lines[0]


def test_check_needs_a_compiled_target(program: Path, tmp_path: Path) -> None:
    result = irkit_run(
        str(program), "--check", "--random-inputs", "0", cache=tmp_path / "cache"
    )
    assert result.returncode == 1
    assert "use it with --target c or --target cuda" in result.stderr
