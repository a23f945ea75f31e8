"""The compiled-code store (`lsp/code_cache.py`, issue 35): a server start keeps the methods
attrs and cattrs generated (lsprotocol's classes, the message converters) after its first
diagnostics, and the next start reads them instead of compiling the same text again. The
store changes nothing a client sees; a damaged one is only recompiled; no store is written
where Python writes no bytecode. Real server processes over stdio; no timing is asserted."""

from __future__ import annotations

import marshal
from pathlib import Path
from types import CodeType
from typing import Any

import pytest
from raw_client import RawClient

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


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The store's folder for the servers this test starts, which write bytecode."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("VLLM_CONFIG_LSP_CACHE", str(folder))
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    return folder


def _stored(folder: Path) -> dict[bytes, CodeType]:
    [path] = folder.glob("generated-code-*.marshal")
    codes = marshal.loads(path.read_bytes())
    assert isinstance(codes, dict)
    return codes


def test_the_next_start_reads_what_the_first_compiled(store: Path, tmp_path: Path) -> None:
    first = _session(tmp_path)
    codes = _stored(store)
    assert len(codes) > 500  # lsprotocol's ~570 attrs classes, the converters used
    assert all(isinstance(code, CodeType) for code in codes.values())
    [path] = store.glob("generated-code-*.marshal")
    written = path.stat().st_mtime_ns
    second = _session(tmp_path)
    assert second == first and first, "the store changes nothing the client sees"
    assert path.stat().st_mtime_ns == written, "the second start compiled nothing new"


def test_a_damaged_store_is_compiled_again(store: Path, tmp_path: Path) -> None:
    expected = _session(tmp_path)
    [path] = store.glob("generated-code-*.marshal")
    path.write_bytes(b"not a marshal file")
    assert _session(tmp_path) == expected
    assert len(_stored(store)) > 500, "rewritten whole after its first diagnostics"


def test_no_store_where_python_writes_no_bytecode(
    store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    assert _session(tmp_path)
    assert not store.exists()
