"""The compiled-code stores (`code_cache.py`, issue 35): a start keeps the methods that
`dataclasses` (every front end), attrs and cattrs (the server: lsprotocol's classes, the
message converters) generated, after the work the user waits for, and the next start reads
them instead of compiling the same text again. The stores change nothing a user sees; a
damaged one is only recompiled; none is written where Python writes no bytecode. Real
processes (`check`, the server over stdio); no timing is asserted."""

from __future__ import annotations

import marshal
from pathlib import Path
from types import CodeType
from typing import Any

import pytest
from raw_client import RawClient
from support import cli

CONFIG = "model: Qwen/Qwen3-8B\ntensor-parallel-size: 0\nenforce-eager: maybe\n"


def _session(folder: Path) -> list[dict[str, Any]]:
    """One server start: the diagnostics of a config opened right after `initialized`."""
    client = RawClient()
    try:
        uri = (folder / "served.vllm.yaml").as_uri()
        client.open(uri, CONFIG)
        return client.diagnostics(uri, 1)
    finally:
        client.close()


def _check(folder: Path) -> str:
    config = folder / "served.vllm.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    done = cli("check", "--format", "json", str(config))
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stores' folder for the processes this test starts, which write bytecode."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("VLLM_CONFIG_LSP_CACHE", str(folder))
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    return folder


def _stored(folder: Path, generator: str) -> dict[tuple[str, str, str], CodeType]:
    [path] = folder.glob(f"generated-code-*-{generator}*.marshal")
    codes = marshal.loads(path.read_bytes())
    assert isinstance(codes, dict)
    assert all(isinstance(code, CodeType) for code in codes.values())
    return codes


def _written(folder: Path) -> dict[str, int]:
    return {path.name: path.stat().st_mtime_ns for path in folder.glob("*.marshal")}


def test_the_next_server_start_reads_what_the_first_compiled(store: Path, tmp_path: Path) -> None:
    first = _session(tmp_path)
    assert len(_stored(store, "attrs")) > 500  # lsprotocol's ~570 classes, the converters
    assert len(_stored(store, "dataclasses")) > 100
    written = _written(store)
    second = _session(tmp_path)
    assert second == first and first, "the stores change nothing the client sees"
    assert _written(store) == written, "the second start compiled nothing new"


def test_the_next_check_reads_what_the_first_compiled(store: Path, tmp_path: Path) -> None:
    first = _check(tmp_path)
    assert len(_stored(store, "dataclasses")) > 100
    assert not list(store.glob("*attrs*")), "check loads no attrs (no LSP stack)"
    written = _written(store)
    assert _check(tmp_path) == first
    assert _written(store) == written


def test_a_damaged_store_is_compiled_again(store: Path, tmp_path: Path) -> None:
    expected = _session(tmp_path)
    for path in store.glob("*.marshal"):
        path.write_bytes(b"not a marshal file")
    assert _session(tmp_path) == expected
    assert len(_stored(store, "attrs")) > 500, "rewritten whole after its first diagnostics"


def test_no_store_where_python_writes_no_bytecode(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert _session(tmp_path)
    assert _check(tmp_path)
    assert not store.exists()
