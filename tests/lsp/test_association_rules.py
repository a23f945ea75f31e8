"""Association rules without a server: the fixture files, globs and settings, and the CLI's
directory walk using the same rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import cli
from vllm_config_lsp.sources.association import AssociationSettings, classify, glob_matches
from vllm_config_lsp.vllm.catalogue import detection_flag_names

FLAGS = detection_flag_names()

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "association"
NEGATIVE = sorted((FIXTURES / "negative").iterdir())
POSITIVE = sorted((FIXTURES / "positive").iterdir())


@pytest.mark.parametrize("path", NEGATIVE, ids=lambda p: p.name)
def test_detection_negatives(path: Path) -> None:
    assert classify(path.as_posix(), path.read_text(encoding="utf-8"), flag_names=FLAGS) is None


@pytest.mark.parametrize("path", POSITIVE, ids=lambda p: p.name)
def test_detection_positives(path: Path) -> None:
    assert classify(path.as_posix(), path.read_text(encoding="utf-8"), flag_names=FLAGS) is not None


def test_settings_and_globs() -> None:
    text = "port: 8000\n"
    assert classify("/r/serve.vllm.yaml", text, flag_names=FLAGS) is not None
    assert classify("/r/vllm-config.yml", text, flag_names=FLAGS) is not None
    assert classify("/r/serve.yaml", text, flag_names=FLAGS) is None
    assert classify("/r/serve.vllm.json", text, flag_names=FLAGS) is None
    assert classify(
        "/r/deploy/serve.yaml",
        text,
        AssociationSettings(globs=("deploy/*.yaml",)),
        flag_names=FLAGS,
    )
    excluded = AssociationSettings(exclude=("**/charts/**",))
    assert classify("/r/charts/x/serve.vllm.yaml", text, excluded, flag_names=FLAGS) is None
    # the marker comment beats exclusion
    assert (
        classify("/r/charts/x/a.yaml", "# vllm-config\n" + text, excluded, flag_names=FLAGS)
        is not None
    )
    content = "tensor-parallel-size: 2\n"
    assert classify("/r/a.yaml", content, flag_names=FLAGS) is not None
    assert (
        classify("/r/a.yaml", content, AssociationSettings(detection=False), flag_names=FLAGS)
        is None
    )
    assert classify("untitled:1", content, language_id="yaml", flag_names=FLAGS) is not None
    assert glob_matches("*.{yaml,yml}", "/a/b.yml")
    assert not glob_matches("deploy/*.yaml", "/r/deploy/x/y.yaml")


def test_cli_directory_walk_uses_the_same_rules(tmp_path: Path) -> None:
    from vllm_config_lsp.sources.files import discover

    starting = sorted((FIXTURES / "command-lines").iterdir())
    for path in [*NEGATIVE, *POSITIVE, *starting]:
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    found = {path.name for path, _ in discover([tmp_path], FLAGS)}
    # configs, and the manifests, compose files and workflows that start vLLM; a manifest
    # that only names vLLM is read too, and says nothing
    assert {path.name for path in [*POSITIVE, *starting]} <= found
    assert found <= {path.name for path in [*POSITIVE, *starting, *NEGATIVE]}
    report = cli("check", "--format", "json", str(tmp_path))
    named = {Path(row["file"]).name for row in json.loads(report.stdout)}
    assert not named & {path.name for path in NEGATIVE}
