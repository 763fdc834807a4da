"""Printers from loop-level IR to source code for a compiler.

`irkit.targets.cstyle` is the walk shared by the C-family languages (its
printers by concern in `cstyle_arith`, `cstyle_memory`, `cstyle_control`,
the helpers for MLIR semantics C lacks in `semantics`); `irkit.targets.c`
holds the C language's tables and `emit_c`; `irkit.targets.cuda` CUDA's
tables, its kernel printer and `emit_cuda`, with the host side's launch
plans in `irkit.targets.launch_plan`. See `docs/targets.md`.
"""

from __future__ import annotations

from irkit.targets.c import CArgument, CFunction, CTranslationUnit, emit_c

__all__ = ["CArgument", "CFunction", "CTranslationUnit", "emit_c"]
