"""Mutation testing: plant each mutant of `mutants.py` in a copy of the tree
and run the tests that should catch it (`make mutation`).

A mutant replaces one exact snippet of one source file (it must occur once:
a mutant whose snippet is gone is stale and fails the run). The copy is a
temporary directory holding the tracked files, imported first through
`PYTHONPATH`, so the working tree is never changed. A mutant is *killed*
when its tests fail (pytest or lit exit non-zero) within the time limit, and
*survives* when they pass. Prints a Markdown report; exits 1 when a mutant
survives that is not listed as equivalent.

    .venv/bin/python tests/mutation/run.py [--only NAME ...] [--report FILE]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mutants import MUTANTS, Mutant  # noqa: E402

TIME_LIMIT_S = 600


def _copy_tree(destination: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    for name in listed:
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _commands(mutant: Mutant, tree: Path) -> list[list[str]]:
    python = sys.executable
    lit = str(Path(python).with_name("lit"))
    pytest_targets = [t for t in mutant.tests if not t.endswith(".mlir")]
    lit_targets = [str(tree / t) for t in mutant.tests if t.endswith(".mlir")]
    commands = []
    if pytest_targets:
        commands.append(
            [
                python,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                *pytest_targets,
            ]
        )
    if lit_targets:
        commands.append([lit, "-q", *lit_targets])
    return commands


def run_mutant(mutant: Mutant, tree: Path) -> tuple[str, float]:
    path = tree / mutant.path
    original = path.read_text()
    if original.count(mutant.before) != 1:
        return "stale", 0.0
    path.write_text(original.replace(mutant.before, mutant.after))
    # The venv's scripts (irkit-opt for lit) import irkit from the copy.
    scripts = str(Path(sys.executable).parent)
    environment = dict(
        os.environ,
        PYTHONPATH=str(tree),
        HYPOTHESIS_PROFILE="ci",
        PATH=scripts + os.pathsep + os.environ.get("PATH", ""),
    )
    started = time.perf_counter()
    try:
        for command in _commands(mutant, tree):
            try:
                done = subprocess.run(
                    command,
                    cwd=tree,
                    env=environment,
                    capture_output=True,
                    text=True,
                    timeout=TIME_LIMIT_S,
                    check=False,
                )
            except subprocess.TimeoutExpired:
                return "killed (time limit)", time.perf_counter() - started
            if done.returncode != 0:
                return "killed", time.perf_counter() - started
        return "survived", time.perf_counter() - started
    finally:
        path.write_text(original)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], help="mutant names")
    parser.add_argument("--report", help="also write the report to this file")
    options = parser.parse_args()
    chosen = [m for m in MUTANTS if not options.only or m.name in options.only]
    rows = ["| mutant | where | result | s | what it breaks |", "|---|---|---|---|---|"]
    killed = survived = stale = 0
    unexplained: list[str] = []
    with tempfile.TemporaryDirectory(prefix="irkit-mutation-") as directory:
        tree = Path(directory)
        _copy_tree(tree)
        for mutant in chosen:
            result, seconds = run_mutant(mutant, tree)
            if result.startswith("killed"):
                killed += 1
            elif result == "stale":
                stale += 1
                unexplained.append(mutant.name)
            else:
                survived += 1
                if not mutant.equivalent:
                    unexplained.append(mutant.name)
                else:
                    result += " (equivalent)"
            rows.append(
                f"| `{mutant.name}` | `{mutant.path}` | {result} | {seconds:.0f} "
                f"| {mutant.breaks} |"
            )
            print(rows[-1], flush=True)
    total = killed + survived
    rate = 100.0 * killed / total if total else 0.0
    summary = f"{killed} of {total} killed ({rate:.0f}%), {stale} stale"
    report = "\n".join([*rows, "", summary, ""])
    print()
    print(report)
    if options.report:
        Path(options.report).write_text(report)
    if unexplained:
        print(f"not killed and not argued equivalent: {', '.join(unexplained)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
