"""An editor session on Python engine arguments (issue 28 item 7): `LLM(...)` keywords get
their diagnostics where they are written, and applying a fix leaves valid Python."""

from __future__ import annotations

import ast

import lsp_support
import pytest
from lsp_support import Doc, apply_workspace_edit, code_actions, encoding, hover_text
from lsprotocol import types
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")

OFFLINE = """\
import modal
from vllm import LLM

app = modal.App("offline")


@app.function(gpu="T4")
def run(prompts):
    llm = LLM(
        "Qwen/Qwen2.5-1.5B-Instruct",
        dtype="bfloat16",  # T4: no bf16
        max_modle_len=4096,
    )
    return llm.generate(prompts)
"""


def _generic(action: types.CodeAction) -> bool:
    """The actions every diagnostic gets besides its own fixes."""
    return action.title.startswith(("Disable ", "Show documentation", "Fix all"))


def _line(text: str, needle: str) -> int:
    return text[: text.index(needle)].count("\n")


async def test_llm_keywords_get_diagnostics_and_fixes_keep_python(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/p/offline.py", OFFLINE, language_id="python")
    try:
        found = {str(d.code): d for d in await doc.diagnostics()}
        assert {"VC101", "VC701"} <= set(found)
        typo = found["VC101"]
        assert typo.range.start.line == _line(OFFLINE, "max_modle_len")
        assert typo.message.startswith(
            "EngineArgs.__init__() got an unexpected keyword argument 'max_modle_len'"
        )
        assert found["VC701"].range.start.line == _line(OFFLINE, 'dtype="bfloat16"')
        hover = await hover_text(client, doc, "dtype=", 1)
        assert hover is not None and hover.startswith("**--dtype**")  # the field's flag
        text = OFFLINE
        for code, expected in (("VC101", "max_model_len=4096"), ("VC701", 'dtype="half"')):
            diagnostic = next(d for d in await doc.diagnostics() if str(d.code) == code)
            actions = await code_actions(client, doc.uri, diagnostic.range, [diagnostic])
            [fix] = [a for a in actions if a.kind == "quickfix" and not _generic(a)][:1]
            assert fix.edit is not None
            text = apply_workspace_edit(text, fix.edit, doc.uri, encoding(client))
            ast.parse(text)  # still Python
            assert expected in text
            after = await doc.replace(text)
            assert code not in {str(d.code) for d in after}
    finally:
        doc.close()


async def test_keywords_complete_inside_the_call_being_typed(client: LanguageClient) -> None:
    """`LLM(model="m", max_model_l|)` is no valid Python yet: the constructor's fields are
    offered all the same, as `name=`, documented as the flag that sets the field; those
    already written sort last; a value, a nested call or another call gets none."""
    complete = lsp_support.complete_at
    doc = Doc(client, "file:///work/p/typing.py", OFFLINE, language_id="python")
    try:
        await doc.diagnostics()
        typing = OFFLINE.replace("        max_modle_len=4096,\n", "        max_model_l§\n")
        items = await complete(client, doc, typing, checked=False)
        by_label = {item.label: item for item in items}
        assert "max_model_len" in by_label and "tensor_parallel_size" in by_label
        chosen = by_label["max_model_len"]
        assert chosen.text_edit is not None and chosen.text_edit.new_text == "max_model_len="
        assert "--max-model-len" in str(chosen.documentation)
        assert (by_label["dtype"].sort_text or "") > (chosen.sort_text or "")  # written
        text = typing.replace("§", "")
        completed = text.replace("max_model_l\n", "max_model_len=4096,\n")
        ast.parse(completed)
        engine = "from vllm import EngineArgs\nargs = EngineArgs(enforce_e§)\n"
        labels = [i.label for i in await complete(client, doc, engine, checked=False)]
        assert "enforce_eager" in labels
        ray = (
            "from ray.serve.llm import LLMConfig\n"
            'config = LLMConfig(model_loading_config={"model_id": "m"},\n'
            "                   engine_kwargs=dict(tensor_parallel_size=2, max_num_s§))\n"
        )
        labels = [i.label for i in await complete(client, doc, ray, checked=False)]
        assert "max_num_seqs" in labels
        value = 'from vllm import LLM\nllm = LLM(model="m", dtype="bf§")\n'
        chosen_values = await complete(client, doc, value, checked=False)
        labels = [i.label for i in chosen_values]
        assert {"bfloat16", "half", "auto"} <= set(labels)
        bf16 = next(i for i in chosen_values if i.label == "bfloat16")
        assert bf16.text_edit is not None and bf16.text_edit.new_text == "bfloat16"
        for nowhere in (
            'from vllm import LLM\nllm = LLM(model="m", dtype=hal§)\n',  # a value
            "from vllm import LLM\nllm = LLM(model=str(ma§))\n",  # another call inside
            "import os\nos.path.join(max_mo§)\n",  # not vLLM's
            'from vllm import LLM\nllm = LLM(model="m", max_model_len="4§")\n',  # no choices
            'from vllm import LLM\nllm = LLM("m")  # LLM(max_mo§\n',  # a comment
        ):
            assert not await complete(client, doc, nowhere, checked=False), nowhere
    finally:
        doc.close()
