"""Documentation in hover and completion (issue 34, item 8): the first sentence, the type and
default, the choices, then vLLM's other words under "More"; reStructuredText literals
(``x``) as code, each example once (`--max-model-len`'s help and its parse function's
docstring list the same sizes)."""

from __future__ import annotations

import pytest
from lsp_support import Doc, complete_at, editor_of, hover_text
from lsprotocol import types
from pytest_lsp import LanguageClient
from vllm_config_lsp.vllm.catalogue import load_catalogue

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_hover_leads_with_the_first_sentence(client: LanguageClient) -> None:
    text = "model: Qwen/Qwen3-8B\nmax-model-len: 8k\ngpu-memory-utilization: 0.9\ndtype: auto\n"
    doc = Doc(client, "file:///work/hover-layout/serve.vllm.yaml", text)
    await doc.diagnostics()
    hover = await hover_text(client, doc, "max-model-len")
    assert hover is not None
    parts = hover.split("\n\n")
    assert parts[:3] == [
        "**--max-model-len**",
        "Model context length (prompt and output).",
        "Type: `int (accepts 1k, 2M, …, -1 or auto)`",
    ]
    assert parts[3] == "**More**"
    assert hover.count("1K -> 1024") + hover.count("'1K' -> 1,024") == 1  # once
    gpu = await hover_text(client, doc, "gpu-memory-utilization")
    assert gpu is not None and gpu.split("\n\n")[1] == (
        "The fraction of GPU memory to be used for the model executor, which can range from 0 to 1."
    )
    assert gpu.split("\n\n")[2] == "Type: `float · default 0.92`"
    dtype = await hover_text(client, doc, "dtype")
    assert dtype is not None
    head = dtype.split("**More**")[0]
    assert "Choices: `auto`" in head  # before the rest of the help
    doc.close()


async def test_no_restructuredtext_literals_shown_raw(client: LanguageClient) -> None:
    catalogue = load_catalogue("0.33.0")
    flags = [spec for spec in catalogue.flags.values() if "``" in (spec.help or "")]
    assert flags, "no flag with an RST literal left to test"
    name = flags[0].name
    doc = Doc(client, "file:///work/hover-layout/rst.vllm.yaml", f"model: m\n{name}: x\n")
    await doc.diagnostics()
    hover = await hover_text(client, doc, name)
    assert hover is not None and "``" not in hover, hover
    if editor_of(client) == "visual-studio-code":  # completion says the same
        items = await complete_at(client, doc, f"model: m\n{name[:-1]}§\n")
        [item] = [i for i in items if i.label == name]
        doc_text = item.documentation
        assert isinstance(doc_text, types.MarkupContent) and "``" not in doc_text.value
    doc.close()
