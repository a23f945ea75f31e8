"""Where an editor shows what the loader makes of a spelling (issue 14): each item of a
dotted list-append `key+: "a,b"` on its own characters, with a fix that keeps the rest; a
YAML syntax error at the quote or bracket left open, not where PyYAML gave up; a second
document at its `---`. Ranges are in the negotiated encoding, with text before them on the
line that is wider in UTF-16 than in code points."""

from __future__ import annotations

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding, offset_at
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _marked(doc: Doc, client: LanguageClient, diagnostic: types.Diagnostic) -> str:
    enc = encoding(client)
    start, end = (
        offset_at(doc.text, diagnostic.range.start, enc),
        offset_at(doc.text, diagnostic.range.end, enc),
    )
    return doc.text[start:end]


async def test_an_appended_item_is_marked_and_fixed(client: LanguageClient) -> None:
    text = (
        "model: m  # 🚀 budgets below\n"
        'compilation-config.encoder_cudagraph_token_budgets+: "512,0,2048"\n'
    )
    doc = Doc(client, "file:///work/loader/append.vllm.yaml", text)
    [diagnostic] = await doc.diagnostics()
    assert diagnostic.code == "VC301" and diagnostic.range.start.line == 1
    assert _marked(doc, client, diagnostic) == "0"
    actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
    [fix] = [a for a in actions if a.title.startswith("Remove the non-positive budget")]
    assert fix.edit is not None
    after = await doc.replace(apply_workspace_edit(doc.text, fix.edit, doc.uri, encoding(client)))
    assert doc.text.splitlines()[1].endswith('+: "512,2048"')
    assert after == []
    doc.close()


async def test_a_yaml_error_is_marked_where_the_construct_opens(client: LanguageClient) -> None:
    text = 'model: m\nserved-model-name: "mödel-🚀\nmax-model-len: 4096\nport: 8000\n'
    doc = Doc(client, "file:///work/loader/quote.vllm.yaml", text)
    [diagnostic] = [d for d in await doc.diagnostics() if d.code == "VC001"]
    assert diagnostic.range.start == types.Position(line=1, character=19)
    assert _marked(doc, client, diagnostic) == '"mödel-🚀'
    assert "(line 5, the end of the file)" in diagnostic.message
    await doc.replace("model: m\nallowed-origins: [🚀, b\nport: 8000\n")
    [diagnostic] = [d for d in await doc.diagnostics() if d.code == "VC001"]
    assert _marked(doc, client, diagnostic) == "[🚀, b"
    doc.close()


async def test_a_second_document_is_marked_at_its_marker(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/loader/docs.vllm.yaml", "model: m\n\n--- # 🚀\nport: 8000\n")
    [diagnostic] = await doc.diagnostics()
    assert diagnostic.code == "VC003"
    assert _marked(doc, client, diagnostic) == "---"
    doc.close()


async def test_an_empty_value_that_is_not_the_default_is_fixed(client: LanguageClient) -> None:
    """`""` becomes None (optional_type), which is not the flag's default 0."""
    text = "model: m\nprefix-cache-retention-interval: ''  # 🚀\nmax-num-seqs: 8\n"
    doc = Doc(client, "file:///work/loader/empty.vllm.yaml", text)
    [diagnostic] = await doc.diagnostics()
    assert diagnostic.code == "VC210"
    assert diagnostic.severity == types.DiagnosticSeverity.Warning
    assert _marked(doc, client, diagnostic) == "''"
    actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
    [fix] = [a for a in actions if a.title.startswith("Remove 'prefix-cache-retention-interval'")]
    assert fix.edit is not None
    after = await doc.replace(apply_workspace_edit(doc.text, fix.edit, doc.uri, encoding(client)))
    assert (doc.text, after) == ("model: m\nmax-num-seqs: 8\n", [])
    doc.close()
