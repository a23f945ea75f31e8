"""`schemas/prebuilt-catalogue.json` is the newest release's catalogue joined with its shared
definitions (`tools/generate_prebuilt_catalogue.py`): the catalogue read from it must be the
one joined from the store, and one joined from other inputs is not read."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support import REPO
from vllm_config_lsp.vllm import catalogue

sys.path.insert(0, str(REPO / "tools"))
from generate_prebuilt_catalogue import COMMAND, TARGET, render


def test_the_committed_file_is_the_join() -> None:
    assert TARGET.read_text(encoding="utf-8") == render(), f"stale: run `{COMMAND}`"


def test_the_default_release_is_read_from_it_as_joined() -> None:
    version = catalogue.DEFAULT_VERSION
    assert catalogue._prebuilt(version) == catalogue.joined(version)


def test_a_file_of_other_inputs_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    version = catalogue.DEFAULT_VERSION
    folder = tmp_path / "schemas"
    folder.mkdir()
    for name in (f"catalogue-{version}.json", "shared-definitions.json"):
        (folder / name).symlink_to(REPO / "schemas" / name)
    built = json.loads(TARGET.read_text(encoding="utf-8"))
    built["inputs"][1] += 1  # shared definitions regenerated since
    (folder / catalogue.PREBUILT_FILE).write_text(json.dumps(built), encoding="utf-8")
    monkeypatch.setattr(catalogue, "schema_dir", lambda: folder)
    assert catalogue._prebuilt(version) is None
