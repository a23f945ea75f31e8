"""Out-of-range values (issue 34, item 5): vLLM's words, then the bound in the user's terms
(no internal class name), underlined on the text vLLM receives (inside a quoted value's
quotes), with quick fixes to the nearest valid value and to vLLM's default that keep the
value's quoting and clear the diagnostic."""

from __future__ import annotations

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, deployment, encoding
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

MANIFEST = deployment(
    "vllm/vllm-openai:v0.33.0",
    '["Qwen/Qwen3-8B", "--gpu-memory-utilization", "1.5"]',
)
CONFIG = "model: Qwen/Qwen3-8B\ngpu-memory-utilization: 1.5\n"
JSON = "model: Qwen/Qwen3-8B\ncompilation-config: '{\"decoder_replay_trim_threshold\": -5}'\n"


async def _fixed(client: LanguageClient, doc: Doc) -> dict[str, str]:
    [found] = [d for d in await doc.diagnostics() if d.code == "VC203"]
    actions = await code_actions(client, doc.uri, found.range, [found], only=["quickfix"])
    out = {}
    for action in actions:
        if action.edit is not None and action.title.endswith("(VC203)"):
            out[action.title] = apply_workspace_edit(
                doc.text, action.edit, doc.uri, encoding(client)
            )
    return out


async def test_bound_in_the_users_terms_and_two_fixes(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/range/deploy.yaml", MANIFEST)
    [found] = [d for d in await doc.diagnostics() if d.code == "VC203"]
    assert found.message == (
        "Input should be less than or equal to 1: '--gpu-memory-utilization' must be above 0 "
        "and at most 1, got 1.5"
    )
    assert "CacheConfig" not in found.message
    line = MANIFEST.splitlines()[found.range.start.line]
    assert line[found.range.start.character : found.range.end.character] == "1.5"  # not '"1.5"'
    fixed = await _fixed(client, doc)
    assert set(fixed) == {
        "Set '1', the nearest valid value (VC203)",
        "Set '0.92', vLLM's default (VC203)",
    }
    assert '"--gpu-memory-utilization", "1"]' in fixed["Set '1', the nearest valid value (VC203)"]
    for text in fixed.values():  # each one clears it, the quotes kept
        assert "VC203" not in {str(d.code) for d in await doc.replace(text)}
    doc.close()


async def test_a_config_file_and_a_json_field(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/range/serve.vllm.yaml", CONFIG)
    fixed = await _fixed(client, doc)
    assert fixed["Set '1', the nearest valid value (VC203)"].endswith("gpu-memory-utilization: 1\n")
    assert fixed["Set '0.92', vLLM's default (VC203)"].endswith("gpu-memory-utilization: 0.92\n")
    doc.close()
    doc = Doc(client, "file:///work/range/json.vllm.yaml", JSON)
    [found] = [d for d in await doc.diagnostics() if d.code == "VC203"]
    assert found.message == (
        "Input should be greater than or equal to 0: "
        "'compilation-config.decoder_replay_trim_threshold' must be at least 0, got -5"
    )
    fixed = await _fixed(client, doc)
    assert fixed["Set '0', the nearest valid value (VC203)"].endswith(
        "'{\"decoder_replay_trim_threshold\": 0}'\n"
    )
    assert fixed["Set '768', vLLM's default (VC203)"].endswith(
        "'{\"decoder_replay_trim_threshold\": 768}'\n"
    )
    doc.close()
