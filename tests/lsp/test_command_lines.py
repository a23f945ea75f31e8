"""Command lines in any host, over a real LSP session: diagnostics on the exact word (inside
quotes, inside a JSON value, on a continuation line), a quick fix applied in the host's own
syntax, and hover on flags and on values that come from variables."""

from __future__ import annotations

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding, hover_text
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = (
    "#!/bin/bash\n"
    "# vLLM behind nohup, with a JSON value and a variable\n"
    "nohup vllm serve Qwen/Qwen3-8B \\\n"
    "  --swap-space 16 \\\n"
    "  --tensor-parallel-size $TP \\\n"
    "  --compilation-config '{\"encoder_cudagraph_token_budgets\": [0, 2048]}' \\\n"
    "  --port 8000 > server.log 2>&1 &\n"
    'echo "vllm serve --not-a-flag"\n'
)
MARKDOWN = (
    "# Serving\n\nRun `vllm serve --not-checked` or:\n\n"
    "```bash\n$ vllm serve Qwen/Qwen3-8B --max-num-seqs many\n```\n"
)
DOCKERFILE = 'FROM vllm/vllm-openai:{tag}\nCMD ["--model", "m", "--swap-space", "4"]\n'


def _text_of(doc: Doc, diagnostic: types.Diagnostic, enc: str) -> str:
    """The characters under a one-line range (these documents are ASCII: every encoding
    counts characters)."""
    start, end = diagnostic.range.start, diagnostic.range.end
    assert start.line == end.line and doc.text.isascii(), enc
    return doc.text.split("\n")[start.line][start.character : end.character]


async def test_shell_script_diagnostics_fix_and_hover(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cl/serve.sh", SCRIPT)
    diagnostics = await doc.diagnostics()
    by_code = {d.code: d for d in diagnostics}
    assert set(by_code) == {"VC101", "VC301"}, [(d.code, d.message) for d in diagnostics]
    enc = encoding(client)
    assert _text_of(doc, by_code["VC101"], enc) == "--swap-space"
    assert by_code["VC101"].range.start.line == 3
    assert _text_of(doc, by_code["VC301"], enc) == "0"  # inside the single-quoted JSON
    # the preferred fix keeps the other budget, the quotes and the continuation
    budget = by_code["VC301"]
    actions = await code_actions(client, doc.uri, budget.range, [budget])
    [preferred] = [a for a in actions if a.is_preferred]
    assert preferred.edit is not None
    fixed = apply_workspace_edit(doc.text, preferred.edit, doc.uri, enc)
    assert "'{\"encoder_cudagraph_token_budgets\": [2048]}' \\\n" in fixed
    after = await doc.replace(fixed)
    assert [d.code for d in after] == ["VC101"]
    # removing the unknown flag takes its value and its continuation line
    [removal] = [
        a
        for a in await code_actions(client, doc.uri, after[0].range, after)
        if a.title.startswith("Remove")
    ]
    assert removal.edit is not None
    cleaned = apply_workspace_edit(fixed, removal.edit, doc.uri, enc)
    assert "--swap-space" not in cleaned and "Qwen/Qwen3-8B \\\n  --tensor-parallel" in cleaned
    assert await doc.replace(cleaned) == []
    # hover: the flag's documentation; the variable says where the value comes from
    flag = await hover_text(client, doc, "--tensor-parallel-size")
    assert flag is not None and "tensor" in flag.lower()
    variable = await hover_text(client, doc, "$TP")
    assert variable is not None and "value comes from `$TP`" in variable
    doc.close()


async def test_markdown_fences_only(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cl/README.md", MARKDOWN)
    [diagnostic] = await doc.diagnostics()
    assert diagnostic.code == "VC201"
    assert _text_of(doc, diagnostic, encoding(client)) == "many"
    assert diagnostic.range.start.line == 5
    doc.close()


async def test_dockerfile_checked_against_its_image_release(client: LanguageClient) -> None:
    # `--swap-space` exists in 0.10.2 and is gone in 0.33: the image's tag decides
    doc = Doc(client, "file:///work/cl/Dockerfile", DOCKERFILE.format(tag="v0.10.2"))
    [note] = await doc.diagnostics()
    assert note.code == "VC120" and note.severity == types.DiagnosticSeverity.Information
    # a `#` after an instruction is no Dockerfile comment: no "disable for this line"
    assert isinstance(note.data, dict) and note.data.get("disable") is None
    [diagnostic] = await doc.replace(DOCKERFILE.format(tag="v0.33.0"))
    assert diagnostic.code == "VC101"
    assert _text_of(doc, diagnostic, encoding(client)) == "--swap-space"
    doc.close()
