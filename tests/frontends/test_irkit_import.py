"""irkit-import through its real command line (a subprocess running the
console script's `main`): a saved exported program to textual IR that
irkit parses and runs, stdout with `-o -`, and located errors with exit
status 1 for an unsupported operator, a file that is not an exported
program, a missing file and an output that would overwrite the input."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import irkit  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class SmallNet(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(4, 3)
        self.norm = torch.nn.LayerNorm(3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(torch.relu(self.linear(x)))


class Unsupported(torch.nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, 0)


def irkit_import(*arguments: str) -> subprocess.CompletedProcess[str]:
    command = "from irkit.tools.irkit_import import main; main()"
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", command, *arguments],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    directory = tmp_path_factory.mktemp("pt2")
    torch.manual_seed(0)
    x = torch.randn(2, 4)
    files = {"net": directory / "net.pt2", "bad": directory / "bad.pt2"}
    torch.export.save(torch.export.export(SmallNet().eval(), (x,)), files["net"])
    torch.export.save(torch.export.export(Unsupported(), (x,)), files["bad"])
    return files


def test_imports_to_text_irkit_runs(saved: dict[str, Path], tmp_path: Path) -> None:
    output = tmp_path / "net.mlir"
    result = irkit_import(str(saved["net"]), "-o", str(output))
    assert result.returncode == 0, result.stderr
    text = output.read_text()
    assert "//   #1: state 'linear.weight'" in text
    program = torch.export.load(saved["net"])
    x = torch.randn(2, 4)
    state = program.state_dict
    names = ("linear.weight", "linear.bias", "norm.weight", "norm.bias")
    arguments = [x.numpy(), *(state[name].detach().numpy() for name in names)]
    (got,) = irkit.compile(text)(*arguments)
    want = program.module()(x).detach().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_dash_writes_to_stdout(saved: dict[str, Path]) -> None:
    result = irkit_import(str(saved["net"]), "-o", "-", "--keep-nn")
    assert result.returncode == 0, result.stderr
    assert "nn.layer_norm" in result.stdout
    assert irkit.parse(result.stdout) is not None


def test_unsupported_operator_is_a_located_error(saved: dict[str, Path]) -> None:
    result = irkit_import(str(saved["bad"]))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"{__file__}:" in result.stderr
    assert "error: unsupported PyTorch operator 'aten.cumsum.default'" in result.stderr
    assert "torch.cumsum(x, 0)" in result.stderr
    assert result.stdout == ""


def test_not_an_exported_program(tmp_path: Path) -> None:
    junk = tmp_path / "junk.pt2"
    junk.write_text("not a zip archive")
    result = irkit_import(str(junk))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"error: cannot load '{junk}' as an exported program" in result.stderr


def test_missing_file(tmp_path: Path) -> None:
    result = irkit_import(str(tmp_path / "absent.pt2"))
    assert result.returncode == 1
    assert "no such file" in result.stderr


def test_never_overwrites_the_input(saved: dict[str, Path]) -> None:
    before = saved["net"].read_bytes()
    result = irkit_import(str(saved["net"]), "-o", str(saved["net"]))
    assert result.returncode == 1
    assert "refusing to overwrite the input" in result.stderr
    assert saved["net"].read_bytes() == before


def test_importing_irkit_does_not_import_torch() -> None:
    """PyTorch is an optional extra: irkit, its PyTorch frontend and
    irkit-import load without importing it (only calls do)."""
    command = (
        "import sys, irkit, irkit.torch, irkit.tools.irkit_import; "
        "print('torch' in sys.modules)"
    )
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-c", command],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
