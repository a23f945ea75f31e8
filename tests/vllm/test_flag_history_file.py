"""`schemas/flag-history.json` is the flag and field timeline pre-built from the catalogues
(`tools/generate_flag_history.py`): it must say what reading every catalogue says."""

from __future__ import annotations

import json
import sys

import pytest
from support import REPO
from vllm_config_lsp.vllm import flag_history
from vllm_config_lsp.vllm.catalogue import available_versions

sys.path.insert(0, str(REPO / "tools"))
from generate_flag_history import COMMAND, TARGET, render


def test_the_committed_history_is_the_catalogues() -> None:
    assert TARGET.read_text(encoding="utf-8") == render(), f"stale: run `{COMMAND}`"


def test_a_history_of_other_releases_is_read_from_the_catalogues(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = [table.materialised() for table in flag_history._timeline()]
    stale = json.loads(TARGET.read_text(encoding="utf-8"))
    stale["releases"] = stale["releases"][:-1]  # written before the newest catalogue
    stale["flags"] = {}
    folder = tmp_path / "schemas"  # type: ignore[operator]
    folder.mkdir()
    for path in REPO.joinpath("schemas").glob("catalogue-*.json"):
        (folder / path.name).symlink_to(path)
    (folder / "shared-definitions.json").symlink_to(REPO / "schemas" / "shared-definitions.json")
    (folder / flag_history.HISTORY_FILE).write_text(json.dumps(stale), encoding="utf-8")
    monkeypatch.setattr(flag_history, "schema_dir", lambda: folder)
    flag_history._timeline.cache_clear()
    try:
        assert [table.materialised() for table in flag_history._timeline()] == built
        assert available_versions()[-1] in built[0]["max-model-len"].releases
        assert len(built[0]) > 500 and len(built[1]) > 500
    finally:
        flag_history._timeline.cache_clear()
