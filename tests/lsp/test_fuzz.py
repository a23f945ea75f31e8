"""Server-side fuzzing: random edit sequences sent as incremental changes (ranges in UTF-16
units, several per notification) must leave the server in exactly the state a full-text
change gives: the same diagnostics, every range inside the document, no crash.

One server for the module (a raw stdio client: hypothesis runs many examples without an
event loop each). `HYPOTHESIS_PROFILE=long` runs more examples.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsp_support import position_of
from raw_client import RawClient

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
BASES = [
    p.read_text()
    for p in sorted((CORPUS / "real").glob("*.yaml"))[:30]
    + sorted(CORPUS.glob("rejected/*.yaml"))[:10]
]
#: Pasted text: YAML/JSON punctuation, CRLF, astral characters (two UTF-16 units), CJK.
PASTE = st.one_of(
    st.text(alphabet=st.sampled_from(list("{}[]:,-'\"# \n\t\\x0é🚀模")), max_size=8),
    st.sampled_from(['"mode": 3, ', "\r\n", "\n# c\n", "max-num-seqs: x\n", "🚀🚀", '{"a": [']),
)
URIS = itertools.count()
EXAMPLES = max(20, settings.default.max_examples // 3)


@pytest.fixture(scope="module")
def server() -> Iterator[RawClient]:
    # the user's own glob: every edited text stays a config, even one whose top level an
    # edit made a list (no config by content, issue 27), so each version is published
    options = {"vllmConfig": {"debounceMs": 0, "associations": {"globs": ["/fuzz/**"]}}}
    client = RawClient(options=options)
    yield client
    client.close()


@st.composite
def edit_script(draw: st.DrawFn) -> tuple[str, list[list[tuple[int, int, str]]]]:
    """A base text and notifications, each a list of (start, end, new text) in code points of
    the text as it is when that change applies (positions near `"`, `#`, `{` preferred)."""
    base = draw(st.sampled_from(BASES))
    text = base
    notifications = []
    for _ in range(draw(st.integers(1, 4))):
        changes = []
        for _ in range(draw(st.integers(1, 3))):
            hot = [i for i, ch in enumerate(text) if ch in '"#{:']
            if hot and draw(st.booleans()):
                start = min(len(text), draw(st.sampled_from(hot)) + draw(st.integers(0, 2)))
            else:
                start = draw(st.integers(0, len(text)))
            end = min(len(text), start + draw(st.integers(0, 12)))
            if text[start - 1 : start + 1] == "\r\n" or text[end - 1 : end + 1] == "\r\n":
                end = start = max(0, start - 1)  # never split a CRLF (one LSP line break)
            new = draw(PASTE)
            changes.append((start, end, new))
            text = text[:start] + new + text[end:]
        notifications.append(changes)
    return base, notifications


def _position(text: str, offset: int) -> dict[str, int]:
    position = position_of(text, offset, "utf-16")
    return {"line": position.line, "character": position.character}


def _inside(text: str, diagnostic: dict[str, object]) -> bool:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for where in ("start", "end"):
        position = diagnostic["range"][where]  # type: ignore[index]
        line, character = position["line"], position["character"]
        if line >= len(lines) or character > len(lines[line].encode("utf-16-le")) // 2:
            return False
    return True


@settings(max_examples=EXAMPLES)
@given(edit_script())
def test_incremental_sync_equals_full_sync(
    server: RawClient, script: tuple[str, list[list[tuple[int, int, str]]]]
) -> None:
    base, notifications = script
    number = next(URIS)
    incremental = f"file:///fuzz/inc-{number}.vllm.yaml"
    full = f"file:///fuzz/full-{number}.vllm.yaml"
    server.open(incremental, base)
    server.open(full, base)
    text = base
    version = 1
    for changes in notifications:
        version += 1
        events = []
        for start, end, new in changes:
            events.append(
                {
                    "range": {
                        "start": _position(text, start),
                        "end": _position(text, end),
                    },
                    "text": new,
                }
            )
            text = text[:start] + new + text[end:]
        server.change(incremental, version, events)
        server.change(full, version, [{"text": text}])
    got = server.diagnostics(incremental, version)
    expected = server.diagnostics(full, version)
    assert got == expected
    assert all(_inside(text, d) for d in got), got
    for uri in (incremental, full):
        server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
