"""`tests/print_targets.py`, the script that checks a refactoring prints the
same C and CUDA: it prints what the targets print, and reports failures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parent / "print_targets.py"


def test_it_prints_both_targets_of_the_programs_asked_for(tmp_path: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            str(tmp_path),
            "--only",
            "examples.mlp,benchmarks.matmul_128",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["examples.mlp", "benchmarks.matmul_128"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "benchmarks.matmul_128.c",
        "benchmarks.matmul_128.cu",
        "examples.mlp.c",
        "examples.mlp.cu",
    ]
    c = (tmp_path / "examples.mlp.c").read_text()
    assert "int main_fn(const float *restrict x" in c
    cuda = (tmp_path / "examples.mlp.cu").read_text()
    assert "__global__" in cuda
    assert "LaunchPlan(symbol='main'" in cuda
