"""Frontends: programs from outside irkit, brought to its tensor level.

Each frontend is a module here that turns one kind of source into a
verified `ModuleOp` of irkit's tensor-level dialects (`nn`, or upstream
`linalg`/`tensor`/`arith`/`math`/`func` on tensors), which `irkit.compile`
and `irkit.interpret` take:

- `text`: MLIR's textual IR, as `irkit-opt` and torch-mlir or IREE print
  it (`irkit.parse` is its entry point), with `FILE:LINE:COL` diagnostics.

Importers of framework programs (PyTorch's `torch.export`) go beside it,
one module each, importing their framework lazily so irkit keeps no
dependency on it. Frontends sit above the runtime in irkit's layers (an
importer may compile what it imports); nothing below imports them.
"""

from __future__ import annotations

from irkit.frontends.text import parse

__all__ = ["parse"]
