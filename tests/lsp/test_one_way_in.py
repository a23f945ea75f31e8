"""One way in (issue 27 item 1): the editor and `check` check alike, because both call
`engine.check`. Every file of the deployments corpus and the examples is opened as an editor
opens it: one the server checks gets the diagnostics `check FILE` reports for it (code and
line); one it does not check is one `check DIR` passes over too. (Which files a walk picks
and which an editor checks still differ the other way: the walk wants a host to name vLLM,
the editor does not — a Ray Serve manifest of `engine_kwargs` is checked in the editor
only. A named file is always checked, issue 27 item 6 decides that by content.)"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from lsp_support import EXAMPLES, Doc, document_info
from pytest_lsp import LanguageClient
from support import CORPUS, cli

pytestmark = pytest.mark.asyncio(loop_scope="session")

FOLDERS = (CORPUS / "deployments", EXAMPLES)
#: The language ids VS Code gives these files (anything else: its name decides).
LANGUAGE_IDS = {
    ".yaml": "yaml",
    ".yml": "yaml",
    ".sh": "shellscript",
    ".md": "markdown",
    ".py": "python",
    ".json": "json",
}


def _language_id(path: Path) -> str:
    if path.name.lower().startswith("dockerfile") or path.suffix == ".dockerfile":
        return "dockerfile"
    return LANGUAGE_IDS.get(path.suffix.lower(), "plaintext")


def _by_file(files: list[Path]) -> dict[str, list[tuple[str, int]]]:
    found: dict[str, list[tuple[str, int]]] = defaultdict(list)
    report = cli("check", "--format", "json", *map(str, files))
    for finding in json.loads(report.stdout):
        found[finding["file"]].append((str(finding["code"]), int(finding["line"]) - 1))
    return found


async def test_the_editor_and_check_find_the_same(client: LanguageClient) -> None:
    files = sorted(p for folder in FOLDERS for p in folder.rglob("*") if p.is_file())
    expected = _by_file(files)
    walked = set(_by_file(list(FOLDERS)))
    assert len(files) > 40
    mismatches = []
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        doc = Doc(client, path.as_uri(), text, language_id=_language_id(path))
        try:
            info = await document_info(client, doc.uri)
            if info["isConfig"]:
                got = [(str(d.code), d.range.start.line) for d in await doc.diagnostics()]
                if sorted(got) != sorted(expected.get(str(path), [])):
                    mismatches.append((path.name, sorted(got), expected.get(str(path))))
            elif str(path) in walked:
                mismatches.append((path.name, "not checked by the server", "walk picks it"))
        finally:
            doc.close()
    assert mismatches == []
    assert sum(map(len, expected.values())) > 20  # the corpus does hold findings
