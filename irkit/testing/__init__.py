"""Testing that passes keep meaning.

- `assert_pass_preserves_semantics(pass_or_pipeline, module, ...)`: run a
  module before and after a pass on the same inputs; `SemanticsMismatch` on
  the first difference, naming the pass.
- `compare_arrays`: per-dtype tolerance comparison with error figures.
- `random_arguments`: inputs for a function from its signature.
- `nn_programs`, `linalg_programs`: Hypothesis strategies for random,
  verifying programs; `check_pass(pass_, programs)` runs the checker on them
  and fails when the pass changed none of them (`PassNeverFired`).

Importing this package registers irkit's Hypothesis profiles (`ci`, `dev`,
`thorough`: `irkit.testing.profiles`; load one with
`hypothesis.settings.load_profile(name)`), and makes Hypothesis print xDSL IR
in a falsifying example as IR text (`irkit.testing.printing`).
"""

from __future__ import annotations

from irkit.testing.checker import (
    SemanticsMismatch,
    assert_pass_preserves_semantics,
    check_semantics_between,
)
from irkit.testing.compare import (
    TF32_TOLERANCE,
    TOLERANCES,
    Difference,
    compare_arrays,
    tolerance,
)
from irkit.testing.inputs import random_arguments, random_value
from irkit.testing.printing import install_ir_printers
from irkit.testing.profiles import PROFILES, register_profiles
from irkit.testing.strategies import (
    PassNeverFired,
    PassReach,
    check_pass,
    linalg_programs,
    nn_programs,
)

register_profiles()
install_ir_printers()

__all__ = [
    "PROFILES",
    "TF32_TOLERANCE",
    "TOLERANCES",
    "Difference",
    "PassNeverFired",
    "PassReach",
    "SemanticsMismatch",
    "assert_pass_preserves_semantics",
    "check_pass",
    "check_semantics_between",
    "compare_arrays",
    "linalg_programs",
    "nn_programs",
    "random_arguments",
    "random_value",
    "register_profiles",
    "tolerance",
]
