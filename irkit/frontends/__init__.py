"""Frontends: programs from outside irkit, brought to its tensor level.

Each frontend is a module here that turns one kind of source into a
verified `ModuleOp` of irkit's tensor-level dialects (`nn`, or upstream
`linalg`/`tensor`/`arith`/`math`/`func` on tensors), which `irkit.compile`
and `irkit.interpret` take:

- `text`: MLIR's textual IR, as `irkit-opt` and torch-mlir or IREE print
  it (`irkit.parse` is its entry point), with `FILE:LINE:COL` diagnostics;
- `torch`: PyTorch programs (`torch.export`), imported by irkit itself, no
  torch-mlir: `import_exported_program`, `import_module`, `compile` (a
  callable on torch tensors, parameters bound) and the `torch.compile`
  backend `dynamo_backend`; `irkit.torch` re-exports them. Errors are
  `TorchImportError`s located at the user's Python line (docs/frontends.md).

Importers of framework programs import their framework lazily (inside
functions), so irkit keeps no dependency on it and `irkit.frontends.torch`
is imported only when asked for. Frontends sit above the runtime in irkit's
layers (an importer may compile what it imports); nothing below imports
them.
"""

from __future__ import annotations

from irkit.frontends.text import parse

__all__ = ["parse"]
