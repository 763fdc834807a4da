"""`torch.compile(model, backend="irkit")`: graphs dynamo hands over run on
irkit (C target here), graph breaks give several graphs, an unsupported
operator falls back to eager with one warning naming it, new input shapes
re-compile, and PyTorch finds the backend by name through the entry point
declared in pyproject.toml."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
F = torch.nn.functional

from irkit.frontends.torch import (  # noqa: E402
    IrkitFallbackWarning,
    backend,
    dynamo_backend,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_dynamo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test compiles from scratch and sees its own warnings."""
    monkeypatch.setattr(backend, "_WARNED", set())
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


class Runners:
    """A backend that records the runners irkit's backend returns."""

    def __init__(self) -> None:
        self.runners: list[Any] = []

    def __call__(self, graph_module: Any, example_inputs: Any, **options: Any) -> Any:
        runner = dynamo_backend(graph_module, example_inputs, options={"target": "c"})
        self.runners.append(runner)
        return runner

    def compiled_by_irkit(self) -> list[bool]:
        return [
            all(program is not None for program in runner.compiled.values())
            and bool(runner.compiled)
            for runner in self.runners
        ]


class WithGraphBreak(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.first = torch.nn.Linear(8, 16)
        self.second = torch.nn.Linear(16, 4)

    def forward(self, x: Any) -> Any:
        hidden = F.gelu(self.first(x))
        torch._dynamo.graph_break()
        return F.softmax(self.second(hidden), dim=-1)


class WithUnsupportedOp(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(6, 6)

    def forward(self, x: Any) -> Any:
        return torch.cumsum(torch.tanh(self.linear(x)), dim=1)


def test_graph_break_gives_two_graphs_both_run_by_irkit() -> None:
    torch.manual_seed(0)
    model, record = WithGraphBreak().eval(), Runners()
    compiled = torch.compile(model, backend=record)
    with torch.no_grad():
        for rows in (3, 5):  # a new shape: re-compiled (or specialised)
            x = torch.randn(rows, 8)
            torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
    assert len(record.runners) >= 2
    assert all(record.compiled_by_irkit())


def test_unsupported_op_falls_back_to_eager_with_one_warning() -> None:
    torch.manual_seed(0)
    model, record = WithUnsupportedOp().eval(), Runners()
    compiled = torch.compile(model, backend=record)
    with warnings.catch_warnings(record=True) as caught, torch.no_grad():
        warnings.simplefilter("always")
        inputs = torch.randn(3, 2, 6)
        results = [(compiled(x), model(x)) for x in inputs]
        wider = torch.randn(4, 6)  # a second graph (a new shape), the same op
        results.append((compiled(wider), model(wider)))
    for got, want in results:
        torch.testing.assert_close(got, want)
    fallbacks = [w for w in caught if issubclass(w.category, IrkitFallbackWarning)]
    assert len(fallbacks) == 1
    message = str(fallbacks[0].message)
    assert "aten.cumsum.default" in message
    assert "torch.cumsum" in message  # the user's line, quoted
    assert record.compiled_by_irkit() == [False, False]


def test_options_are_checked() -> None:
    graph_module = torch.fx.symbolic_trace(torch.nn.ReLU())
    with pytest.raises(Exception, match="unknown irkit backend options"):
        dynamo_backend(graph_module, [torch.ones(2)], options={"targte": "c"})


def test_allow_tf32_follows_pytorchs_switch_unless_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Off unless asked: an explicit `allow_tf32` wins; None reads
    `torch.backends.cuda.matmul.allow_tf32` when compiling, as eager
    PyTorch's matmuls do."""
    from irkit.frontends.torch.compiler import tf32_allowed

    monkeypatch.setattr(torch.backends.cuda.matmul, "allow_tf32", False)
    assert tf32_allowed(None) is False
    assert tf32_allowed(True) is True
    monkeypatch.setattr(torch.backends.cuda.matmul, "allow_tf32", True)
    assert tf32_allowed(None) is True
    assert tf32_allowed(False) is False
    graph_module = torch.fx.symbolic_trace(torch.nn.ReLU())
    runner = dynamo_backend(
        graph_module, [torch.ones(2)], options={"target": "c", "allow_tf32": True}
    )
    assert torch.equal(runner(torch.ones(2)), torch.ones(2))


def _entry_point() -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return project["project"]["entry-points"]["torch_dynamo_backends"]["irkit"]


def test_entry_point_names_the_backend() -> None:
    module, _, attribute = _entry_point().partition(":")
    assert (
        getattr(__import__(module, fromlist=[attribute]), attribute) is dynamo_backend
    )


def test_backend_by_name_through_the_entry_point(tmp_path: Path) -> None:
    """A distribution declaring pyproject's entry point (as an installed irkit
    does) makes `backend="irkit"` work in a fresh interpreter."""
    info = tmp_path / "irkit_entry_point-0.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: irkit-entry-point\nVersion: 0.0\n"
    )
    (info / "entry_points.txt").write_text(
        f"[torch_dynamo_backends]\nirkit = {_entry_point()}\n"
    )
    script = textwrap.dedent(
        """
        import warnings
        import torch
        warnings.simplefilter("ignore")
        assert "irkit" in torch._dynamo.list_backends()
        model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.ReLU()).eval()
        compiled = torch.compile(model, backend="irkit", options={"target": "c"})
        x = torch.randn(2, 4)
        with torch.no_grad():
            torch.testing.assert_close(compiled(x), model(x))
        print("ok")
        """
    )
    path = os.pathsep.join([str(tmp_path), str(ROOT), os.environ.get("PYTHONPATH", "")])
    result = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip() == "ok"
