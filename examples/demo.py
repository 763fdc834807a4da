"""The main demo: a tensor program as textual IR, parsed, verified, printed,
run on irkit's reference interpreter, and checked against NumPy.

    make demo        (or: .venv/bin/python examples/demo.py)
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import irkit
from irkit.testing import compare_arrays

EXAMPLE = Path(__file__).with_name("mlp.mlir")


def numpy_mlp(
    x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: np.ndarray
) -> np.ndarray:
    """The same two-layer perceptron, written directly in NumPy."""
    hidden = np.maximum(x @ w1 + b1, 0)
    logits = hidden @ w2 + b2
    exp = np.exp(logits - logits.max(axis=1, keepdims=True))
    return exp / exp.sum(axis=1, keepdims=True)


def main() -> int:
    module = irkit.parse(EXAMPLE.read_text(), str(EXAMPLE))
    print(f"== {EXAMPLE.name}, parsed and verified:")
    print(module)

    rng = np.random.default_rng(0)
    shapes = [(4, 16), (16, 32), (32,), (32, 10), (10,)]
    args = [(0.5 * rng.standard_normal(s)).astype(np.float32) for s in shapes]
    (probabilities,) = irkit.interpret(module, "main", *args)
    expected = numpy_mlp(*args)

    print("== irkit.interpret(@main) on seeded random inputs:")
    print(np.array2string(probabilities, precision=4, suppress_small=True))
    difference = compare_arrays(expected.astype(np.float32), probabilities)
    if difference is not None:
        print(f"MISMATCH against NumPy: {difference.describe()}")
        return 1
    error = float(np.max(np.abs(probabilities - expected)))
    print(
        f"== matches NumPy (max abs error {error:.2e}); rows sum to "
        f"{probabilities.sum(axis=1).round(6).tolist()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
