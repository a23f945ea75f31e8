"""Completion as typing flows (issue 17): after a key its values come at once (VS Code is
asked to suggest again), keys already written are not offered, each value says what vLLM's
help says of it, the `# vllm-config:` comment completes, and a new file completes from its
first character."""

from __future__ import annotations

import pytest
from lsp_support import Doc, complete_at, editor_of
from lsprotocol import types
from pytest_lsp import LanguageClient
from vllm_config_lsp.rules import rule_by_code
from vllm_config_lsp.vllm.catalogue import available_versions

pytestmark = pytest.mark.asyncio(loop_scope="session")

TRIGGER_SUGGEST = "editor.action.triggerSuggest"


def _by_label(items: list[types.CompletionItem]) -> dict[str, types.CompletionItem]:
    return {item.label: item for item in items}


def _doc_text(item: types.CompletionItem) -> str:
    doc = item.documentation
    return doc.value if isinstance(doc, types.MarkupContent) else doc or ""


def _new_text(item: types.CompletionItem) -> str:
    assert isinstance(item.text_edit, types.TextEdit)
    return item.text_edit.new_text


async def test_accepting_a_key_asks_for_its_values(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cf/next.vllm.yaml", "model: m\n")
    await doc.diagnostics()
    keys = _by_label(await complete_at(client, doc, "model: m\n§\n"))
    asked = {label for label, item in keys.items() if item.command is not None}
    if editor_of(client) != "visual-studio-code":  # they would send the command back
        assert asked == set()
        return
    assert all(keys[label].command.command == TRIGGER_SUGGEST for label in asked)  # type: ignore[union-attr]
    assert {"dtype", "kv-cache-dtype", "compilation-config"} <= asked  # choices, known, fields
    assert _new_text(keys["dtype"]) == "dtype: "  # no snippet: the values come with docs
    assert not {"max-num-seqs", "enable-prefix-caching"} & asked  # an int; `: true` inserted
    fields = _by_label(await complete_at(client, doc, "model: m\ncompilation-config:\n  §\n"))
    assert fields["cudagraph_mode"].command is not None  # an enum
    assert fields["compile_sizes"].command is None


async def test_keys_in_the_file_are_not_offered(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cf/present.vllm.yaml", "model: m\n")
    await doc.diagnostics()
    labels = set(_by_label(await complete_at(client, doc, "model: m\ndtype: auto\nmax§\n")))
    assert "max-num-seqs" in labels and not {"model", "dtype"} & labels
    # the key being rewritten is offered on its own line
    again = _by_label(await complete_at(client, doc, "model: m\ndty§pe: auto\n"))
    assert _new_text(again["dtype"]) == "dtype"


async def test_values_say_what_vllms_help_says_of_them(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cf/values.vllm.yaml", "model: m\n")
    await doc.diagnostics()
    dtypes = _by_label(await complete_at(client, doc, "model: m\ndtype: §\n"))
    assert '"bfloat16" for a balance between precision and range.' in _doc_text(dtypes["bfloat16"])
    assert '"half" for FP16. Recommended for AWQ quantization.' in _doc_text(dtypes["half"])
    modes = _by_label(
        await complete_at(client, doc, "model: m\ncompilation-config:\n  cudagraph_mode: §\n")
    )
    assert "FULL mode: Capture full cudagraph for all batches." in _doc_text(modes["FULL"])
    assert "Capture full cudagraph for decode batches only" in _doc_text(modes["FULL_DECODE_ONLY"])


async def test_the_marker_comment_completes(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/cf/marker.vllm.yaml", "model: m\n")
    await doc.diagnostics()
    options = [i.label for i in await complete_at(client, doc, "# vllm-config: §\nmodel: m\n")]
    assert options == ["version=", "disable=", "disable-next-line=", "disable-file="]
    releases = await complete_at(client, doc, "# vllm-config: version=§\nmodel: m\n")
    assert [i.label for i in releases] == list(reversed(available_versions()))
    codes = _by_label(await complete_at(client, doc, "# vllm-config: disable=§\nmodel: m\n"))
    rule = rule_by_code("VC101")
    assert rule is not None and codes["VC101"].detail == rule.name
    listed = _by_label(await complete_at(client, doc, "# vllm-config: disable=VC101,§\nmodel: m\n"))
    assert "VC104" in listed and "version=" in listed  # the list goes on, or an option
    inline = [i.label for i in await complete_at(client, doc, "model: m  # vllm-config: §\n")]
    assert inline == ["disable=", "disable-next-line=", "disable-file="]  # no version here
    begun = _by_label(await complete_at(client, doc, "# vll§\nmodel: m\n"))
    assert _new_text(begun["vllm-config"]) == "vllm-config: "
    assert await complete_at(client, doc, "model: m  # a note§\n") == []


async def test_a_new_file_completes_from_its_first_character(client: LanguageClient) -> None:
    named = Doc(client, "file:///work/cf/new.vllm.yaml", "")
    assert "tensor-parallel-size" in _by_label(await complete_at(client, named, "§"))
    marked = Doc(client, "file:///work/cf/new-marked.yaml", "")
    marker = await complete_at(client, marked, "# vllm-config§", checked=False)
    assert [i.label for i in marker] == [
        "version=",
        "disable=",
        "disable-next-line=",
        "disable-file=",
    ]
    assert _new_text(marker[0]) == ": version="
    below = await complete_at(client, marked, "# vllm-config\n§")
    assert "tensor-parallel-size" in _by_label(below)
