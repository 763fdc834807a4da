"""The main demo: a tensor program as textual IR, lowered to C, compiled, run,
and checked against irkit's reference interpreter and against NumPy.

    make demo        (or: .venv/bin/python examples/demo.py)

Steps: parse and verify `mlp.mlir` (an MLP in the `nn` dialect); lower it with
the `lower-to-c` pipeline and print the C; compile it with the system C
compiler; run it on seeded random inputs; compare with `irkit.interpret` on the
original tensor program and with the same MLP written in NumPy.
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
    text = EXAMPLE.read_text()
    module = irkit.parse(text, str(EXAMPLE))
    print(f"== {EXAMPLE.name}, parsed and verified:")
    print(module)

    compiled = irkit.compile(text, target="c")
    print("== lowered with lower-to-c and printed as C:")
    print(compiled.source)

    rng = np.random.default_rng(0)
    shapes = [(4, 16), (16, 32), (32,), (32, 10), (10,)]
    args = [(0.5 * rng.standard_normal(s)).astype(np.float32) for s in shapes]
    (native,) = compiled(*args)
    (reference,) = irkit.interpret(module, "main", *args)
    expected = numpy_mlp(*args).astype(np.float32)

    print("== the compiled C on seeded random inputs:")
    print(np.array2string(native, precision=4, suppress_small=True))
    for name, other in (("the interpreter", reference), ("NumPy", expected)):
        difference = compare_arrays(other, native)
        if difference is not None:
            print(f"MISMATCH against {name}: {difference.describe()}")
            return 1
        error = float(np.max(np.abs(native - other)))
        print(f"== matches {name} (max abs error {error:.2e})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
