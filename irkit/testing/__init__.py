"""Testing that passes keep meaning.

- `assert_pass_preserves_semantics(pass_or_pipeline, module, ...)`: run a
  module before and after a pass on the same inputs; `SemanticsMismatch` on
  the first difference, naming the pass.
- `compare_arrays`: per-dtype tolerance comparison with error figures.
- `random_arguments`: inputs for a function from its signature.
- `nn_programs`, `linalg_programs`: Hypothesis strategies for random,
  verifying programs; `check_pass(pass_, programs)` runs the checker on them.
"""

from __future__ import annotations

from irkit.testing.checker import (
    SemanticsMismatch,
    assert_pass_preserves_semantics,
    check_semantics_between,
)
from irkit.testing.compare import TOLERANCES, Difference, compare_arrays, tolerance
from irkit.testing.inputs import random_arguments, random_value
from irkit.testing.strategies import check_pass, linalg_programs, nn_programs

__all__ = [
    "TOLERANCES",
    "Difference",
    "SemanticsMismatch",
    "assert_pass_preserves_semantics",
    "check_pass",
    "check_semantics_between",
    "compare_arrays",
    "linalg_programs",
    "nn_programs",
    "random_arguments",
    "random_value",
    "tolerance",
]
