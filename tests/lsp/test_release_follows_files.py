"""The release a config is checked against follows the files it was read from, as `check`
reads them: a Kubernetes manifest opened first does not decide it for its folder, and a
changed image tag applies without a restart (`workspace/didChangeWatchedFiles`, and the save
of an open manifest)."""

from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path

import pytest
from lsp_support import Doc, document_info, published, registrations, wait_until
from lsprotocol import types
from pytest_lsp import LanguageClient
from support import cli

pytestmark = pytest.mark.asyncio(loop_scope="session")

MANIFEST = (
    "apiVersion: apps/v1\n"
    "kind: Deployment\n"
    "spec:\n"
    "  template:\n"
    "    spec:\n"
    "      containers:\n"
    "        - name: vllm\n"
    "          image: vllm/vllm-openai:{tag}\n"
    '          args: ["--model", "m", "--max-num-seqs", "8"]\n'
)
#: `swap-space` is gone in 0.33 (VC101, an error) and only announced as going in 0.11 (VC120).
CONFIG = "model: m\nswap-space: 4\n"


def _cli_codes(path: Path) -> list[str]:
    report = cli("check", "--format", "json", str(path))
    return sorted(str(finding["code"]) for finding in json.loads(report.stdout))


async def _republished(client: LanguageClient, doc: Doc, before: int) -> list[str]:
    """The codes of the next diagnostics published for `doc` after the first `before`."""

    def newer() -> list[types.Diagnostic] | None:
        found = published(client, doc.uri)
        return found[-1].diagnostics if len(found) > before else None

    return sorted(str(d.code) for d in await wait_until(newer))


async def test_release_follows_the_manifest_beside_the_config(
    client: LanguageClient, tmp_path: Path
) -> None:
    folder = tmp_path / "k8s"
    folder.mkdir()
    manifest_path, config_path = folder / "deployment.yaml", folder / "llama.vllm.yaml"
    manifest_path.write_text(MANIFEST.format(tag="v0.11.0"), encoding="utf-8")
    config_path.write_text(CONFIG, encoding="utf-8")

    manifest = Doc(client, manifest_path.as_uri(), manifest_path.read_text(encoding="utf-8"))
    await manifest.diagnostics()  # opened first, as in the report
    config = Doc(client, config_path.as_uri(), CONFIG)
    codes = sorted(str(d.code) for d in await config.diagnostics())
    assert codes == _cli_codes(config_path) == ["VC120"]
    assert (await document_info(client, config.uri))["vllmVersion"] == "0.11.2"

    # the tag changes on disk; the editor's file watcher says so
    manifest_path.write_text(MANIFEST.format(tag="v0.33.0"), encoding="utf-8")
    before = len(published(client, config.uri))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=manifest.uri, type=types.FileChangeType.Changed)]
        )
    )
    assert await _republished(client, config, before) == _cli_codes(config_path) == ["VC101"]
    assert (await document_info(client, config.uri))["vllmVersion"] == "0.33.0"

    # and back, saved from the open manifest (clients without a file watcher)
    manifest.version += 1
    manifest.text = MANIFEST.format(tag="v0.11.0")
    manifest_path.write_text(manifest.text, encoding="utf-8")
    before = len(published(client, config.uri))
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(
            text_document=types.TextDocumentIdentifier(uri=manifest.uri)
        )
    )
    assert await _republished(client, config, before) == _cli_codes(config_path) == ["VC120"]
    manifest.close()
    config.close()


#: Files `choose_version` reads (an image tag beside the config, the venv's vLLM).
READ_FOR_THE_RELEASE = (
    "/w/k8s/deployment.yaml",
    "/w/compose.yml",
    "/w/Dockerfile",
    "/w/serve.dockerfile",
    "/w/.venv/lib/python3.12/site-packages/vllm-0.11.0.dist-info/METADATA",
)


def _matches(path: str, glob: str) -> bool:
    """LSP glob matching, enough for these paths: `{a,b}` alternatives, `**/` any folders."""
    alternatives = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", glob)
    if alternatives is not None:
        head, options, tail = alternatives.groups()
        return any(_matches(path, head + option + tail) for option in options.split(","))
    return fnmatch.fnmatchcase(path, glob)


async def test_the_files_read_for_the_release_are_watched(client: LanguageClient) -> None:
    caps = client.capabilities
    watched = caps.workspace.did_change_watched_files if caps and caps.workspace else None
    found = registrations(client, types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    if not (watched and watched.dynamic_registration):
        assert found == []  # Neovim: it cannot be asked (didSave still applies)
        return
    [registration] = found
    globs = [watcher["globPattern"] for watcher in registration.register_options["watchers"]]
    for path in READ_FOR_THE_RELEASE:
        assert any(_matches(path, glob) for glob in globs), (path, globs)
    assert not any(_matches("/w/notes.txt", glob) for glob in globs)
