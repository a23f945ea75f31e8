"""What a config or a committed folder points at cannot make `check` read what it likes:
a `revision:` that is a path (a FIFO, `/dev/zero`, `/dev/stdin`, `../..`), a ref or a
`.venv/…/METADATA` that is a FIFO or a link to a device, a config.json of a gigabyte.
Each run is bounded (support.bounded_cli): a hang fails on the timeout, a read that never
ends on RLIMIT_AS; stdin is an open, empty pipe, so reading /dev/stdin would block."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from support import (
    CACHED_MODEL,
    HF_CACHE,
    SPECIAL_FILES,
    bounded_cli,
    cache_env,
    make_special_file,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices, RLIMIT_AS")

REPO_DIR = "models--Qwen--Qwen3-30B-A3B"
MAIN_COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _hub(tmp_path: Path) -> Path:
    hub = tmp_path / "hub"
    shutil.copytree(HF_CACHE, hub)
    return hub


def _rows(tmp_path: Path, text: str, hub: Path) -> list[dict[str, str]]:
    config = tmp_path / "serve.vllm.yaml"
    config.write_text(text)
    result = bounded_cli("check", "--format", "json", str(config), env=cache_env(hub))
    assert result.returncode in (0, 1), result.stderr
    rows: list[dict[str, str]] = json.loads(result.stdout)
    assert not [r for r in rows if r["code"] == "VC000"], rows  # no internal error
    return rows


def _codes(rows: list[dict[str, str]]) -> set[str]:
    return {row["code"] for row in rows}


def test_the_cached_model_is_found_by_ref_name(tmp_path: Path) -> None:
    rows = _rows(tmp_path, CACHED_MODEL + "revision: v0\n", _hub(tmp_path))
    assert "VC601" in _codes(rows)


@pytest.mark.parametrize("kind", SPECIAL_FILES)
def test_a_revision_naming_a_special_file_is_no_ref(tmp_path: Path, kind: str) -> None:
    target = tmp_path / kind
    make_special_file(kind, target)
    rows = _rows(tmp_path, CACHED_MODEL + f"revision: {target}\n", _hub(tmp_path))
    assert "VC601" not in _codes(rows)
    assert any("is not a commit hash or a ref name" in r["message"] for r in rows), rows


@pytest.mark.parametrize("revision", ["/dev/zero", "/dev/stdin", "../../x", "refs/../../x"])
def test_a_revision_that_is_a_path_is_not_followed(tmp_path: Path, revision: str) -> None:
    hub = _hub(tmp_path)
    (hub / "x").write_text(MAIN_COMMIT)  # where `refs/../../x` leads: a commit that exists
    rows = _rows(tmp_path, CACHED_MODEL + f"revision: {revision}\n", hub)
    assert "VC601" not in _codes(rows)
    assert any("is not a commit hash or a ref name" in r["message"] for r in rows), rows


@pytest.mark.parametrize("kind", SPECIAL_FILES)
def test_a_ref_that_is_a_special_file_is_not_read(tmp_path: Path, kind: str) -> None:
    hub = _hub(tmp_path)
    ref = hub / REPO_DIR / "refs" / "main"
    ref.unlink()
    make_special_file(kind, ref)
    rows = _rows(tmp_path, CACHED_MODEL, hub)
    assert "VC601" not in _codes(rows)


@pytest.mark.parametrize("kind", SPECIAL_FILES)
def test_a_committed_metadata_that_is_a_special_file_is_not_read(tmp_path: Path, kind: str) -> None:
    dist = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages" / "vllm-0.10.2.dist-info"
    dist.mkdir(parents=True)
    make_special_file(kind, dist / "METADATA")
    config = tmp_path / "serve.vllm.yaml"
    config.write_text("model: m\nmax-num-seqs: lots\n")
    checked = bounded_cli("check", "--format", "json", str(config))
    assert checked.returncode == 1, checked.stderr
    assert _codes(json.loads(checked.stdout)) == {"VC201"}


def test_a_config_json_of_a_gigabyte_is_not_read(tmp_path: Path) -> None:
    folder = tmp_path / "model"
    folder.mkdir()
    with (folder / "config.json").open("wb") as handle:  # sparse: no disk used
        handle.truncate(1 << 30)
    rows = _rows(tmp_path, "model: ./model\ntensor-parallel-size: 3\n", _hub(tmp_path))
    assert [r["code"] for r in rows] == ["VC600"]
    assert "config.json is not a JSON object" in rows[0]["message"]
