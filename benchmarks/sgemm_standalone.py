"""SGEMM as stand-alone C beside OpenBLAS, for a machine without irkit.

Writes, into `--out`, the C that `lower-to-c` prints for an n x n x n f32
matmul with the vectorised micro-kernels (`vec<n>.c`) and with the scalar
ones (`lower-to-c{vectorize=false}`, `sca<n>.c`), for the vector unit given
(default AVX-512: 512 bits, 32 registers), a C harness timing both beside
OpenBLAS' `cblas_sgemm` (medians of 11 calls, median of 5 rounds, checked
against OpenBLAS), and `run.sh`, which builds them as the runtime does
(`-std=c99 -O3 -fno-trapping-math -march=native -fopenmp`, and
`-mprefer-vector-width=512` for the vectorised C on AVX-512) and runs each
size on 2 threads pinned to 2 cores. The lead's lent machines have gcc and
OpenBLAS but not irkit's Python packages: carry the folder, then

    .venv/bin/python benchmarks/sgemm_standalone.py --out DIR --sizes 512 1000 1024 2048
    bash DIR/run.sh 512 1000 1024 2048
"""

from __future__ import annotations

import argparse
from pathlib import Path

import programs

from irkit.context import make_context
from irkit.parsing import parse_module
from irkit.pass_manager import Pipeline
from irkit.targets.c import emit_c

HARNESS = r"""#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
enum { CblasRowMajor = 101, CblasNoTrans = 111 };
void cblas_sgemm(int, int, int, int, int, int, float, const float *, int,
                 const float *, int, float, float *, int);
void openblas_set_num_threads(int);
int vec(const float *, const float *, float *);
int sca(const float *, const float *, float *);
static const float *A, *B;
static float *C;
static int N;
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static void run_blas(void) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, N, N, N, 1.0f, A, N,
              B, N, 0.0f, C, N);
}
static void run_vec(void) { vec(A, B, C); }
static void run_sca(void) { sca(A, B, C); }
static double median_ms(void (*f)(void), int reps) {
  double t[64];
  f();
  for (int i = 0; i < reps; i++) {
    double s = now();
    f();
    t[i] = now() - s;
  }
  qsort(t, reps, sizeof t[0], by_value);
  return 1e3 * t[reps / 2];
}
static double max_error(void (*f)(void), const float *reference, size_t count) {
  double error = 0;
  f();
  for (size_t i = 0; i < count; i++) error = fmax(error, fabs(C[i] - reference[i]));
  return error;
}
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  N = atoi(argv[1]);
  openblas_set_num_threads(2);
  size_t count = (size_t)N * N;
  float *a = malloc(4 * count), *b = malloc(4 * count), *reference = malloc(4 * count);
  C = malloc(4 * count);
  srand(1);
  for (size_t i = 0; i < count; i++) {
    a[i] = rand() / (float)RAND_MAX - 0.5f;
    b[i] = rand() / (float)RAND_MAX - 0.5f;
  }
  A = a;
  B = b;
  run_blas();
  memcpy(reference, C, 4 * count);
  double error_vec = max_error(run_vec, reference, count);
  double error_sca = max_error(run_sca, reference, count);
  enum { ROUNDS = 5, REPS = 11 };
  double tv[ROUNDS], ts[ROUNDS], tb[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    tv[r] = median_ms(run_vec, REPS);
    ts[r] = median_ms(run_sca, REPS);
    tb[r] = median_ms(run_blas, REPS);
  }
  qsort(tv, ROUNDS, 8, by_value);
  qsort(ts, ROUNDS, 8, by_value);
  qsort(tb, ROUNDS, 8, by_value);
  double v = tv[ROUNDS / 2], s = ts[ROUNDS / 2], blas = tb[ROUNDS / 2];
  double gflop = 2.0 * N * N * (double)N / 1e9;
  printf("| %d | %.2f (%.0f GFLOP/s, %.2fx) | %.2f (%.0f GFLOP/s, %.2fx) | %.2f "
         "(%.0f GFLOP/s) | %.1e / %.1e |\n",
         N, v, gflop / v * 1e3, blas / v, s, gflop / s * 1e3, blas / s, blas,
         gflop / blas * 1e3, error_vec, error_sca);
  return 0;
}
"""

RUN = r"""#!/bin/bash
# SGEMM: irkit's C (vectorised and scalar micro-kernels) against OpenBLAS,
# 2 threads on 2 pinned cores. Usage: run.sh SIZE...
set -e
cd "$(dirname "$0")"
FLAGS="-std=c99 -O3 -fno-trapping-math -march=native -fopenmp"
WIDTH="{width}"
lscpu | grep -i 'model name'; gcc --version | head -1
echo "| n | vectorised ms (rate, OpenBLAS time / irkit time) | scalar ms | OpenBLAS ms | max abs diff vec / scalar |"
echo "|---|---|---|---|---|"
for n in "$@"; do
  gcc $FLAGS $WIDTH -c vec$n.c -Dmain_fn=vec -o vec$n.o
  gcc $FLAGS -c sca$n.c -Dmain_fn=sca -o sca$n.o
  gcc -O2 -std=c99 harness.c vec$n.o sca$n.o -o sgemm$n -fopenmp -lopenblas -lm
  OMP_NUM_THREADS=2 OMP_PROC_BIND=true taskset -c 2,3 ./sgemm$n $n
done
"""


def lowered_c(n: int, pipeline: str) -> str:
    module = parse_module(programs.matmul(n))
    Pipeline.parse(pipeline).run(make_context(), module)
    return emit_c(module).source


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1024])
    parser.add_argument("--vector-bits", type=int, default=512)
    parser.add_argument("--vector-registers", type=int, default=32)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    unit = f"vector-bits={args.vector_bits} vector-registers={args.vector_registers}"
    for n in args.sizes:
        (args.out / f"vec{n}.c").write_text(lowered_c(n, f"lower-to-c{{{unit}}}"))
        scalar = f"lower-to-c{{{unit} vectorize=false}}"
        (args.out / f"sca{n}.c").write_text(lowered_c(n, scalar))
    (args.out / "harness.c").write_text(HARNESS)
    width = "-mprefer-vector-width=512" if args.vector_bits == 512 else ""
    run = args.out / "run.sh"
    run.write_text(RUN.replace("{width}", width))
    run.chmod(0o755)
    print(f"wrote {args.out}: bash {run} {' '.join(map(str, args.sizes))}")


if __name__ == "__main__":
    main()
