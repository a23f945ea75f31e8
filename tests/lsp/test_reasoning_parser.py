"""`--enable-reasoning` is gone (vLLM 0.10): where the model is known, the refusal names the
`--reasoning-parser` of its family and a quick fix puts it in the flag's place (issue 34,
item 9), on a shell script and in a Deployment's `args:`."""

from __future__ import annotations

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, deployment, encoding
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

SCRIPT = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B \\\n  --max-num-seqs 8 \\\n  --enable-reasoning\n"
#: A block list (a flow list `[…]` gets the parser named, and only the removal).
POD = deployment(
    "vllm/vllm-openai:v0.33.0",
    "\n            - deepseek-ai/DeepSeek-R1\n            - --enable-reasoning",
)


@pytest.mark.parametrize(
    ("name", "language", "text", "parser", "after"),
    [
        ("serve.sh", "shellscript", SCRIPT, "qwen3", "--max-num-seqs 8 --reasoning-parser qwen3"),
        (
            "deploy.yaml",
            "yaml",
            POD,
            "deepseek_r1",
            "- deepseek-ai/DeepSeek-R1\n"
            "            - --reasoning-parser\n            - deepseek_r1",
        ),
    ],
)
async def test_the_family_parser_replaces_enable_reasoning(
    client: LanguageClient, name: str, language: str, text: str, parser: str, after: str
) -> None:
    doc = Doc(client, f"file:///work/reasoning/{name}", text, language_id=language)
    [found] = [d for d in await doc.diagnostics() if d.code == "VC101"]
    assert found.message.endswith(f": '--reasoning-parser {parser}'"), found.message
    actions = await code_actions(client, doc.uri, found.range, [found], only=["quickfix"])
    [fix] = [a for a in actions if a.title == f"Replace with '--reasoning-parser {parser}' (VC101)"]
    assert fix.is_preferred and fix.edit is not None
    fixed = apply_workspace_edit(text, fix.edit, doc.uri, encoding(client))
    assert "--enable-reasoning" not in fixed
    assert after in " ".join(fixed.replace("\\\n", " ").split()) or after in fixed, fixed
    assert not await doc.replace(fixed)  # nothing left to say
    doc.close()


async def test_in_a_config_file(client: LanguageClient) -> None:
    text = "model: Qwen/QwQ-32B\nenable-reasoning: true\nmax-num-seqs: 8\n"
    doc = Doc(client, "file:///work/reasoning/serve.vllm.yaml", text)
    [found] = [d for d in await doc.diagnostics() if d.code == "VC101"]
    assert found.message.endswith("; for Qwen/QwQ-32B: 'reasoning-parser: deepseek_r1'")
    actions = await code_actions(client, doc.uri, found.range, [found], only=["quickfix"])
    [fix] = [a for a in actions if a.title.startswith("Replace with 'reasoning-parser: ")]
    assert fix.edit is not None
    fixed = apply_workspace_edit(text, fix.edit, doc.uri, encoding(client))
    assert fixed == "model: Qwen/QwQ-32B\nreasoning-parser: deepseek_r1\nmax-num-seqs: 8\n"
    assert not await doc.replace(fixed)
    doc.close()


async def test_an_unknown_family_gets_no_guess(client: LanguageClient) -> None:
    text = "#!/bin/sh\nvllm serve my-org/my-model --enable-reasoning\n"
    doc = Doc(client, "file:///work/reasoning/other.sh", text, language_id="shellscript")
    [found] = [d for d in await doc.diagnostics() if d.code == "VC101"]
    assert "--reasoning-parser " not in found.message.split("; delete it")[-1]
    doc.close()
