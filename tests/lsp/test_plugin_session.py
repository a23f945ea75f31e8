"""A platform plugin in an editor session (issue 32): the marker comment names vllm-ascend,
the plugin's quantization method is no error, and a hover says which plugin and why."""

from __future__ import annotations

import pytest
from lsp_support import Doc, hover_text
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

MARKED = "# vllm-config: plugin=vllm-ascend@0.23.0\nmodel: Qwen/Qwen3-8B\nquantization: ascend\n"


async def test_the_marker_brings_the_plugins_names(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/t/ascend.vllm.yaml", MARKED)
    assert "VC303" not in {str(d.code) for d in await doc.diagnostics()}
    said = await hover_text(client, doc, "quantization")
    assert said is not None
    assert "plugin vllm-ascend 0.23.0, from the `# vllm-config: plugin=` comment" in said
    await doc.replace(MARKED.replace("plugin=vllm-ascend@0.23.0", "plugin=none"))
    assert "VC303" in {str(d.code) for d in await doc.diagnostics()}
