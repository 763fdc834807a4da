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

# One list of names, the frontend's own: this module only gives them the
# short path.
from irkit.frontends.torch import *  # noqa: F403
from irkit.frontends.torch import __all__ as __all__
