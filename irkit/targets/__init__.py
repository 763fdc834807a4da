"""Printers from loop-level IR to source code for a compiler.

`irkit.targets.cstyle` is the walk shared by the C-family languages;
`irkit.targets.c` holds the C language's tables and `emit_c`. See
`docs/targets.md`.
"""

from __future__ import annotations

from irkit.targets.c import CArgument, CFunction, CTranslationUnit, emit_c

__all__ = ["CArgument", "CFunction", "CTranslationUnit", "emit_c"]
