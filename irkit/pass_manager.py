"""Building pass pipelines from text and running them with checks in between.

A pipeline is a list of named stages with verification at every boundary; a
pass that leaves invalid IR behind is an internal error naming that pass.

Pipeline text is xdsl-opt's (`canonicalize,cse,linalg-tile{tile-sizes=4,4}`)
or mlir-opt's, with op anchors: `builtin.module(canonicalize,func.func(cse))`.
A pass nested under `func.func(...)` runs on each `func.func` directly inside
the module, on its own: the function is moved into a scratch module for the
pass and back after it (xDSL's passes are module passes). As in MLIR, such a
pass may change only that function's inside; removing or replacing the
function, adding ops beside it, or changing its name or type is a located
error naming the pass. A nested pipeline `func.func(a,b)` runs `a` on every
function, then `b` on every function: for function-local passes this gives
MLIR's result (which runs `a,b` per function), and each pass stays one stage
that is verified, dumped and semantics-checked on its own.
"""

from __future__ import annotations

import importlib.util
import inspect
import linecache
import re
import sys
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.transforms import get_all_passes
from xdsl.utils.arg_spec import ArgSpec, ArgSpecParseError, parse_pipeline
from xdsl.utils.exceptions import PassFailedException

from irkit.context import make_context
from irkit.diagnostics import DiagnosticError, IRKitError, SourceLocation, op_error
from irkit.transforms import get_irkit_passes
from irkit.transforms.pipelines import NamedPipeline
from irkit.verification import verify_module

PassFactories = dict[str, Callable[[], type[ModulePass]]]

# The module name under which a plugin file is imported; how a pass class is
# known to come from a plugin (its failures are the plugin's, not irkit's).
PLUGIN_MODULE_PREFIX = "irkit_plugin_"


class PipelineError(IRKitError):
    """A pipeline string that names an unknown pass or has malformed options."""


class PassFailure(IRKitError):
    """A pass refused its input (unsupported IR); the message names the pass."""


class PluginPassError(DiagnosticError):
    """A pass from a plugin raised or left invalid IR: the plugin's error,
    located at the plugin's line (or at the invalid op)."""


class InvalidPassOutput(Exception):
    """A pass produced IR that does not verify: a bug in that pass."""

    def __init__(self, pass_name: str, diagnostic: DiagnosticError) -> None:
        super().__init__(f"pass '{pass_name}' produced invalid IR: {diagnostic}")
        self.pass_name = pass_name
        self.diagnostic = diagnostic


class PassCrashed(Exception):
    """An irkit or upstream pass raised something other than an irkit error:
    a bug in that pass. The original exception is the `__cause__`."""

    def __init__(self, pass_name: str, error: Exception) -> None:
        super().__init__(f"pass '{pass_name}' raised {type(error).__name__}: {error}")
        self.pass_name = pass_name


# --- the registry -------------------------------------------------------------


def available_passes() -> PassFactories:
    """Every pass irkit-opt knows: xDSL's upstream passes and irkit's own."""
    return get_all_passes() | get_irkit_passes()


def _constant_factory(cls: type[ModulePass]) -> Callable[[], type[ModulePass]]:
    return lambda: cls


def load_pass_plugin(path: str) -> PassFactories:
    """The `ModulePass` classes defined in the Python file at `path`, by name.

    This is how a pass written outside irkit runs in `irkit-opt`
    (`--load-pass-plugin my_pass.py -p my-pass`).
    """
    module_name = f"{PLUGIN_MODULE_PREFIX}{abs(hash(path))}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise PipelineError(f"cannot load pass plugin '{path}'")
    module = importlib.util.module_from_spec(spec)
    # Registered as Python's own imports are, so that dataclasses and
    # `inspect` can find the plugin's classes' module.
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # any failure of user code is reported, not raised
        del sys.modules[module_name]
        raise PipelineError(
            f"cannot load pass plugin '{path}': {type(error).__name__}: {error}"
        ) from None
    found: PassFactories = {}
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if issubclass(cls, ModulePass) and cls.__module__ == module.__name__:
            found[cls.name] = _constant_factory(cls)
    if not found:
        raise PipelineError(f"pass plugin '{path}' defines no ModulePass")
    return found


def load_pass_plugins(paths: Iterable[str]) -> PassFactories:
    """The passes of several plugin files; a name that irkit, xDSL or an
    earlier plugin already has is an error, never a silent replacement."""
    known = available_passes()
    origin = {name: pass_origin(name) for name in known}
    loaded: PassFactories = {}
    seen: set[Path] = set()
    for path in paths:
        if Path(path).resolve() in seen:
            continue  # the same file twice defines nothing new
        seen.add(Path(path).resolve())
        for name, factory in load_pass_plugin(path).items():
            if name in origin:
                raise PipelineError(
                    f"pass plugin '{path}' defines pass '{name}', which is already "
                    f"{origin[name]}: give the plugin's pass another name"
                )
            origin[name] = f"defined by pass plugin '{path}'"
            loaded[name] = factory
    return loaded


def pass_origin(name: str) -> str:
    """Where a registered pass comes from, in words."""
    if name in get_irkit_passes():
        return "an irkit pass"
    return "an upstream xDSL pass"


def pass_summary(cls: type[ModulePass]) -> str:
    """The first sentence of a pass's docstring ("" when it has none)."""
    # The class's own docstring: an inherited one describes another class.
    doc = inspect.cleandoc(cls.__dict__.get("__doc__") or "")
    # A dataclass without a docstring gets its signature as one.
    if not doc or doc.startswith(f"{cls.__name__}("):
        return ""
    paragraph = " ".join(doc.split("\n\n", 1)[0].split())
    sentence = re.match(r"(.+?\.)(\s|$)", paragraph)
    text = sentence.group(1) if sentence else paragraph
    # "...; see the module docstring ..." points at a file, not at the pass.
    return re.sub(r"; see .*$", ".", text)


def plugin_file(pass_: ModulePass) -> str | None:
    """The plugin file that defines `pass_`'s class, None for irkit's and xDSL's."""
    cls = type(pass_.inner if isinstance(pass_, NestedPass) else pass_)
    if not cls.__module__.startswith(PLUGIN_MODULE_PREFIX):
        return None
    module = sys.modules.get(cls.__module__)
    return getattr(module, "__file__", None)


# --- pipeline text ------------------------------------------------------------

# An op name as a pipeline anchor (`func.func`), or a pass name.
_NAME = re.compile(r"[A-Za-z0-9_$.-]+")
# Where xDSL's pipeline parser puts the column of its error.
_XDSL_COLUMN = re.compile(r"pass-pipeline:\d+:(\d+)")
# The anchors that stand for the module a pipeline runs on.
_ROOT_ANCHORS = ("builtin.module", "any")


@dataclass(frozen=True)
class _PassText:
    """One pass of a textual pipeline and the op anchors it is nested in."""

    anchors: tuple[str, ...]
    spec: str
    offset: int


class _PipelineReader:
    """Reads mlir-opt's nested pipeline syntax down to the passes, whose text
    (`name{options}`) xDSL's parser reads."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self._ctx: Context | None = None

    def error(self, message: str, at: int | None = None) -> PipelineError:
        column = self.pos if at is None else at
        return PipelineError(
            f"malformed pass pipeline at column {column + 1}: {message}\n"
            f"  {self.text}\n  {' ' * column}^"
        )

    def read(self) -> list[_PassText]:
        return self._read_list((), closer=None)

    def _skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def _peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _read_list(
        self, anchors: tuple[str, ...], closer: str | None
    ) -> list[_PassText]:
        found: list[_PassText] = []
        self._skip_space()
        if closer is not None and self._peek() == closer:
            return found  # `builtin.module()`: nothing to run
        while True:
            found += self._read_element(anchors)
            self._skip_space()
            next_char = self._peek()
            if next_char == ",":
                self.pos += 1
            elif next_char == (closer or ""):
                return found
            elif closer is None:
                raise self.error(
                    "unbalanced ')'" if next_char == ")" else "expected ','"
                )
            elif next_char == "":
                raise self.error(f"expected ')' to close '{anchors[-1]}('")
            else:
                raise self.error("expected ',' or ')'")

    def _read_element(self, anchors: tuple[str, ...]) -> list[_PassText]:
        self._skip_space()
        start = self.pos
        name = _NAME.match(self.text, self.pos)
        if name is not None and self.text[name.end() : name.end() + 1] == "(":
            self._check_anchor(name.group(), start)
            self.pos = name.end() + 1
            nested = self._read_list((*anchors, name.group()), closer=")")
            self.pos += 1  # the `)`
            return nested
        self.pos = self._end_of_pass()
        spec = self.text[start : self.pos].rstrip()
        if not spec:
            raise self.error("expected a pass name", start)
        return [_PassText(anchors, spec, start)]

    def _end_of_pass(self) -> int:
        """Where the pass starting here ends: at a `,` `(` or `)` outside its
        `{options}`, `[...]` and string literals."""
        depth = 0
        in_string = False
        pos = self.pos
        while pos < len(self.text):
            char = self.text[pos]
            if in_string:
                if char == "\\":
                    pos += 1
                elif char == '"':
                    in_string = False
            elif char == '"':
                in_string = True
            elif char in "{[":
                depth += 1
            elif char in "}]":
                depth -= 1
            elif depth <= 0 and char in ",()":
                break
            pos += 1
        return pos

    def _check_anchor(self, name: str, at: int) -> None:
        if name == "any":
            return
        if self._ctx is None:
            self._ctx = make_context()
        if self._ctx.get_optional_op(name) is None:
            raise self.error(
                f"unknown operation '{name}' as an anchor "
                "(name an op such as builtin.module or func.func)",
                at,
            )

    def parse_pass(self, item: _PassText) -> ArgSpec:
        """xDSL's reading of one pass's text; errors at their column here."""
        try:
            specs = list(parse_pipeline(item.spec))
        except ArgSpecParseError as error:
            text = str(error)
            column = _XDSL_COLUMN.search(text)
            message = text.rstrip().splitlines()[-1].strip()
            at = item.offset + (int(column.group(1)) - 1 if column else 0)
            raise self.error(message, at) from None
        if len(specs) != 1:
            raise self.error("expected one pass", item.offset)
        return specs[0]


def build_pipeline(
    spec: str, extra_passes: PassFactories | None = None
) -> list[ModulePass]:
    """Parse `pass-a,pass-b{opt=1}` (or `builtin.module(func.func(pass-a))`)
    into pass instances.

    `extra_passes` adds passes to the registry (e.g. from a plugin); a name
    the registry already has is an error. Raises `PipelineError` with the
    offending pass or option. A pass under an anchor other than the module
    becomes a `NestedPass`.
    """
    if not spec.strip():
        return []
    known = available_passes()
    clash = sorted(known.keys() & (extra_passes or {}).keys())
    if clash:
        raise PipelineError(f"pass '{clash[0]}' is already {pass_origin(clash[0])}")
    known |= extra_passes or {}
    reader = _PipelineReader(spec)
    passes: list[ModulePass] = []
    for item in reader.read():
        pass_spec = reader.parse_pass(item)
        if pass_spec.name not in known:
            raise PipelineError(
                f"unknown pass '{pass_spec.name}' (run `irkit-opt --list-passes`)"
            )
        cls = known[pass_spec.name]()
        try:
            pass_ = cls.from_pass_spec(pass_spec)
        except (ValueError, TypeError) as error:
            raise PipelineError(
                f"invalid options for pass '{pass_spec.name}': {error}"
            ) from None
        except Exception as error:
            if not cls.__module__.startswith(PLUGIN_MODULE_PREFIX):
                raise
            # A plugin's own option checks may raise anything: its error.
            raise PipelineError(
                f"invalid options for pass '{pass_spec.name}': "
                f"{type(error).__name__}: {error}"
            ) from None
        # A named pipeline runs as its stages, so hooks see every level; its
        # option checks run as it chooses them.
        try:
            stages = pass_.stages() if isinstance(pass_, NamedPipeline) else [pass_]
        except PassFailedException as error:
            message = str(error).removeprefix(f"{pass_spec.name}: ")
            raise PipelineError(
                f"invalid options for pass '{pass_spec.name}': {message}"
            ) from None
        anchors = item.anchors
        if anchors[:1] and anchors[0] in _ROOT_ANCHORS:
            anchors = anchors[1:]
        # mlir-opt wants `builtin.module(func.func(...))`; a bare
        # `func.func(...)` can only mean the same, so it is taken as that.
        passes += [NestedPass(anchors, stage) if anchors else stage for stage in stages]
    return passes


# --- anchored passes ----------------------------------------------------------


@dataclass(frozen=True)
class NestedPass(ModulePass):
    """`inner` run on each op of the anchor path, e.g. `("func.func",)`: every
    `func.func` directly inside the module (`any` matches every op).

    Each op runs in a scratch module of its own and goes back to its place
    afterwards; the pass must leave the op in place with its name and type
    (the module docstring). Messages, IR dumps and semantics checks name
    `inner`.
    """

    name = "nested"  # each instance answers to its inner pass's name instead

    anchors: tuple[str, ...]
    inner: ModulePass

    def __post_init__(self) -> None:
        # `name` is a class attribute of xDSL's passes; an instance of this
        # one stands for `inner`, so that errors and dumps name the real pass.
        object.__setattr__(self, "name", self.inner.name)

    def __str__(self) -> str:
        text = str(self.inner)
        for anchor in reversed(self.anchors):
            text = f"{anchor}({text})"
        return text

    def anchored_ops(self, module: ModuleOp) -> list[Operation]:
        """The ops `inner` runs on, in the module's order."""
        ops: list[Operation] = [module]
        for anchor in self.anchors:
            ops = [
                child
                for op in ops
                for region in op.regions
                for block in region.blocks
                for child in block.ops
                if anchor in ("any", child.name)
            ]
        return ops

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for target in self.anchored_ops(op):
            self._apply_to(ctx, target)

    def _apply_to(self, ctx: Context, target: Operation) -> None:
        block = target.parent_block()
        if block is None:  # the root: nothing to move
            return
        following = target.next_op
        interface = _interface(target)
        block.detach_op(target)
        scratch = ModuleOp([target])
        try:
            self.inner.apply(ctx, scratch)
        finally:
            # Whatever the pass left goes back in the op's place, so the
            # module stays whole whether the pass succeeded or not.
            left = list(scratch.body.block.ops)
            for op in left:
                scratch.body.block.detach_op(op)
                if following is None:
                    block.add_op(op)
                else:
                    block.insert_op_before(op, following)
        rule = (
            "a nested pass may change only the op's inside "
            f"(run '{self.inner.name}' on builtin.module instead)"
        )
        if target not in left:
            raise op_error(target, f"was removed or replaced under {self}; {rule}")
        if len(left) > 1:
            added = ", ".join(
                sorted({f"'{op.name}'" for op in left if op is not target})
            )
            raise op_error(target, f"got {added} beside it under {self}; {rule}")
        if _interface(target) != interface:
            raise op_error(
                target,
                f"changed its name or type under {self}, which its users see; {rule}",
            )


def _interface(op: Operation) -> tuple[Attribute | None, Attribute | None]:
    """What other ops see of `op`: its symbol name and function type."""
    return op.properties.get("sym_name"), op.properties.get("function_type")


# --- running ------------------------------------------------------------------


def run_pass(
    ctx: Context, pass_: ModulePass, module: ModuleOp, verify: bool = True
) -> None:
    """Apply one pass, then verify (unless `verify=False`); failures are
    reported against the pass."""
    try:
        pass_.apply(ctx, module)
    except PassFailedException as error:
        message = str(error)
        prefix = "" if message.startswith(pass_.name) else f"{pass_.name}: "
        raise PassFailure(prefix + message) from None
    except DiagnosticError as error:
        if not error.message.startswith(pass_.name):
            error.message = f"{pass_.name}: {error.message}"
        raise
    except IRKitError:
        raise
    except Exception as error:
        plugin = plugin_file(pass_)
        if plugin is not None:
            raise _plugin_raised(pass_.name, plugin, error) from error
        raise PassCrashed(pass_.name, error) from error
    if not verify:
        return
    try:
        verify_module(module)
    except DiagnosticError as error:
        plugin = plugin_file(pass_)
        if plugin is not None:
            raise PluginPassError(
                f"pass '{pass_.name}' from plugin '{plugin}' left invalid IR: "
                f"{error.message}",
                error.location,
                source_line=error.source_line,
                span_length=error.span_length,
            ) from None
        raise InvalidPassOutput(pass_.name, error) from None


def _plugin_raised(name: str, plugin: str, error: Exception) -> PluginPassError:
    """The error of a plugin pass, at the innermost line of the plugin it
    passed through (where the plugin raised, or called what raised)."""
    what = f"{type(error).__name__}: {error}"
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if Path(frame.filename) == Path(plugin) and frame.lineno is not None
    ]
    if not frames:
        return PluginPassError(f"pass '{name}' from plugin '{plugin}' raised {what}")
    frame = frames[-1]
    line = frame.lineno or 1
    start = frame.colno or 0
    end = frame.end_colno if frame.end_lineno == line and frame.end_colno else start + 1
    return PluginPassError(
        f"pass '{name}' raised {what}",
        SourceLocation(plugin, line, start + 1),
        source_line=linecache.getline(plugin, line).rstrip("\n") or None,
        span_length=end - start,
    )


@dataclass
class Pipeline:
    """An ordered list of passes with optional hooks around each one.

    `check_pass(pass_, before, after)` sees a copy of the module from before
    the pass next to the module after it (the copy is made only when the hook
    is set); `before_pass(pass_, module)` and `after_pass(pass_, module)` run
    before and after each pass.

    The module is verified after every pass (`verify_each`, as `mlir-opt`'s
    `-verify-each`), so invalid IR is blamed on the pass that made it. With
    `verify_each=False` it is verified once, after the last pass, and when
    that fails the pipeline runs again on a copy of its input, verifying
    after each pass, to name the pass (`InvalidPassOutput`): the user's
    compile path (`irkit.runtime.lower`) spends no time verifying IR that
    irkit's passes produced, and a pass's bug is still reported as one.
    """

    passes: list[ModulePass]
    after_pass: Callable[[ModulePass, ModuleOp], None] | None = None
    check_pass: Callable[[ModulePass, ModuleOp, ModuleOp], None] | None = None
    before_pass: Callable[[ModulePass, ModuleOp], None] | None = None
    verify_each: bool = True

    @staticmethod
    def parse(spec: str, extra_passes: PassFactories | None = None) -> Pipeline:
        return Pipeline(build_pipeline(spec, extra_passes))

    def run(self, ctx: Context, module: ModuleOp) -> None:
        original = None if self.verify_each or not self.passes else module.clone()
        try:
            for pass_ in self.passes:
                if self.before_pass is not None:
                    self.before_pass(pass_, module)
                before = module.clone() if self.check_pass is not None else None
                run_pass(ctx, pass_, module, verify=self.verify_each)
                if self.check_pass is not None and before is not None:
                    self.check_pass(pass_, before, module)
                if self.after_pass is not None:
                    self.after_pass(pass_, module)
        except PassCrashed:
            if original is None:
                raise
            # Unverified IR may have crashed a later pass: run again,
            # verifying each pass, to blame the one at fault.
            Pipeline(self.passes).run(ctx, original)
            raise
        if original is None:
            return
        try:
            verify_module(module)
        except DiagnosticError as error:
            Pipeline(self.passes).run(ctx, original)
            raise InvalidPassOutput(self.passes[-1].name, error) from None


def describe_passes(
    plugins: PassFactories | None = None,
) -> list[tuple[str, str, str]]:
    """(section, name, summary) for every pass, irkit's first: the sections
    are `irkit`, `pipeline` (irkit's named pipelines), `plugin` and `xdsl`."""
    irkit = get_irkit_passes()
    rows: list[tuple[str, str, str]] = []
    groups: Sequence[tuple[str, PassFactories]] = (
        ("irkit", irkit),
        ("plugin", plugins or {}),
        ("xdsl", {n: f for n, f in get_all_passes().items() if n not in irkit}),
    )
    for section, factories in groups:
        for name in sorted(factories):
            try:
                cls = factories[name]()
            except ImportError:  # an upstream pass whose optional package is missing
                rows.append((section, name, "(cannot be imported here)"))
                continue
            kind = "pipeline" if issubclass(cls, NamedPipeline) else section
            rows.append((kind, name, pass_summary(cls)))
    order = {"irkit": 0, "pipeline": 1, "plugin": 2, "xdsl": 3}
    return sorted(rows, key=lambda row: order[row[0]])
