"""Hypothesis profiles for irkit's property tests, registered on import.

- `ci`: 25 examples per test, derandomised (the same examples on every run,
  no example database): `make test`'s default and CI's.
- `dev`: 25 random examples per test, failures saved in `.hypothesis/`.
- `thorough`: 2000 random examples per test, for exploring (`make explore`).

Every profile gives each example a deadline of `EXAMPLE_DEADLINE` (a whole
program interpreted before and after a pass takes about a second at most; an
example that takes a minute is a bug to report, not to wait for), skips the
`too_slow` health check, which whole-program strategies fail by design, and
the explain phase. Importing `irkit.testing` registers them, replacing any
profile of the same name (Hypothesis's own `ci` runs 100 examples).

Load one with `settings.load_profile("thorough")` after importing
`irkit.testing`, or with `HYPOTHESIS_PROFILE=thorough` in irkit's own tests.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from hypothesis import HealthCheck, Phase, settings

EXAMPLE_DEADLINE = timedelta(seconds=60)

_COMMON: dict[str, Any] = {
    "deadline": EXAMPLE_DEADLINE,
    "suppress_health_check": [HealthCheck.too_slow],
    # The explain phase re-runs a shrunk failure hundreds of times to say
    # which draws mattered: for whole programs, minutes before the report.
    "phases": [phase for phase in Phase if phase is not Phase.explain],
}

PROFILES: dict[str, dict[str, Any]] = {
    "ci": {"max_examples": 25, "derandomize": True, "print_blob": True, **_COMMON},
    "dev": {"max_examples": 25, **_COMMON},
    "thorough": {"max_examples": 2000, "print_blob": True, **_COMMON},
}


def register_profiles() -> None:
    """Register irkit's profiles, built on Hypothesis's defaults. They replace
    any of the same name, Hypothesis's own `ci` (100 examples) included."""
    for name, options in PROFILES.items():
        settings.register_profile(
            name, parent=settings.get_profile("default"), **options
        )
