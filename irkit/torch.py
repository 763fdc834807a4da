"""`irkit.torch`: PyTorch in, fast code out (the names of `irkit.frontends.torch`).

```python
import irkit.torch

fast = irkit.torch.compile(model.eval(), x)  # target "c", or "cuda" for GPU inputs
y = fast(x)  # the model's parameters are bound; y is a torch tensor
```

`torch.compile(model, backend="irkit")` uses `dynamo_backend`;
`import_module` / `import_exported_program` give the tensor-level IR.
PyTorch is imported only when these are called. docs/frontends.md.
"""

from __future__ import annotations

from irkit.frontends.torch import (
    ImportedProgram,
    IrkitFallbackWarning,
    TorchCompiledFunction,
    TorchImportError,
    UnsupportedOperatorError,
    compile,
    dynamo_backend,
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
