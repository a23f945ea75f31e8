"""A manifest a shell script writes in a here-document, in an LSP session (issue 28 item
5): the diagnostic lands on the flag inside the here-document, its quick fix edits it
there, and hover on a flag there documents vLLM's flag. The script is tchangkiat/
aws-cdk-stacks `archive/vllm-cpu/install-vllm-meta-llama.sh` (tests/sources/data/heredoc/
SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding, hover_text
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = (
    Path(__file__).resolve().parents[1]
    / "sources"
    / "data"
    / "heredoc"
    / "tchangkiat__aws-cdk-stacks__archive__vllm-cpu__install-vllm-meta-llama.sh"
)


async def test_heredoc_manifest_diagnostic_fix_and_hover(client: LanguageClient) -> None:
    text = SCRIPT.read_text(encoding="utf-8").replace("--max_model_len", "--max_modl_len")
    doc = Doc(client, "file:///work/heredoc/install.sh", text, language_id="shellscript")
    diagnostics = [d for d in await doc.diagnostics() if d.code == "VC101"]
    (typo,) = diagnostics
    line = text.splitlines()[typo.range.start.line]
    assert typo.range.start.line == 35
    assert line[typo.range.start.character : typo.range.end.character] == "--max_modl_len"
    actions = await code_actions(client, doc.uri, typo.range, [typo], only=["quickfix"])
    rename = next(a for a in actions if a.title.startswith("Rename"))
    assert rename.edit is not None
    fixed = apply_workspace_edit(text, rename.edit, doc.uri, encoding(client))
    assert '--max-model-len 2048"' in fixed
    assert not [d for d in await doc.replace(fixed) if d.code == "VC101"]
    hover = await hover_text(client, doc, "--max_num_batched_tokens", 3)
    assert hover is not None and "max-num-batched-tokens" in hover
    doc.close()
