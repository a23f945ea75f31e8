"""No traceback on any input in the editor, and quick fixes never damage a file (issue 30):
mutants of every real file of the corpus (tests/mutants.py, one per seed) opened in one
real language server session (stdio, 2 GB of address space).

For each: it is checked (`vllmConfig/documentInfo` answers) and no diagnostic is an
"internal error" (VC000 from a reader's or a rule's crash); hover and completion at a few
places answer without an error; every code action offered for its diagnostics is applied
as the editor would, and a file that parsed before (YAML, JSON, Python, `bash -n`) still
parses after each. The server logs no traceback and is still alive at the end."""

from __future__ import annotations

import random
import sys
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any

import pytest
from mutants import mutants, parses
from raw_client import RawClient

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS")

#: Seconds a mutant's check may take on a loaded machine (a few hundred ms alone).
DIAGNOSTICS_TIMEOUT = 120.0


@pytest.fixture(scope="module")
def server() -> Iterator[RawClient]:
    client = RawClient(memory=2 << 30)
    yield client
    client.close()


def _offset(text: str, line: int, character: int) -> int:
    """The offset of an LSP position (UTF-16 columns)."""
    starts = [0]
    for at, char in enumerate(text):
        if char == "\n":
            starts.append(at + 1)
    if line >= len(starts):
        return len(text)
    at = starts[line]
    units = 0
    while at < len(text) and text[at] != "\n" and units < character:
        units += 2 if ord(text[at]) > 0xFFFF else 1
        at += 1
    return at


def _position(text: str, offset: int) -> dict[str, int]:
    line = text.count("\n", 0, offset)
    start = text.rfind("\n", 0, offset) + 1
    column = sum(2 if ord(char) > 0xFFFF else 1 for char in text[start:offset])
    return {"line": line, "character": column}


def _applied(text: str, edits: list[dict[str, Any]]) -> str:
    spans = []
    for edit in edits:
        start, end = edit["range"]["start"], edit["range"]["end"]
        spans.append(
            (
                _offset(text, start["line"], start["character"]),
                _offset(text, end["line"], end["character"]),
                edit["newText"],
            )
        )
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _crashes(diagnostics: list[dict[str, Any]]) -> list[str]:
    return [
        d["message"]
        for d in diagnostics
        if d.get("code") == "VC000" and "internal error" in d["message"]
    ]


def test_mutants_in_an_editor_session(server: RawClient) -> None:
    texts = mutants(1)
    damaged, crashed, errors, applied = [], [], [], 0
    for name, text in sorted(texts.items()):
        if PurePosixPath(name).name == "Chart.yaml":
            continue
        uri = f"file:///fuzz/{name}"
        server.open(uri, text)
        # answered once the document is checked (a document that is no vLLM config gets
        # no diagnostics at all)
        info = server.answer(
            server.send_request("vllmConfig/documentInfo", {"textDocument": {"uri": uri}}),
            DIAGNOSTICS_TIMEOUT,
        )
        if "error" in info:
            errors.append(f"{name} documentInfo: {info['error']}")
        diagnostics = server.diagnostics(uri, 1) if uri in server.published else []
        crashed.extend(f"{name}: {message}" for message in _crashes(diagnostics))
        rng = random.Random(name)
        for _ in range(2):
            at = _position(text, rng.randint(0, len(text)))
            for method in ("textDocument/hover", "textDocument/completion"):
                answer = server.answer(
                    server.send_request(method, {"textDocument": {"uri": uri}, "position": at})
                )
                if "error" in answer:
                    errors.append(f"{name} {method} {at}: {answer['error']}")
        if diagnostics:
            applied += _apply_each(server, name, uri, text, diagnostics, damaged, errors)
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    assert crashed == []
    assert errors == []
    assert damaged == []
    assert applied > 20  # the fixes were offered and applied
    assert not [log for log in server.logs if "Traceback" in log]
    assert server.process.poll() is None


def _apply_each(
    server: RawClient,
    name: str,
    uri: str,
    text: str,
    diagnostics: list[dict[str, Any]],
    damaged: list[str],
    errors: list[str],
) -> int:
    """Applies each code action offered for the diagnostics; how many had edits."""
    applied = 0
    whole = {"start": {"line": 0, "character": 0}, "end": _position(text, len(text))}
    answer = server.answer(
        server.send_request(
            "textDocument/codeAction",
            {
                "textDocument": {"uri": uri},
                "range": whole,
                "context": {"diagnostics": diagnostics},
            },
        )
    )
    if "error" in answer:
        errors.append(f"{name} codeAction: {answer['error']}")
        return 0
    before = parses(PurePosixPath(name), text)
    for action in answer.get("result") or []:
        edits = ((action.get("edit") or {}).get("changes") or {}).get(uri)
        if not edits:
            continue
        applied += 1
        after = _applied(text, edits)
        if before and not parses(PurePosixPath(name), after):
            damaged.append(f"{name}: {action['title']}")
    return applied
