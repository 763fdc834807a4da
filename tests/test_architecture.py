"""The shape of the tree (docs/architecture.md): what may import what.

The package layers are import-linter contracts in pyproject.toml, checked
by `make lint`; this file checks what a layers contract cannot say: no pass
file imports another pass file (shared code lives in `irkit/analysis/` or
`irkit/transforms/utils/`).
"""

from __future__ import annotations

import ast
from pathlib import Path

TRANSFORMS = Path(__file__).resolve().parents[1] / "irkit" / "transforms"
NOT_PASSES = {"__init__", "pipelines", "registry"}


def pass_modules() -> set[str]:
    return {
        path.stem for path in TRANSFORMS.glob("*.py") if path.stem not in NOT_PASSES
    }


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, at any depth of its code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_no_pass_file_imports_another_pass_file() -> None:
    passes = pass_modules()
    # Each file parsed once (not once per other pass file: that was 13 s).
    imports = {
        source: imported_modules(TRANSFORMS / f"{source}.py") for source in passes
    }
    crossings = sorted(
        f"{source} -> {target}"
        for source in passes
        for target in passes
        if target != source and f"irkit.transforms.{target}" in imports[source]
    )
    assert crossings == []


def test_the_check_sees_an_import_inside_a_function(tmp_path: Path) -> None:
    path = tmp_path / "a_pass.py"
    path.write_text("def f():\n    from irkit.transforms.linalg_tile import x\n")
    assert "irkit.transforms.linalg_tile" in imported_modules(path)
