"""Plot a `benchmarks/gpu.py --json` (or `cpu.py --models --json`) result as an SVG bar chart.

    python benchmarks/plot.py RESULT.json OUT.svg

One group of bars per program: each implementation's speed relative to the
PyTorch peer of that program (PyTorch time / its time; higher is faster), with
a line at 1.0 (as fast as PyTorch). Plain SVG, no plotting library needed.
"""

from __future__ import annotations

import json
import sys
from html import escape
from pathlib import Path
from typing import Any

COLOURS = {
    "torch": "#7f7f7f",
    "torch.compile": "#bcbd22",
    "triton": "#1f77b4",
    "irkit": "#d62728",
    "irkit tuned": "#ff9896",
}
ORDER = ("torch", "torch.compile", "triton", "irkit", "irkit tuned")
WIDTH, HEIGHT = 860, 380
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 40, 90


def _kind(name: str) -> str:
    """`torch eager` and `torch (cuBLAS)` are the PyTorch baseline."""
    if name == "torch.compile":
        return name
    return "torch" if name.startswith("torch") else name


def relative_speeds(result: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Per program, per implementation: PyTorch time / its time."""
    speeds: dict[str, dict[str, float]] = {}
    for program, case in result["cases"].items():
        times = {_kind(name): ms for name, ms in case["ms"].items()}
        if "torch" not in times:
            continue
        speeds[program] = {
            kind: times["torch"] / times[kind] for kind in ORDER if kind in times
        }
    return speeds


def svg(result: dict[str, Any]) -> str:
    speeds = relative_speeds(result)
    top = max([1.0, *(v for s in speeds.values() for v in s.values())]) * 1.1
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    group_w = plot_w / max(len(speeds), 1)
    bar_w = group_w * 0.8 / len(ORDER)

    def y(value: float) -> float:
        return TOP + plot_h * (1 - value / top)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        'font-family="sans-serif" font-size="11">',
        f'<text x="{WIDTH / 2}" y="20" text-anchor="middle" font-size="14">'
        f"{escape(result['device'])}: speed relative to PyTorch (higher is faster)"
        "</text>",
        f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" '
        f'y2="{TOP + plot_h}" stroke="black"/>',
        f'<line x1="{LEFT}" y1="{y(1.0):.1f}" x2="{WIDTH - RIGHT}" y2="{y(1.0):.1f}" '
        'stroke="black" stroke-dasharray="4 3"/>',
        f'<text x="{LEFT - 6}" y="{y(1.0) + 4:.1f}" text-anchor="end">1.0</text>',
    ]
    for index, (program, bars) in enumerate(speeds.items()):
        x0 = LEFT + index * group_w + group_w * 0.1
        for slot, kind in enumerate(ORDER):
            if kind not in bars:
                continue
            value = bars[kind]
            x = x0 + slot * bar_w
            parts.append(
                f'<rect x="{x:.1f}" y="{y(value):.1f}" width="{bar_w * 0.9:.1f}" '
                f'height="{TOP + plot_h - y(value):.1f}" fill="{COLOURS[kind]}">'
                f"<title>{escape(program)}, {escape(kind)}: {value:.2f}x</title></rect>"
            )
            parts.append(
                f'<text x="{x + bar_w * 0.45:.1f}" y="{y(value) - 3:.1f}" '
                f'text-anchor="middle" font-size="9">{value:.2f}</text>'
            )
        parts.append(
            f'<text x="{x0 + group_w * 0.4:.1f}" y="{TOP + plot_h + 16}" '
            f'text-anchor="middle">{escape(program)}</text>'
        )
    for slot, kind in enumerate(ORDER):
        x = LEFT + slot * 130
        parts.append(
            f'<rect x="{x}" y="{HEIGHT - 30}" width="12" height="12" '
            f'fill="{COLOURS[kind]}"/>'
        )
        parts.append(f'<text x="{x + 16}" y="{HEIGHT - 20}">{escape(kind)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    result = json.loads(Path(sys.argv[1]).read_text())
    Path(sys.argv[2]).write_text(svg(result))


if __name__ == "__main__":
    main()
