"""The server's memory does not grow with the number of edits to a document (issue 30).

The shell reader remembers the chunks of a script it read, keyed by their text; every
keystroke makes a new text, and memos bounded only by their number of entries held every
version: a script with one 150 KB command line grew the server by about 7 MB per edit.
After the memos have filled (their budget, `document.text_memo`), more edits cost nothing.
"""

from __future__ import annotations

from raw_client import RawClient, rss_kb

#: One command line of 20,000 words (about 150 KB): all of them are read into words with
#: per-character offsets, none gets a finding (what costs memory is the reading).
NAMES = " ".join(f"name-{i}" for i in range(20_000))
TEXT = "#!/bin/bash\nvllm serve m --served-model-name " + NAMES + " --max-num-seqs 8\n"
URI = "file:///memory/serve.sh"
#: Edits before measuring (the memos fill up, about 16 versions of this script), then edits
#: measured: before the bound 40 of them cost 1 GB.
WARM, MEASURED = 20, 80
MOST_GROWTH_KB = 60 * 1024


def _edit(client: RawClient, version: int) -> None:
    text = TEXT.replace("name-10000 ", f"name-10000-{version} ")
    client.change(URI, version, [{"text": text}])
    assert client.diagnostics(URI, version) == []


def test_edits_to_a_long_command_line_do_not_grow_the_server() -> None:
    client = RawClient()
    try:
        client.open(URI, TEXT)
        assert client.diagnostics(URI, 1) == []
        for version in range(2, 2 + WARM):
            _edit(client, version)
        before = rss_kb(client.process.pid)
        for version in range(2 + WARM, 2 + WARM + MEASURED):
            _edit(client, version)
        grown = rss_kb(client.process.pid) - before
        assert grown < MOST_GROWTH_KB, f"+{grown} KB over {MEASURED} edits"
    finally:
        client.close()
