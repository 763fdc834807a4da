"""Every f32 input of the C target's `exp`, `tanh` and `erf`, against libm in double.

Not a test (minutes of CPU time): the check behind the ulp bounds
`docs/targets.md` states. The helpers are printed by `emit_c` from the
same program `test_c_math.py` compiles, built by the runtime's compiler with
its flags (vectorised as in every program), and run over all 2^32 bit
patterns; each result is compared with glibc's double `exp`, `tanh`, `erf`
rounded to f32, in f32 ulps (`test_c_math.ulp_distances`' measure).
Prints, per function, the largest distance, where it occurs and how many
inputs are off by 1 or more.

    PYTHONPATH=. python tests/targets/c_math_exhaustive.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from irkit.parsing import parse_module
from irkit.runtime.cpu import SHARED_FLAGS, toolchain
from irkit.targets.c import emit_c

sys.path.insert(0, str(Path(__file__).parent))
from test_c_math import MAX_ULPS, math_program

BLOCK = 1 << 16

CHECKER = r"""
#include <stdio.h>

static int64_t ordered(float value) {
    int32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits < 0 ? -(int64_t)(bits & 0x7fffffff) : (int64_t)bits;
}

static int64_t distance(float got, float want) {
    if (isnan(got) || isnan(want)) return isnan(got) && isnan(want) ? 0 : INT64_MAX;
    int64_t d = ordered(got) - ordered(want);
    return d < 0 ? -d : d;
}

static void check(const char *name, int (*helper)(const float *restrict, float *restrict),
                  double (*reference)(double)) {
    int64_t worst = 0, off = 0;
    uint32_t worst_bits = 0;
#pragma omp parallel for reduction(+:off) schedule(dynamic, 16)
    for (int64_t block = 0; block < (1LL << 32) / BLOCK; block++) {
        float *x = malloc(2 * BLOCK * sizeof *x), *got = x + BLOCK;
        for (int64_t i = 0; i < BLOCK; i++) {
            uint32_t bits = (uint32_t)(block * BLOCK + i);
            memcpy(&x[i], &bits, sizeof bits);
        }
        helper(x, got);
        int64_t block_worst = 0;
        uint32_t block_bits = 0;
        for (int64_t i = 0; i < BLOCK; i++) {
            float want = (float)reference((double)x[i]);
            int64_t d = distance(got[i], want);
            off += d > 0;
            if (d > block_worst) {
                block_worst = d;
                block_bits = (uint32_t)(block * BLOCK + i);
            }
        }
#pragma omp critical
        if (block_worst > worst) {
            worst = block_worst;
            worst_bits = block_bits;
        }
        free(x);
    }
    float at;
    memcpy(&at, &worst_bits, sizeof at);
    printf("%s: max %lld ulp at %a; %lld of 2^32 inputs off by >= 1 ulp\n", name,
           (long long)worst, (double)at, (long long)off);
}

int main(void) {
CALLS
    return 0;
}
"""


def main() -> None:
    unit = emit_c(parse_module(math_program("f32", BLOCK)))
    calls = "\n".join(
        f'    check("{name}", {unit.functions[name].c_name}, {name});'
        for name in MAX_ULPS
    )
    checker = CHECKER.replace("BLOCK", str(BLOCK)).replace("CALLS", calls)
    tools = toolchain()
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory) / "exhaustive.c"
        executable = Path(directory) / "exhaustive"
        source.write_text(unit.source + checker)
        flags = [f for f in tools.shared_library_flags if f not in SHARED_FLAGS]
        subprocess.run(
            [*tools.command, *flags, "-o", str(executable), str(source), "-lm"],
            check=True,
        )
        subprocess.run([str(executable)], check=True)


if __name__ == "__main__":
    main()
