"""mlir-opt's habits work in irkit-opt (and irkit-run where they apply).

One test per convention: `--pass-pipeline='builtin.module(...)'` and nested
`func.func(...)` anchors, `-o -`, stdin as `-`, `--version`,
`--mlir-print-ir-after-all`/`-before-all`, an empty input printing an empty
module, `--split-input-file` printing the good chunks and reporting the bad
ones, and `--list-passes` with summaries and upstream passes marked.
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from irkit.pass_manager import NestedPass, PipelineError, build_pipeline
from irkit.tools import irkit_opt
from irkit.transforms import get_irkit_passes

# Two functions with a common subexpression each, and one inside a nested
# module that `builtin.module(func.func(cse))` must not reach.
DUPLICATES = """\
func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %b, %c : i32
  return %d : i32
}
func.func @g(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  %c = arith.addf %a, %a : f32
  %d = arith.mulf %b, %c : f32
  return %d : f32
}
builtin.module @inner {
  func.func @h(%a: i32) -> i32 {
    %b = arith.addi %a, %a : i32
    %c = arith.addi %a, %a : i32
    %d = arith.muli %b, %c : i32
    return %d : i32
  }
}
"""

EMPTY_MODULE = "builtin.module {\n}\n"


def run_tool(
    tool: str, *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    code = f"from irkit.tools.{tool.replace('-', '_')} import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        input=stdin if stdin is not None else "",
        cwd=cwd,
        check=False,
    )


Opt = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def opt(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Opt:
    """irkit-opt's `main` in this process, as a user meets it (argv, stdin
    bytes, stdout, stderr, exit code) without a Python start-up per call."""

    def run(
        *args: str, stdin: str | bytes = "", cwd: Path | None = None
    ) -> subprocess.CompletedProcess[str]:
        data = stdin.encode() if isinstance(stdin, str) else stdin
        monkeypatch.setattr(sys, "argv", ["irkit-opt", *args])
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        if cwd is not None:
            monkeypatch.chdir(cwd)
        with pytest.raises(SystemExit) as exited:
            irkit_opt.main()
        out, err = capsys.readouterr()
        return subprocess.CompletedProcess(list(args), exited.value.code, out, err)

    return run


@pytest.fixture
def duplicates(tmp_path: Path) -> Path:
    path = tmp_path / "dups.mlir"
    path.write_text(DUPLICATES)
    return path


def _function(text: str, name: str) -> str:
    """The text of `func.func @name` in printed IR."""
    match = re.search(rf"func\.func @{name}\(.*?\n\s*func\.return[^\n]*\n", text, re.S)
    assert match is not None, text
    return match.group()


# --- --pass-pipeline with anchors ----------------------------------------------


def test_builtin_module_anchor_is_the_plain_pipeline(
    opt: Opt, duplicates: Path
) -> None:
    plain = opt(str(duplicates), "-p", "canonicalize,cse")
    anchored = opt(
        str(duplicates),
        "--pass-pipeline=builtin.module(canonicalize,cse)",
    )
    assert plain.returncode == 0, plain.stderr
    assert anchored.returncode == 0, anchored.stderr
    assert anchored.stdout == plain.stdout
    # A pass on the module reaches everything in it, nested modules too.
    assert _function(anchored.stdout, "f").count("arith.addi") == 1
    assert _function(anchored.stdout, "h").count("arith.addi") == 1


@pytest.mark.parametrize(
    "pipeline",
    ["builtin.module(func.func(cse))", "func.func(cse)", " func.func( cse ) "],
)
def test_func_func_anchor_runs_on_each_function_of_the_module(
    opt: Opt, duplicates: Path, pipeline: str
) -> None:
    result = opt(str(duplicates), "-p", pipeline)
    assert result.returncode == 0, result.stderr
    assert _function(result.stdout, "f").count("arith.addi") == 1
    assert _function(result.stdout, "g").count("arith.addf") == 1
    # As in MLIR, only the functions directly in the module: not @h, which
    # lives in a nested module.
    assert _function(result.stdout, "h").count("arith.addi") == 2


def test_nested_anchors_reach_functions_of_nested_modules(
    opt: Opt, duplicates: Path
) -> None:
    result = opt(
        str(duplicates),
        "-p",
        "builtin.module(builtin.module(func.func(cse)))",
    )
    assert result.returncode == 0, result.stderr
    assert _function(result.stdout, "f").count("arith.addi") == 2
    assert _function(result.stdout, "h").count("arith.addi") == 1


def test_a_nested_pass_may_not_change_the_function_signature(
    opt: Opt, tmp_path: Path
) -> None:
    # bufferize rewrites signatures (callers see them): under func.func it
    # is refused with a located error naming the pass, as MLIR refuses a
    # module pass nested under func.func.
    path = tmp_path / "t.mlir"
    path.write_text(
        "func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
        "  %e = tensor.empty() : tensor<4xf32>\n"
        "  %r = linalg.add ins(%a, %a : tensor<4xf32>, tensor<4xf32>) "
        "outs(%e : tensor<4xf32>) -> tensor<4xf32>\n"
        "  return %r : tensor<4xf32>\n}\n"
    )
    result = opt(str(path), "-p", "builtin.module(func.func(bufferize))")
    assert result.returncode == 1
    first = result.stderr.splitlines()[0]
    assert first == (
        f"{path}:1:1: error: bufferize: 'func.func' op changed its name or type "
        "under func.func(bufferize), which its users see; a nested pass may "
        "change only the op's inside (run 'bufferize' on builtin.module instead)"
    )


@pytest.mark.parametrize(
    ("pipeline", "column", "message"),
    [
        ("builtin.module(cse", 19, "expected ')' to close 'builtin.module('"),
        ("cse)", 4, "unbalanced ')'"),
        ("builtin.module(func.fun(cse))", 16, "unknown operation 'func.fun'"),
        ("builtin.module(cse,,dce)", 20, "expected a pass name"),
        ("builtin.module(cse{=1})", 20, "Expected argument name here"),
    ],
)
def test_malformed_anchored_pipelines_point_at_the_column(
    opt: Opt, duplicates: Path, pipeline: str, column: int, message: str
) -> None:
    result = opt(str(duplicates), "-p", pipeline)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: malformed pass pipeline at column {column}: ")
    assert message in lines[0]
    assert lines[1] == f"  {pipeline}"
    assert lines[2] == " " * (column + 1) + "^"


def test_anchored_pipelines_as_pass_lists() -> None:
    passes = build_pipeline("builtin.module(cse,func.func(canonicalize,lower-to-c))")
    assert passes[0].name == "cse"
    assert not isinstance(passes[0], NestedPass)
    nested = passes[1:]
    assert all(
        isinstance(p, NestedPass) and p.anchors == ("func.func",) for p in nested
    )
    # A named pipeline under an anchor is its stages, each anchored.
    assert [p.name for p in nested[:3]] == [
        "canonicalize",
        "convert-nn-to-linalg",
        "linalg-generalize-named-ops",
    ]
    assert str(nested[0]) == "func.func(canonicalize)"
    with pytest.raises(PipelineError, match="unknown pass 'nope'"):
        build_pipeline("builtin.module(func.func(nope))")


# --- input and output -------------------------------------------------------------


def test_output_dash_is_stdout(opt: Opt, duplicates: Path, tmp_path: Path) -> None:
    result = opt(str(duplicates), "-o", "-", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "func.func @f" in result.stdout
    assert not (tmp_path / "-").exists()


@pytest.mark.parametrize("args", [["-"], []])
def test_stdin_is_read_for_dash_or_no_file(opt: Opt, args: list[str]) -> None:
    result = opt(*args, "-p", "cse", stdin=DUPLICATES)
    assert result.returncode == 0, result.stderr
    assert _function(result.stdout, "f").count("arith.addi") == 1


def test_stdin_diagnostics_name_stdin(opt: Opt) -> None:
    result = opt(
        "-",
        stdin="func.func @f(%a: i32) {\n  %x = arith.addi %a, %y : i32\n  return\n}\n",
    )
    assert result.returncode == 1
    assert result.stderr.startswith("<stdin>:2:23: error: use of undeclared SSA value")
    bad = subprocess.run(
        [sys.executable, "-c", "from irkit.tools.irkit_opt import main; main()"],
        input=b"\xff\xfe",
        capture_output=True,
        check=False,
    )
    assert bad.returncode == 1
    assert bad.stderr.decode() == (
        "error: cannot read '<stdin>': not UTF-8 text (byte 0)\n"
    )


def test_irkit_run_reads_stdin() -> None:
    result = run_tool(
        "irkit-run",
        "-",
        "--random-inputs",
        "0",
        stdin="func.func @main(%a: i32) -> i32 {\n  return %a : i32\n}\n",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("result0: ")


@pytest.mark.parametrize("tool", ["irkit-opt", "irkit-run"])
def test_version(tool: str) -> None:
    result = run_tool(tool, "--version")
    assert result.returncode == 0, result.stderr
    assert re.fullmatch(
        rf"{tool} \(irkit \d+\.\d+\.\d+, xDSL \d+\.\d+\.\d+\)\n", result.stdout
    )


@pytest.mark.parametrize(
    "text", ["", "\n\n", "// nothing but a comment\n", "  // indented\n\n"]
)
def test_empty_input_prints_an_empty_module(
    opt: Opt, tmp_path: Path, text: str
) -> None:
    path = tmp_path / "empty.mlir"
    path.write_text(text)
    result = opt(str(path))
    assert result.returncode == 0, result.stderr
    assert result.stdout == EMPTY_MODULE
    from_stdin = opt("-p", "canonicalize", stdin=text)
    assert from_stdin.returncode == 0, from_stdin.stderr
    assert from_stdin.stdout == EMPTY_MODULE


# --- IR dumps -----------------------------------------------------------------


def test_mlir_print_ir_after_and_before_all(opt: Opt, duplicates: Path) -> None:
    result = opt(
        str(duplicates),
        "-p",
        "canonicalize",
        "--mlir-print-ir-before-all",
        "--mlir-print-ir-after-all",
    )
    assert result.returncode == 0, result.stderr
    headers = [line for line in result.stderr.splitlines() if "IR Dump" in line]
    assert headers == [
        "// -----// IR Dump Before canonicalize //----- //",
        "// -----// IR Dump After canonicalize //----- //",
    ]
    assert result.stderr.count("builtin.module @inner") == 2
    # irkit's own spelling is the same flag.
    own = opt(str(duplicates), "-p", "canonicalize", "--print-ir-after-all")
    assert own.stderr.splitlines()[0] == headers[1]


def test_nested_pass_dumps_each_function(opt: Opt, duplicates: Path) -> None:
    result = opt(
        str(duplicates),
        "-p",
        "builtin.module(func.func(cse))",
        "--mlir-print-ir-after-all",
    )
    assert result.returncode == 0, result.stderr
    headers = [line for line in result.stderr.splitlines() if "IR Dump" in line]
    assert headers == [
        "// -----// IR Dump After cse ('func.func' operation: @f) //----- //",
        "// -----// IR Dump After cse ('func.func' operation: @g) //----- //",
    ]
    # Each dump is the function alone, as MLIR prints it.
    assert "builtin.module" not in result.stderr


def test_mlir_print_op_generic(opt: Opt, duplicates: Path) -> None:
    result = opt(str(duplicates), "--mlir-print-op-generic")
    assert result.returncode == 0, result.stderr
    assert '"func.func"() <{' in result.stdout


# --- split-input-file -----------------------------------------------------------

SPLIT = """\
func.func @first(%x: i32) -> i32 {
  return %x : i32
}
// -----
func.func @bad(%x: i32) -> i64 {
  return %x : i32
}
// -----
func.func @last(%x: i32) -> i32 {
  return %x : i32
}
"""


def test_split_input_file_prints_good_chunks_and_reports_bad_ones(
    opt: Opt,
    tmp_path: Path,
) -> None:
    path = tmp_path / "split.mlir"
    path.write_text(SPLIT)
    result = opt(str(path), "--split-input-file")
    assert result.returncode == 1
    chunks = result.stdout.split("// -----\n")
    assert len(chunks) == 3
    assert "@first" in chunks[0]
    assert chunks[1] == ""  # the bad chunk's place, as mlir-opt keeps it
    assert "@last" in chunks[2]
    assert result.stderr.startswith(f"{path}:6:3: error: 'func.return' op ")
    # With -o, a failure leaves the file untouched (docs/cli.md).
    out = tmp_path / "out.mlir"
    out.write_text("precious")
    result = opt(str(path), "--split-input-file", "-o", str(out))
    assert result.returncode == 1
    assert out.read_text() == "precious"


def test_split_input_file_reports_every_bad_chunk(opt: Opt, tmp_path: Path) -> None:
    path = tmp_path / "split.mlir"
    path.write_text(SPLIT.replace("@last(%x: i32) -> i32", "@last(%x: i32) -> f32"))
    result = opt(str(path), "--split-input-file")
    assert result.returncode == 1
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert [e.split(": error:")[0] for e in errors] == [f"{path}:6:3", f"{path}:10:3"]
    assert "@first" in result.stdout


# --- --list-passes ------------------------------------------------------------


def test_list_passes_shows_irkit_first_with_summaries(opt: Opt) -> None:
    result = opt("--list-passes")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "irkit passes:"
    pipelines = lines.index("irkit pipelines (each runs as its stages):")
    upstream = next(i for i, line in enumerate(lines) if line.startswith("upstream"))
    irkit = {line.split()[0]: line for line in lines[1 : pipelines - 1]}
    named = {line.split()[0] for line in lines[pipelines + 1 : upstream - 1]}
    assert set(irkit) | named == set(get_irkit_passes())
    assert named == {"lower-to-c", "lower-to-cuda"}
    for name, line in irkit.items():
        summary = line.split(maxsplit=1)[1]
        assert summary.endswith("."), f"{name} has no one-line summary"
    # Every upstream pass is marked as such, and none is in irkit's sections.
    rest = [line for line in lines[upstream + 1 :] if line.strip()]
    assert {line.split()[0] for line in rest}.isdisjoint(irkit)
    assert all(line.split()[1] == "[upstream]" for line in rest)
    assert any(line.split()[0] == "cse" for line in rest)
    canonicalize = next(line for line in rest if line.split()[0] == "canonicalize")
    assert canonicalize.endswith("[upstream] Applies all canonicalization patterns.")
