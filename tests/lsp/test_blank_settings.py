"""A blank entry in `disabledCodes` or `severityOverrides` is a prefix of every code: it
silently disabled every rule. It is dropped, and said where setting problems are said."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from lsp_support import CONFIG, EDITORS, Doc, start_session
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

BLANK = {
    "vllmConfig": {
        "debounceMs": 0,
        "disabledCodes": ["", " "],
        "severityOverrides": {"": "off", "VC110": "off"},
    }
}


@pytest_lsp.fixture(config=CONFIG, scope="module")  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await start_session(lsp_client, EDITORS[0], BLANK)
    yield
    await lsp_client.shutdown_session()


async def test_blank_codes_disable_nothing_and_are_reported(client: LanguageClient) -> None:
    doc = Doc(
        client,
        "file:///work/s/a.vllm.yaml",
        "model: Qwen/Qwen3-8B\nswap-space: 16\nmax-num-seqs: x\n",
    )
    codes = {str(d.code) for d in await doc.diagnostics()}
    assert {"VC101", "VC201"} <= codes
    said = " ".join(m.message for m in client.log_messages + client.messages)
    assert "disabledCodes: a blank code names no rule" in said
    assert "severityOverrides: a blank code names no rule" in said
