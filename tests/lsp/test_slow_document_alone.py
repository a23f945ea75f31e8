"""One slow document never holds the others back (issue 30). The server checked every
document on one lint thread: while a file with tens of thousands of unknown keys was
checked (100,000 in a Triton `model.json`: over two minutes), every other document's
diagnostics, and every hover and completion, waited behind it; each keystroke in the slow
file queued one more check of it. Now checks run on a small pool, one at a time per
document: a small document's diagnostics, a hover and a completion are answered while the
slow one is still being checked, and a burst of changes to the slow document is checked
once more, for its last version, not once per change.

Only the order of what the server sends is asserted, never a duration: the slow file's
check takes seconds, the small file's milliseconds. The server runs in a real session
(stdio) with bounded address space."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from raw_client import RawClient

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS")

KEYS = 30_000
SLOW = "file:///slow/serve.vllm.yaml"
SMALL = "file:///slow/small.vllm.yaml"
SLOW_TEXT = "model: m\ncompilation-config: '{" + ", ".join(f'"k{n}": 1' for n in range(KEYS))
SLOW_TEXT += "}'\n"
SMALL_TEXT = "model: m\nmax-num-seqs: x\n"
#: The slow document's checks: seconds each on an idle machine, far more on a loaded one.
SLOW_TIMEOUT = 300.0


@pytest.fixture
def server() -> Iterator[RawClient]:
    client = RawClient(memory=2 << 30)
    yield client
    client.close()


def _published(server: RawClient, uri: str) -> list[int]:
    return [params["version"] for params in server.published.get(uri, [])]


def test_a_small_document_is_answered_while_a_slow_one_is_checked(server: RawClient) -> None:
    server.open(SLOW, SLOW_TEXT)
    server.open(SMALL, SMALL_TEXT)
    assert [d["code"] for d in server.diagnostics(SMALL, 1)] == ["VC201"]
    hover = server.request(
        "textDocument/hover",
        {"textDocument": {"uri": SMALL}, "position": {"line": 1, "character": 2}},
    )
    assert hover is not None and "max-num-seqs" in str(hover)
    completion = server.request(
        "textDocument/completion",
        {"textDocument": {"uri": SMALL}, "position": {"line": 1, "character": 3}},
    )
    assert completion
    assert _published(server, SLOW) == []  # all of the above came first
    # a change to the small document is checked too (the slow one may be done by now)
    server.change(SMALL, 2, [{"text": "model: m\nmax-num-seqs: 2\n"}])
    assert server.diagnostics(SMALL, 2) == []
    slow = server.diagnostics(SLOW, 1, SLOW_TIMEOUT)
    assert len(slow) == KEYS and {d["code"] for d in slow} == {"VC204"}


def test_a_burst_of_changes_to_a_slow_document_is_checked_once_more(server: RawClient) -> None:
    """Ten changes while the first version is checked: the first version's result is
    dropped, the last one is checked, nothing in between is published; the small
    document opened after the burst is answered before it."""
    server.open(SLOW, SLOW_TEXT)
    for version in range(2, 12):
        server.change(SLOW, version, [{"text": f"{SLOW_TEXT}# version {version}\n"}])
    server.open(SMALL, SMALL_TEXT)
    assert [d["code"] for d in server.diagnostics(SMALL, 1)] == ["VC201"]
    assert _published(server, SLOW) == []
    assert len(server.diagnostics(SLOW, 11, SLOW_TIMEOUT)) == KEYS
    assert _published(server, SLOW) == [11]


#: A shell script of 1.1 MB: 26,000 exports, a command line after every 50 (about 520):
#: seconds of CPU to check on an idle machine, far more on a loaded one.
SCRIPT = "file:///slow/serve.sh"
SCRIPT_TEXT = "#!/bin/bash\n" + "".join(
    f"echo step {n}; export V{n}=value{n}\n"
    + (f"vllm serve m --max-num-seqs {n + 1}\n" if n % 50 == 0 else "")
    for n in range(26_000)
)


def test_a_small_config_is_answered_while_a_huge_script_is_checked(server: RawClient) -> None:
    """The script is opened first; the small `--config` file opened after it gets its
    diagnostics before the script's are published."""
    server.open(SCRIPT, SCRIPT_TEXT)
    server.open(SMALL, SMALL_TEXT)
    assert [d["code"] for d in server.diagnostics(SMALL, 1)] == ["VC201"]
    assert _published(server, SCRIPT) == []
    assert server.diagnostics(SCRIPT, 1, SLOW_TIMEOUT) == []
