"""Project settings files in the editor: the same `vllm-config.toml` / `[tool.vllm-config]`
that `check` reads applies to the open documents below it, is read again when it changes
(`workspace/didChangeWatchedFiles`), is watched, and its problems are shown with the file
and line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from lsp_support import Doc, published, registrations, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient
from support import cli

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONFIG = "model: m\nmax-num-seqs: lots\nenable-prefix-caching: false\n"


def _cli_codes(path: Path) -> list[str]:
    report = cli("check", "--format", "json", str(path))
    return sorted(str(finding["code"]) for finding in json.loads(report.stdout))


async def _republished(client: LanguageClient, doc: Doc, before: int) -> list[str]:
    def newer() -> tuple[list[types.Diagnostic]] | None:  # a tuple: [] is an answer too
        found = published(client, doc.uri)
        return (found[-1].diagnostics,) if len(found) > before else None

    (diagnostics,) = await wait_until(newer)
    return sorted(str(d.code) for d in diagnostics)


def _changed(client: LanguageClient, path: Path) -> None:
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=path.as_uri(), type=types.FileChangeType.Changed)]
        )
    )


async def test_the_settings_file_applies_and_is_read_again(
    client: LanguageClient, tmp_path: Path
) -> None:
    project = tmp_path / "project"
    (project / "deploy").mkdir(parents=True)
    settings = project / "pyproject.toml"
    settings.write_text('[project]\nname = "x"\n\n[tool.vllm-config]\nignore = ["VC104"]\n')
    config_path = project / "deploy" / "serve.vllm.yaml"
    config_path.write_text(CONFIG)
    config = Doc(client, config_path.as_uri(), CONFIG)
    codes = sorted(str(d.code) for d in await config.diagnostics())
    assert codes == _cli_codes(config_path) == ["VC201"]

    # a per-file ignore instead; the editor's watcher reports the change
    settings.write_text('[tool.vllm-config]\nper-file-ignores = { "deploy/*.yaml" = ["VC201"] }\n')
    before = len(published(client, config.uri))
    _changed(client, settings)
    assert await _republished(client, config, before) == _cli_codes(config_path) == ["VC104"]

    # a nearer vllm-config.toml wins; its unknown key is shown with the file and line
    nearer = project / "deploy" / "vllm-config.toml"
    nearer.write_text('select = ["VC2"]\nignroe = ["VC201"]\n')
    before = len(published(client, config.uri))
    _changed(client, nearer)
    assert await _republished(client, config, before) == ["VC201"]

    def shown() -> str | None:
        return next((m.message for m in client.messages if "vllm-config.toml:2" in m.message), None)

    message = await wait_until(shown)
    assert "unknown key 'ignroe'" in message and "did you mean 'ignore'" in message

    # excluded: the document gets nothing
    nearer.write_text('exclude = ["*.vllm.yaml"]\n')
    before = len(published(client, config.uri))
    _changed(client, nearer)
    assert await _republished(client, config, before) == []
    config.close()


async def test_the_settings_files_are_watched(client: LanguageClient) -> None:
    caps = client.capabilities
    watched = caps.workspace.did_change_watched_files if caps and caps.workspace else None
    if not (watched and watched.dynamic_registration):
        return  # Neovim cannot be asked; a save of an open settings file still counts
    [registration] = registrations(client, types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    globs = {watcher["globPattern"] for watcher in registration.register_options["watchers"]}
    assert {"**/pyproject.toml", "**/vllm-config.toml", "**/.vllm-config.toml"} <= globs
