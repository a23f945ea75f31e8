"""A manifest a shell script writes in a here-document, in an LSP session (issue 28 item
5): the diagnostic lands on the flag inside the here-document, its quick fix edits it
there, and hover on a flag there documents vLLM's flag. The script is tchangkiat/
aws-cdk-stacks `archive/vllm-cpu/install-vllm-meta-llama.sh` (tests/sources/data/heredoc/
SOURCES.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import (
    Doc,
    apply_workspace_edit,
    code_actions,
    complete_at,
    encoding,
    hover_text,
)
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

DATA = Path(__file__).resolve().parents[1] / "sources" / "data"
SCRIPT = (
    DATA / "heredoc" / "tchangkiat__aws-cdk-stacks__archive__vllm-cpu__install-vllm-meta-llama.sh"
)


async def _renamed(client: LanguageClient, doc: Doc, line: int) -> str:
    """The text once the one VC101 (on `line`) is fixed by its rename, checked clean."""
    (typo,) = [d for d in await doc.diagnostics() if d.code == "VC101"]
    assert typo.range.start.line == line
    written = doc.text.splitlines()[line][typo.range.start.character : typo.range.end.character]
    assert written == "--max_modl_len"
    actions = await code_actions(client, doc.uri, typo.range, [typo], only=["quickfix"])
    rename = next(a for a in actions if a.title.startswith("Rename"))
    assert rename.edit is not None
    fixed = apply_workspace_edit(doc.text, rename.edit, doc.uri, encoding(client))
    assert not [d for d in await doc.replace(fixed) if d.code == "VC101"]
    return fixed


async def test_heredoc_manifest_diagnostic_fix_and_hover(client: LanguageClient) -> None:
    text = SCRIPT.read_text(encoding="utf-8").replace("--max_model_len", "--max_modl_len")
    doc = Doc(client, "file:///work/heredoc/install.sh", text, language_id="shellscript")
    assert '--max-model-len 2048"' in await _renamed(client, doc, 35)
    hover = await hover_text(client, doc, "--max_num_batched_tokens", 3)
    assert hover is not None and "max-num-batched-tokens" in hover
    doc.close()


K8S_DOC = DATA / "markdown" / "vllm-project__vllm__docs__deployment__k8s.md"
SERVE = '"vllm serve meta-llama/Llama-3.2-1B-Instruct"'


async def test_heredoc_manifest_in_a_markdown_block(client: LanguageClient) -> None:
    """vLLM's own `docs/deployment/k8s.md`: the manifest a ```` ```bash ```` block pipes to
    `kubectl apply` gets the diagnostic, the fix, hover and completion where it is written."""
    typo = SERVE[:-1] + ' --max_modl_len 2048"'
    text = K8S_DOC.read_text(encoding="utf-8").replace(SERVE, typo)
    doc = Doc(client, "file:///work/heredoc/k8s.md", text, language_id="markdown")
    fixed = await _renamed(client, doc, 80)
    assert '--max-model-len 2048"' in fixed
    hover = await hover_text(client, doc, "--max-model-len", 3)
    assert hover is not None and "max-model-len" in hover
    typing = fixed.replace("--max-model-len 2048", "--max-model-len 2048 --enable-pre§")
    labels = [item.label for item in await complete_at(client, doc, typing)]
    assert "--enable-prefix-caching" in labels
    doc.close()
