"""What the memos keep of a document edited 100 times is its latest version's (issue 30).

A script with one command line of 2,000 flags gets 1,999 findings per version; its reading
(words with an offset per character) and its findings weigh about 7 MB a version, and
memos bounded only by size held dozens of versions of it (the 5,000-flag line of
benchmarks/hardening.md grew the server by 290 MB over its first 20 edits). The language
server marks what each check uses as that document version's (`text_memo.STORE`) and drops
what only earlier versions used, so after the first edits the server does not grow.
One real session (pytest-lsp, VS Code's capabilities), its server's resident memory read
from /proc after 10 and after 100 edits.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from lsp_support import (
    CONFIG,
    INITIALIZATION_OPTIONS,
    change_doc,
    close_doc,
    diagnostics_for,
    open_doc,
    start_session,
)
from pytest_lsp import LanguageClient
from raw_client import rss_kb

pytestmark = [
    pytest.mark.asyncio(loop_scope="module"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc"),
]

FLAGS = 2000
TEXT = "#!/bin/bash\nvllm serve m " + " ".join(f"--served-model-name n{n}" for n in range(FLAGS))
URI = "file:///memory/findings/serve.sh"
EDITS = 100
#: What the server may grow between the 10th and the 100th edit: a few versions' worth
#: (the garbage collector's and the allocator's slack), not 90 versions' (600 MB).
MOST_GROWTH_KB = 40 * 1024
#: A check of 2,000 flags on a loaded machine takes seconds; 60 s means it hung.
CHECK_TIMEOUT = 60.0


@pytest_lsp.fixture(config=CONFIG, scope="module")  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await start_session(lsp_client, "visual-studio-code", INITIALIZATION_OPTIONS)
    yield
    await lsp_client.shutdown_session()


def _server_rss_kb(client: LanguageClient) -> int:
    server = client._server  # the subprocess pytest-lsp started
    assert server is not None
    return rss_kb(server.pid)


async def test_100_edits_with_thousands_of_findings_do_not_grow_the_server(
    client: LanguageClient,
) -> None:
    open_doc(client, URI, TEXT, language_id="shellscript")
    assert len(await diagnostics_for(client, URI, 1, CHECK_TIMEOUT)) == FLAGS - 1
    after_10 = 0
    for version in range(2, EDITS + 2):
        change_doc(client, URI, version, TEXT.replace("n1000 ", f"n1000-{version} ", 1))
        assert len(await diagnostics_for(client, URI, version, CHECK_TIMEOUT)) == FLAGS - 1
        if version == 11:
            after_10 = _server_rss_kb(client)
    grown = _server_rss_kb(client) - after_10
    close_doc(client, URI)
    assert grown < MOST_GROWTH_KB, f"+{grown} KB from the 10th to the {EDITS}th edit"
