"""A world larger than the GPUs the host gives (issue 34, item 9): vLLM's three-line advice
keeps its line breaks, and besides a lower tensor-parallel size the quick fixes ask the host
for the world's GPUs where it sets them (a pod's `nvidia.com/gpu`, a compose device `count`);
each fix applied clears the error."""

from __future__ import annotations

import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, deployment, encoding
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

ARGS = '["Qwen/Qwen3-8B", "--tensor-parallel-size", "4"]'
POD = deployment("vllm/vllm-openai:v0.33.0", ARGS) + (
    "          resources:\n            limits:\n              nvidia.com/gpu: 2\n"
)
COMPOSE = (
    "services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n"
    f"    command: {ARGS}\n"
    "    deploy:\n      resources:\n        reservations:\n          devices:\n"
    "            - driver: nvidia\n              count: 2\n              capabilities: [gpu]\n"
)


@pytest.mark.parametrize(
    ("name", "text", "asked"),
    [
        ("deploy.yaml", POD, "nvidia.com/gpu: 4\n"),
        ("compose.yaml", COMPOSE, "count: 4\n"),
    ],
)
async def test_more_gpus_where_the_host_sets_them(
    client: LanguageClient, name: str, text: str, asked: str
) -> None:
    doc = Doc(client, f"file:///work/world-size/{name}", text)
    [found] = [d for d in await doc.diagnostics() if d.code == "VC703"]
    assert found.message.splitlines()[1:3] == [
        "- ray, set '--distributed-executor-backend ray'.",
        "- multiprocessing, set '--nnodes' appropriately.",
    ]
    actions = await code_actions(client, doc.uri, found.range, [found], only=["quickfix"])
    titles = [a.title for a in actions if a.edit is not None and a.title.endswith("(VC703)")]
    assert len(titles) == 2 and titles[1].startswith("Request 4 GPUs ("), titles
    for action in actions:
        if action.edit is None or not action.title.endswith("(VC703)"):
            continue
        fixed = apply_workspace_edit(text, action.edit, doc.uri, encoding(client))
        if action.title.startswith("Request"):
            assert asked in fixed and '"--tensor-parallel-size", "4"' in fixed
        assert "VC703" not in {str(d.code) for d in await doc.replace(fixed)}
        await doc.replace(text)
    doc.close()
