"""The lint thread is the server's only one: a file a config points at must not pin it.
A `revision:` naming a FIFO, `/dev/zero` or `/dev/stdin` (the server's own JSON-RPC
input), a committed `.venv/…/METADATA` that is one, a loop of symbolic links in the
document's own path: each document gets its diagnostics, without an internal error, and so
does the next one. The server runs with RLIMIT_AS (a read that never ends fails at once)
and every wait is bounded (lsp_support.TIMEOUT)."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import (
    TIMEOUT,
    Doc,
    _client_factory,
    apply_workspace_edit,
    code_actions,
    start_session,
)
from pytest_lsp import ClientServerConfig, LanguageClient
from support import ADDRESS_SPACE, CACHED_MODEL, HF_CACHE, SPECIAL_FILES, make_special_file

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(sys.platform == "win32", reason="FIFOs, devices, RLIMIT_AS"),
]

#: Known before the server starts (its environment names the cache), made by `work`.
WORK = Path(tempfile.gettempdir()) / f"vllm-config-lsp-hostile-{os.getpid()}"
HUB = WORK / "hub"
LIMITED_SERVER = [
    sys.executable,
    "-c",
    "import resource, sys\n"
    f"resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))\n"
    "from vllm_config_lsp.cli.main import main\n"
    "sys.exit(main(['--stdio']))\n",
]
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("HF_HOME", "VIRTUAL_ENV")},
    "HF_HUB_CACHE": str(HUB),
}
BAD = "model: m\nmax-num-seqs: lots\n"


@pytest.fixture(scope="module", autouse=True)
def work() -> Iterator[None]:
    shutil.copytree(HF_CACHE, HUB)
    yield
    shutil.rmtree(WORK)


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=LIMITED_SERVER, client_factory=_client_factory, server_env=ENV
    ),
    scope="module",
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await start_session(lsp_client, "visual-studio-code", {"vllmConfig": {"debounceMs": 0}})
    yield
    # bounded: a server whose lint thread read its stdin never sees the shutdown request
    await asyncio.wait_for(lsp_client.shutdown_session(), TIMEOUT)


async def _checked_and_then_the_next(client: LanguageClient, path: Path, text: str) -> None:
    hostile = await Doc(client, path.as_uri(), text).diagnostics()
    assert "VC000" not in {str(d.code) for d in hostile}, hostile
    after = Doc(client, (path.parent / f"after-{path.parent.name}.vllm.yaml").as_uri(), BAD)
    assert [str(d.code) for d in await after.diagnostics()] == ["VC201"]


@pytest.mark.parametrize("kind", SPECIAL_FILES)
async def test_a_revision_naming_a_special_file(client: LanguageClient, kind: str) -> None:
    folder = WORK / f"revision-{kind}"
    folder.mkdir()
    make_special_file(kind, folder / "target")
    text = CACHED_MODEL + f"revision: {folder / 'target'}\n"
    await _checked_and_then_the_next(client, folder / "serve.vllm.yaml", text)


@pytest.mark.parametrize("kind", SPECIAL_FILES)
async def test_a_committed_metadata_that_is_a_special_file(
    client: LanguageClient, kind: str
) -> None:
    folder = WORK / f"metadata-{kind}"
    dist = folder / ".venv" / "lib" / "python3.11" / "site-packages" / "vllm-0.10.2.dist-info"
    dist.mkdir(parents=True)
    make_special_file(kind, dist / "METADATA")
    await _checked_and_then_the_next(client, folder / "serve.vllm.yaml", BAD)


async def test_a_symlink_loop_in_the_documents_path(client: LanguageClient) -> None:
    folder = WORK / "looped"
    folder.mkdir()
    (folder / "loop").symlink_to("loop")
    doc = Doc(client, (folder / "loop" / "serve.vllm.yaml").as_uri(), BAD)
    assert [str(d.code) for d in await doc.diagnostics()] == ["VC201"]
    await _checked_and_then_the_next(client, folder / "serve.vllm.yaml", BAD)


async def test_a_nul_in_the_documents_uri(client: LanguageClient) -> None:
    """`%00` names no file on any file system: the document is checked as an unsaved one
    (before, resolving its path raised and it was never checked)."""
    doc = Doc(client, (WORK / "nul").as_uri() + "/a%00b.vllm.yaml", BAD)
    assert [str(d.code) for d in await doc.diagnostics()] == ["VC201"]
    await _checked_and_then_the_next(client, WORK / "after-nul" / "serve.vllm.yaml", BAD)


@pytest.mark.parametrize("folder", ["my project", "caf\u00e9", "c:"])
async def test_a_document_whose_uri_is_percent_encoded(client: LanguageClient, folder: str) -> None:
    """Editors encode spaces, non-ASCII and a drive's colon (`my%20project`, `caf%C3%A9`,
    `c%3A`); pygls keys documents by the decoded URI. Before, such a document was looked
    up as the client wrote it, never found, and never checked."""
    path = WORK / folder / "serve.vllm.yaml"
    path.parent.mkdir()
    path.write_text("model: m\nmax-num-seqs: 8\nmax_num_seqs: 16\n")
    doc = Doc(client, path.as_uri(), path.read_text())
    assert "%" in doc.uri
    found = await doc.diagnostics()
    assert [str(d.code) for d in found] == ["VC108"]
    actions = await code_actions(client, doc.uri, found[0].range, found)
    fix = next(a for a in actions if a.edit is not None and "VC108" in a.title)
    assert fix.edit is not None
    fixed = apply_workspace_edit(doc.text, fix.edit, doc.uri, "utf-16")
    assert await doc.replace(fixed) == []
