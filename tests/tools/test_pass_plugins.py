"""Passes from `--load-pass-plugin` files: their failures are the plugin's.

A plugin pass that raises, or leaves invalid IR behind, is a user error
(exit 1) located at the plugin's line (or at the invalid op) and naming the
pass; never irkit's "internal error ... please report it". A plugin pass
named like a pass irkit already has is refused, not a silent replacement.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

VALID = """\
func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %b = arith.addf %a, %a : tensor<4xf32>
  return %b : tensor<4xf32>
}
"""

RAISING_PLUGIN = """\
from dataclasses import dataclass

from xdsl.passes import ModulePass


@dataclass(frozen=True)
class RaisingPass(ModulePass):
    name = "test-raise"

    def apply(self, ctx, op):
        table = {}
        return table["missing"]
"""

# A pass that leaves a function without its terminator.
BREAKING_PLUGIN = """\
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


def clashing_plugin(name: str) -> str:
    return f"""\
from dataclasses import dataclass

from xdsl.passes import ModulePass


@dataclass(frozen=True)
class Clash(ModulePass):
    name = "{name}"

    def apply(self, ctx, op):
        pass
"""


def run_opt(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from irkit.tools.irkit_opt import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        check=False,
    )


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def test_a_raising_plugin_pass_is_located_at_the_plugin_line(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    plugin = write(tmp_path / "raising.py", RAISING_PLUGIN)
    out = write(tmp_path / "out.mlir", "precious")
    result = run_opt(
        str(source),
        "--load-pass-plugin",
        str(plugin),
        "-p",
        "test-raise",
        "-o",
        str(out),
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.splitlines() == [
        f"{plugin}:12:16: error: pass 'test-raise' raised KeyError: 'missing'",
        '        return table["missing"]',
        "               ^^^^^^^^^^^^^^^^",
    ]
    assert out.read_text() == "precious"


def test_a_raising_plugin_pass_nested_under_func_is_named(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    plugin = write(tmp_path / "raising.py", RAISING_PLUGIN)
    result = run_opt(
        str(source),
        "--load-pass-plugin",
        str(plugin),
        "--pass-pipeline=builtin.module(func.func(test-raise))",
    )
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith(f"{plugin}:12:16: error: pass 'test-raise' raised")


def test_a_plugin_pass_leaving_invalid_ir_is_its_error(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    plugin = write(tmp_path / "break.py", BREAKING_PLUGIN)
    result = run_opt(
        str(source), "--load-pass-plugin", str(plugin), "-p", "test-break-return"
    )
    assert result.returncode == 1, result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith(
        f"{source}:2:3: error: pass 'test-break-return' from plugin '{plugin}' "
        "left invalid IR: 'arith.addf' op "
    )
    assert "Traceback" not in result.stderr
    assert "internal error" not in result.stderr


def test_a_plugin_pass_may_not_take_a_builtin_name(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    for name, origin in [
        ("cse", "an upstream xDSL pass"),
        ("bufferize", "an irkit pass"),
    ]:
        plugin = write(tmp_path / f"{name}.py", clashing_plugin(name))
        result = run_opt(str(source), "--load-pass-plugin", str(plugin), "-p", name)
        assert result.returncode == 1
        assert result.stderr == (
            f"error: pass plugin '{plugin}' defines pass '{name}', which is already "
            f"{origin}: give the plugin's pass another name\n"
        )


def test_two_plugins_may_not_share_a_name(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    first = write(tmp_path / "first.py", clashing_plugin("test-twice"))
    second = write(tmp_path / "second.py", clashing_plugin("test-twice"))
    result = run_opt(
        str(source), "--load-pass-plugin", str(first), "--load-pass-plugin", str(second)
    )
    assert result.returncode == 1
    assert f"already defined by pass plugin '{first}'" in result.stderr
    # The same file twice is one plugin.
    result = run_opt(
        str(source), "--load-pass-plugin", str(first), "--load-pass-plugin", str(first)
    )
    assert result.returncode == 0, result.stderr


def test_plugin_passes_are_listed_with_their_summary(tmp_path: Path) -> None:
    plugin = write(
        tmp_path / "doc.py",
        clashing_plugin("test-documented").replace(
            "class Clash(ModulePass):\n",
            'class Clash(ModulePass):\n    """Does nothing, documented."""\n\n',
        ),
    )
    result = run_opt("--load-pass-plugin", str(plugin), "--list-passes")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    section = lines.index("passes from plugins:")
    assert lines[section + 1].split() == [
        "test-documented",
        "Does",
        "nothing,",
        "documented.",
    ]


def test_a_plugin_pass_whose_options_raise_is_its_error(tmp_path: Path) -> None:
    source = write(tmp_path / "in.mlir", VALID)
    plugin = write(
        tmp_path / "options.py",
        clashing_plugin("test-options").replace(
            "    def apply(self, ctx, op):\n",
            "    def __post_init__(self):\n"
            '        raise RuntimeError("needs a size")\n\n'
            "    def apply(self, ctx, op):\n",
        ),
    )
    result = run_opt(
        str(source), "--load-pass-plugin", str(plugin), "-p", "test-options"
    )
    assert result.returncode == 1
    assert result.stderr == (
        "error: invalid options for pass 'test-options': RuntimeError: needs a size\n"
    )
