# irkit tasks. `make demo` and `make test` work on a fresh machine: both set up
# the virtual environment first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The Hypothesis profile (irkit/testing/profiles.py): `ci` draws the same
# examples on every run, so `make test` is deterministic. `make explore` runs
# the property tests on `thorough`'s 2000 random examples each.
HYPOTHESIS_PROFILE ?= ci
export HYPOTHESIS_PROFILE
EXPLORE_PROFILE ?= thorough
# pytest-xdist workers for `make pytest`: one per core; `PYTEST_WORKERS=0`
# runs the suite in this process.
PYTEST_WORKERS ?= auto

.PHONY: setup demo test pytest explore mutation filecheck lint format clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

demo: setup
	$(BIN)/python examples/demo.py

test: lint pytest filecheck

pytest: setup
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile

explore: setup
	HYPOTHESIS_PROFILE=$(EXPLORE_PROFILE) $(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile tests/properties tests/testing

# Plants each mutant of tests/mutation/mutants.py in a copy of the tree and
# runs the tests meant to catch it; a report of the kill rate (on demand,
# not part of `make test`).
mutation: setup
	$(BIN)/python tests/mutation/run.py

filecheck: setup
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -sv tests/filecheck

lint: setup
	$(BIN)/ruff check irkit tests examples benchmarks
	$(BIN)/ruff format --check irkit tests examples benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports

format: setup
	$(BIN)/ruff check --fix irkit tests examples benchmarks
	$(BIN)/ruff format irkit tests examples benchmarks

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
