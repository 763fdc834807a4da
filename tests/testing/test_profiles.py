"""`irkit.testing` registers its Hypothesis profiles itself (issue 21): a
researcher's tests outside this repository load `thorough` by name."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from irkit.testing.profiles import EXAMPLE_DEADLINE


def test_importing_irkit_testing_registers_the_profiles(tmp_path: Path) -> None:
    # A fresh interpreter, away from tests/conftest.py.
    script = textwrap.dedent(
        """
        from hypothesis import Phase, settings
        import irkit.testing

        for name in ("ci", "dev", "thorough"):
            profile = settings.get_profile(name)
            print(name, profile.max_examples, profile.derandomize,
                  profile.deadline.total_seconds(), Phase.explain in profile.phases)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    seconds = EXAMPLE_DEADLINE.total_seconds()
    assert done.stdout.splitlines() == [
        f"ci 25 True {seconds} False",
        f"dev 25 False {seconds} False",
        f"thorough 2000 False {seconds} False",
    ]
