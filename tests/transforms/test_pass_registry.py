"""Every registered pass is named after its file (style.md #2) and loads."""

from __future__ import annotations

import pytest

from irkit.transforms import _PASSES, _PIPELINES, get_irkit_passes
from irkit.transforms.pipelines import NamedPipeline


@pytest.mark.parametrize("name", sorted(_PASSES))
def test_pass_is_defined_in_the_file_named_after_it(name: str) -> None:
    pass_class = get_irkit_passes()[name]()
    assert pass_class.name == name
    assert pass_class.__module__ == "irkit.transforms." + name.replace("-", "_")
    assert not issubclass(pass_class, NamedPipeline)


@pytest.mark.parametrize("name", sorted(_PIPELINES))
def test_named_pipelines_live_in_pipelines(name: str) -> None:
    pipeline_class = get_irkit_passes()[name]()
    assert pipeline_class.name == name
    assert issubclass(pipeline_class, NamedPipeline)


def test_named_pipeline_expands_into_its_stages() -> None:
    from irkit.pass_manager import build_pipeline

    plain = [p.name for p in build_pipeline("lower-to-c")]
    assert plain == [
        "convert-nn-to-linalg",
        "linalg-generalize-named-ops",
        "linalg-fold-unit-extent-dims",
        "linalg-fuse-elementwise",
        "linalg-collapse-dims",
        "linalg-fuse-elementwise",
        "bufferize",
        "linalg-fuse-attention",
        "linalg-tile-rows",
        "linalg-tile-contractions",
        "linalg-tile-contractions",
        "linalg-promote-accumulator",
        "convert-linalg-to-loops",
        "scf-for-hoist-accumulators",
    ]
    untiled = [
        p.name
        for p in build_pipeline(
            "lower-to-c{rows=false tile=false hoist=false fuse-attention=false}"
        )
    ]
    assert untiled[-2:] == ["bufferize", "convert-linalg-to-loops"]
    unfused = [p.name for p in build_pipeline("lower-to-c{fuse=false}")]
    assert "linalg-fuse-elementwise" not in unfused
    assert "linalg-collapse-dims" in unfused
    uncollapsed = [p.name for p in build_pipeline("lower-to-c{collapse=false}")]
    assert "linalg-collapse-dims" not in uncollapsed
    assert uncollapsed.count("linalg-fuse-elementwise") == 1
