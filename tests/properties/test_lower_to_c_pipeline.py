"""`lower-to-c` as a whole keeps meaning: random `nn` programs, every stage
checked on its own (the pipeline expands into its passes)."""

from __future__ import annotations

from irkit.testing import check_pass, nn_programs


def test_lower_to_c_keeps_meaning_on_random_programs() -> None:
    # Small shapes: the loop-level side runs on the scalar interpreter.
    check_pass("lower-to-c", nn_programs(max_ops=3, max_rank=2, max_dim=3))
