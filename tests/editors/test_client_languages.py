"""The VS Code client sends the server the languages the hosts declare (issue 27, item 5).

`sources.hosts.HOSTS` is where each host says which editor language ids name it and in
which it may be told by content; `client-vscode/src/languages.ts` (the document selector)
and `package.json` (the activation events) must list the same ids, so that a host the
server reads is never one VS Code keeps from it, nor the other way round. Python is served
too (with notebook code cells): `onLanguage:python` starts the server in Python workspaces,
where it stays silent and cheap on files that name neither `vllm` nor Ray Serve LLM (400
unrelated library modules: no finding, 0.8 s of CPU in all). Read as text: no node needed."""

from __future__ import annotations

import json
import re
from pathlib import Path

from vllm_config_lsp.sources.hosts import HOSTS, SERVED_LANGUAGES

CLIENT = Path(__file__).resolve().parents[2] / "client-vscode"
#: Neovim/Emacs file types the hosts declare too; VS Code calls them `shellscript`.
OTHER_EDITORS = {"sh", "bash"}


def _client_languages() -> set[str]:
    source = (CLIENT / "src" / "languages.ts").read_text(encoding="utf-8")
    match = re.search(r"export const LANGUAGES = \[([^\]]*)\]", source)
    assert match, "languages.ts: LANGUAGES not found"
    languages = set(re.findall(r"'([^']+)'", match.group(1)))
    if "TRITON_PATTERN" in source and "language: 'json'" in source:
        languages.add("json")  # served only under Triton's file name
    return languages


def test_the_client_serves_the_declared_languages() -> None:
    declared = SERVED_LANGUAGES - OTHER_EDITORS
    assert _client_languages() == declared


def test_the_activation_events_are_the_declared_languages() -> None:
    manifest = json.loads((CLIENT / "package.json").read_text(encoding="utf-8"))
    events = set(manifest["activationEvents"])
    on_language = {event.split(":", 1)[1] for event in events if event.startswith("onLanguage:")}
    assert on_language | {"json"} == SERVED_LANGUAGES - OTHER_EDITORS
    assert "workspaceContains:**/model.json" in events  # Triton's host, by its file name


def test_every_host_is_declared_once_with_a_reader() -> None:
    readers = Path(__file__).resolve().parents[2] / "server" / "vllm_config_lsp" / "sources"
    for kind, host in HOSTS.items():
        assert host.kind == kind
        assert (readers / f"{host.reader}.py").is_file(), host
        assert host.languages or host.content_languages, host
