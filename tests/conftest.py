"""Shared pytest configuration: the Hypothesis profile.

`irkit.testing` registers the profiles (`irkit/testing/profiles.py`); this
loads `HYPOTHESIS_PROFILE`, by default `ci` (derandomised: `make test` runs
the same examples every time). `make explore` runs the property tests under
`thorough` (random, many more examples).
"""

from __future__ import annotations

import os

from hypothesis import settings

import irkit.testing  # noqa: F401  (registers irkit's Hypothesis profiles)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
