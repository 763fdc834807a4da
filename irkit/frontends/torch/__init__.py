"""The PyTorch frontend: `torch.export` programs to irkit's tensor level.

- `import_exported_program(ep)` / `import_module(module, *inputs)`: an
  `ImportedProgram` (module, argument names, parameter tensors), written in
  irkit, without torch-mlir (`importer.py`, the ATen table in `aten.py`);
- `compile(fn_or_module, *example_inputs, target=...)`: a callable on torch
  tensors with the module's parameters bound (`compiler.py`);
- `dynamo_backend`: `torch.compile(model, backend="irkit")` (`backend.py`).

PyTorch is imported inside functions only: `import irkit` never needs it.
docs/frontends.md is the user's page.
"""

from __future__ import annotations

from irkit.frontends.torch.backend import IrkitFallbackWarning, dynamo_backend
from irkit.frontends.torch.compiler import TorchCompiledFunction, compile
from irkit.frontends.torch.emitter import TorchImportError, UnsupportedOperatorError
from irkit.frontends.torch.importer import (
    ImportedProgram,
    import_exported_program,
    import_module,
    supported_operators,
)

__all__ = [
    "ImportedProgram",
    "IrkitFallbackWarning",
    "TorchCompiledFunction",
    "TorchImportError",
    "UnsupportedOperatorError",
    "compile",
    "dynamo_backend",
    "import_exported_program",
    "import_module",
    "supported_operators",
]
