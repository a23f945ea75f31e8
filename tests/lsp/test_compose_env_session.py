"""An open compose file follows the `.env` file it interpolates from: a finding on a filled
`${VAR}` carries the `.env` line as related information, and a change of the `.env` file
(`workspace/didChangeWatchedFiles`, as the editor's file watcher reports it) checks the
compose file again, with the same findings as `check` then gives. On harbor's real
compose file and `.env` (tests/sources/data/compose-env/SOURCES.md)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from lsp_support import Doc, published, registrations, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient
from support import REPO, cli
from test_release_follows_files import _matches

pytestmark = pytest.mark.asyncio(loop_scope="session")

DATA = REPO / "tests" / "sources" / "data" / "compose-env" / "harbor"
SPECIFIER = 'HARBOR_VLLM_MODEL_SPECIFIER="--model microsoft/Phi-3-mini-4k-instruct"'


def _cli_codes(path: Path) -> list[str]:
    report = cli("check", "--format", "json", str(path))
    return sorted(str(finding["code"]) for finding in json.loads(report.stdout))


async def test_env_change_rechecks_the_compose_file(client: LanguageClient, tmp_path: Path) -> None:
    folder = tmp_path / "harbor"
    shutil.copytree(DATA, folder)
    path, env = folder / "compose.vllm.yml", folder / ".env"
    doc = Doc(client, path.as_uri(), path.read_text(encoding="utf-8"))
    diagnostics = await doc.diagnostics()
    assert sorted(str(d.code) for d in diagnostics) == _cli_codes(path) == ["VC240", "VC384"]
    [moved] = [d for d in diagnostics if d.code == "VC384"]
    [related] = moved.related_information or []
    assert related.location.uri == env.as_uri()
    lines = env.read_text(encoding="utf-8").splitlines()
    line = related.location.range.start.line
    assert lines[line] == SPECIFIER
    assert related.location.range.start.character == 0
    assert related.location.range.end.character == len(SPECIFIER)

    # the model becomes the positional argument in `.env`; the watcher says so
    env.write_text(
        env.read_text(encoding="utf-8").replace(
            SPECIFIER, 'HARBOR_VLLM_MODEL_SPECIFIER="microsoft/Phi-3-mini-4k-instruct"'
        ),
        encoding="utf-8",
    )
    before = len(published(client, doc.uri))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=env.as_uri(), type=types.FileChangeType.Changed)]
        )
    )

    def newer() -> list[types.Diagnostic] | None:
        found = published(client, doc.uri)
        return found[-1].diagnostics if len(found) > before else None

    codes = sorted(str(d.code) for d in await wait_until(newer))
    assert codes == _cli_codes(path) == ["VC240"]
    doc.close()


async def test_env_files_are_watched(client: LanguageClient) -> None:
    caps = client.capabilities
    watched = caps.workspace.did_change_watched_files if caps and caps.workspace else None
    found = registrations(client, types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    if not (watched and watched.dynamic_registration):
        assert found == []  # Neovim: it cannot be asked (a save of an open `.env` still applies)
        return
    [registration] = found
    globs = [watcher["globPattern"] for watcher in registration.register_options["watchers"]]
    assert any(_matches("/w/deploy/.env", glob) for glob in globs), globs
