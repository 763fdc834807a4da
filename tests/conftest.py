"""Shared pytest configuration: the Hypothesis profile.

`irkit.testing` registers the profiles (`irkit/testing/profiles.py`); this
loads `HYPOTHESIS_PROFILE`, by default `ci` (derandomised: `make test` runs
the same examples every time). `make explore` runs the property tests under
`thorough` (random, many more examples). Under pytest-xdist each worker
keeps its own example database.
"""

from __future__ import annotations

import os

from hypothesis import settings

import irkit.testing  # noqa: F401  (registers irkit's Hypothesis profiles)

settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Under pytest-xdist (`make pytest`), each worker keeps its own example
# database (profiles that have one: `dev`, `thorough`). Two workers writing
# one `.hypothesis/examples` at once made property tests of the dev profile
# count "changed 0 of 25 programs" (2 of 3 runs of tests/properties; none
# with a database per worker). The `ci` profile has none.
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER and settings().database is not None:
    from hypothesis.database import DirectoryBasedExampleDatabase

    settings.register_profile(
        f"worker-{_WORKER}",
        parent=settings(),
        database=DirectoryBasedExampleDatabase(f".hypothesis/examples-{_WORKER}"),
    )
    settings.load_profile(f"worker-{_WORKER}")
