"""`benchmarks/plot.py` turns a `benchmarks/gpu.py --json` result into an SVG
whose bars are the speeds relative to PyTorch."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESULT = ROOT / "docs" / "data" / "gpu-h100-2026-11-23.json"


def test_plot_has_one_bar_per_measurement(tmp_path: Path) -> None:
    out = tmp_path / "plot.svg"
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "plot.py"), str(RESULT), str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    titles = [
        element.text or ""
        for element in ET.parse(out).iter()
        if element.tag.endswith("title")
    ]
    cases = json.loads(RESULT.read_text())["cases"]
    assert len(titles) == sum(len(case["ms"]) for case in cases.values())
    layer_norm = cases["layer_norm 32768x4096"]["ms"]
    speed = layer_norm["torch eager"] / layer_norm["irkit tuned"]
    assert f"layer_norm 32768x4096, irkit tuned: {speed:.2f}x" in titles
    assert "sgemm 4096^3, torch: 1.00x" in titles


def test_torch_compile_is_its_own_bar(tmp_path: Path) -> None:
    # torch.compile is a peer of its own, not the PyTorch baseline (eager).
    result = ROOT / "docs" / "data" / "gpu-h100-2026-11-23b.json"
    out = tmp_path / "plot.svg"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "plot.py"), str(result), str(out)],
        check=True,
    )
    titles = [e.text or "" for e in ET.parse(out).iter() if e.tag.endswith("title")]
    softmax = json.loads(result.read_text())["cases"]["softmax 32768x4096"]["ms"]
    speed = softmax["torch eager"] / softmax["torch.compile"]
    assert f"softmax 32768x4096, torch.compile: {speed:.2f}x" in titles
    assert "softmax 32768x4096, torch: 1.00x" in titles
