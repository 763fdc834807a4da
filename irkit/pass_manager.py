"""Building pass pipelines from text and running them with checks in between.

A pipeline is a list of named stages with verification at every boundary; a
pass that leaves invalid IR behind is an internal error naming that pass.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms import get_all_passes
from xdsl.utils.arg_spec import ArgSpecParseError, parse_pipeline
from xdsl.utils.exceptions import PassFailedException

from irkit.diagnostics import DiagnosticError, IRKitError
from irkit.transforms import get_irkit_passes
from irkit.transforms.pipelines import NamedPipeline
from irkit.verification import verify_module


class PipelineError(IRKitError):
    """A pipeline string that names an unknown pass or has malformed options."""


class PassFailure(IRKitError):
    """A pass refused its input (unsupported IR); the message names the pass."""


class InvalidPassOutput(Exception):
    """A pass produced IR that does not verify: a bug in that pass."""

    def __init__(self, pass_name: str, diagnostic: DiagnosticError) -> None:
        super().__init__(f"pass '{pass_name}' produced invalid IR: {diagnostic}")
        self.pass_name = pass_name
        self.diagnostic = diagnostic


def available_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass irkit-opt knows: xDSL's upstream passes and irkit's own."""
    return get_all_passes() | get_irkit_passes()


def _constant_factory(cls: type[ModulePass]) -> Callable[[], type[ModulePass]]:
    return lambda: cls


def load_pass_plugin(path: str) -> dict[str, Callable[[], type[ModulePass]]]:
    """The `ModulePass` classes defined in the Python file at `path`, by name.

    This is how a pass written outside irkit runs in `irkit-opt`
    (`--load-pass-plugin my_pass.py -p my-pass`).
    """
    import importlib.util
    import inspect

    spec = importlib.util.spec_from_file_location(
        f"irkit_plugin_{abs(hash(path))}", path
    )
    if spec is None or spec.loader is None:
        raise PipelineError(f"cannot load pass plugin '{path}'")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:  # any failure of user code is reported, not raised
        raise PipelineError(
            f"cannot load pass plugin '{path}': {type(error).__name__}: {error}"
        ) from None
    found: dict[str, Callable[[], type[ModulePass]]] = {}
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if issubclass(cls, ModulePass) and cls.__module__ == module.__name__:
            found[cls.name] = _constant_factory(cls)
    if not found:
        raise PipelineError(f"pass plugin '{path}' defines no ModulePass")
    return found


def build_pipeline(
    spec: str, extra_passes: dict[str, Callable[[], type[ModulePass]]] | None = None
) -> list[ModulePass]:
    """Parse `pass-a,pass-b{opt=1}` into pass instances.

    `extra_passes` adds passes to the registry (e.g. from a plugin). Raises
    `PipelineError` with the offending pass or option.
    """
    if not spec.strip():
        return []
    known = available_passes() | (extra_passes or {})
    try:
        specs = list(parse_pipeline(spec))
    except ArgSpecParseError as error:
        raise PipelineError(f"malformed pass pipeline '{spec}': {error}") from None
    passes: list[ModulePass] = []
    for pass_spec in specs:
        if pass_spec.name not in known:
            raise PipelineError(
                f"unknown pass '{pass_spec.name}' (run `irkit-opt --list-passes`)"
            )
        try:
            pass_ = known[pass_spec.name]().from_pass_spec(pass_spec)
        except (ValueError, TypeError) as error:
            raise PipelineError(
                f"invalid options for pass '{pass_spec.name}': {error}"
            ) from None
        # A named pipeline runs as its stages, so hooks see every level.
        passes.extend(pass_.stages() if isinstance(pass_, NamedPipeline) else [pass_])
    return passes


def run_pass(ctx: Context, pass_: ModulePass, module: ModuleOp) -> None:
    """Apply one pass, then verify; failures are reported against the pass."""
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
    try:
        verify_module(module)
    except DiagnosticError as error:
        raise InvalidPassOutput(pass_.name, error) from None


@dataclass
class Pipeline:
    """An ordered list of passes with optional hooks around each one.

    `check_pass(pass_, before, after)` sees a copy of the module from before
    the pass next to the module after it (the copy is made only when the hook
    is set); `after_pass(pass_, module)` runs after each pass.
    """

    passes: list[ModulePass]
    after_pass: Callable[[ModulePass, ModuleOp], None] | None = None
    check_pass: Callable[[ModulePass, ModuleOp, ModuleOp], None] | None = None

    @staticmethod
    def parse(
        spec: str, extra_passes: dict[str, Callable[[], type[ModulePass]]] | None = None
    ) -> Pipeline:
        return Pipeline(build_pipeline(spec, extra_passes))

    def run(self, ctx: Context, module: ModuleOp) -> None:
        for pass_ in self.passes:
            before = module.clone() if self.check_pass is not None else None
            run_pass(ctx, pass_, module)
            if self.check_pass is not None and before is not None:
                self.check_pass(pass_, before, module)
            if self.after_pass is not None:
                self.after_pass(pass_, module)
