"""Hover, completion and document symbols, as each editor's capabilities allow."""

from __future__ import annotations

import asyncio

import pytest
from lsp_support import TIMEOUT, Doc, complete_at, editor_of, hover_text, inlay_hints
from lsprotocol import types
from pytest_lsp import LanguageClient
from vllm_config_lsp.lsp.describe import split_help
from vllm_config_lsp.vllm.catalogue import load_catalogue

pytestmark = pytest.mark.asyncio(loop_scope="session")


TEXT = (
    "# vllm-config: version=0.33.0\n"
    "model: acme-internal/qwen3-8b-tuned  # 模型 😀\n"
    "dtype: bfloat16\n"
    "served-model-name: qwen 😀\n"
    "disable-cascade-attn: true  # vllm-config: disable=VC110 -- kept for the old chart\n"
    "compilation-config:\n"
    "  cudagraph_mode: FULL\n"
    "  pass_config:\n"
    "    fuse_norm_quant: true\n"
    'kv-transfer-config: \'{"kv_connector": "X", "kv_role": "kv_both"}\'\n'
)


async def test_hover(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/f/hover.vllm.yaml", TEXT)
    await doc.diagnostics()
    flag = await hover_text(client, doc, "dtype")
    assert flag is not None
    assert "--dtype" in flag and "Choices" in flag and "bfloat16" in flag
    assert "vLLM 0.33.0, from the `# vllm-config: version=` comment" in flag
    choice = await hover_text(client, doc, "bfloat16")
    assert choice is not None and "one of the choices of" in choice
    nested = await hover_text(client, doc, "fuse_norm_quant")
    assert nested is not None and "PassConfig.fuse_norm_quant" in nested
    in_json = await hover_text(client, doc, "kv_role")
    assert in_json is not None and "KVTransferConfig.kv_role" in in_json
    member = await hover_text(client, doc, "FULL")
    assert member is not None and "CUDAGraphMode.FULL" in member
    deprecated = await hover_text(client, doc, "disable-cascade-attn")
    assert deprecated is not None and "Deprecated" in deprecated
    rule = await hover_text(client, doc, "VC110")
    assert rule is not None and "deprecated-flag" in rule
    assert "Disabled here: kept for the old chart" in rule  # the reason after `--`
    model = await hover_text(
        client, doc, "acme-internal/qwen3-8b-tuned"
    )  # not local, not in the registry
    assert model is not None and "Model files not found" in model and "modelDirs" in model
    key = await hover_text(client, doc, "model")  # the flag's documentation, then a short note
    assert key is not None
    assert key.index("--model") < key.index("Model files not found") < key.index("vLLM 0.33.0")
    assert "modelDirs" not in key  # how to make them findable: on the model's name
    assert await hover_text(client, doc, "模型") is None  # a comment


FLAGGED = (
    "# vllm-config: version=0.33.0\nmodel: m\ntensor-parallel: 2\ncompilation-config:\n  level: 3\n"
)


async def test_hover_on_a_flagged_key_documents_what_it_stands_for(
    client: LanguageClient,
) -> None:
    doc = Doc(client, "file:///work/f/flagged.vllm.yaml", FLAGGED)
    assert {"VC103", "VC204"} <= {str(d.code) for d in await doc.diagnostics()}
    catalogue = load_catalogue("0.33.0")
    prefix = await hover_text(client, doc, "tensor-parallel")
    assert prefix is not None and "read as `--tensor-parallel-size`" in prefix
    assert split_help(catalogue.flags["tensor-parallel-size"].help)[0] in prefix
    renamed = await hover_text(client, doc, "level")
    assert renamed is not None and "renames it `mode`" in renamed
    mode = catalogue.classes["CompilationConfig"].fields["mode"]
    first, more = split_help(mode.doc)
    assert "CompilationConfig.mode" in renamed and first in renamed and more in renamed
    await doc.replace(FLAGGED.replace("compilation-config:\n  level", "compilation-config.level"))
    dotted = await hover_text(client, doc, "level")
    assert dotted is not None and "**compilation-config.mode** (CompilationConfig.mode)" in dotted
    assert "vLLM 0.33.0" in dotted


async def test_completion(client: LanguageClient) -> None:
    caps = client.capabilities
    assert caps is not None and caps.text_document and caps.text_document.completion
    item_caps = caps.text_document.completion.completion_item
    snippets = bool(item_caps and item_caps.snippet_support)
    doc = Doc(client, "file:///work/f/complete.vllm.yaml", "model: x\n")
    await doc.diagnostics()

    items = await complete_at(client, doc, "model: x\ndtype: auto\nmax-num§\n")
    labels = [item.label for item in items]
    assert "max-num-seqs" in labels and "tensor-parallel-size" in labels
    assert "model" not in labels and "dtype" not in labels  # already in the file
    seqs = next(item for item in items if item.label == "max-num-seqs")
    assert seqs.detail and seqs.detail.startswith("int")
    documentation = seqs.documentation
    if isinstance(documentation, types.MarkupContent):
        documentation = documentation.value
    assert documentation is not None and "--max-num-seqs" in documentation
    assert isinstance(seqs.text_edit, types.TextEdit)
    assert seqs.text_edit.new_text == "max-num-seqs: "
    assert seqs.text_edit.range.start == types.Position(line=2, character=0)
    with_snippets = [i for i in items if i.insert_text_format == types.InsertTextFormat.Snippet]
    # choice placeholders only where supported, and not where the values are suggested next
    assert bool(with_snippets) == (snippets and editor_of(client) != "visual-studio-code")
    old = next(item for item in items if item.label == "disable-cascade-attn")
    assert (
        old.tags
        or old.deprecated
        or not (item_caps and (item_caps.tag_support or item_caps.deprecated_support))
    )

    values = [i.label for i in await complete_at(client, doc, "model: x\ndtype: §\n")]
    assert values == ["auto", "bfloat16", "float", "float16", "float32", "half"]
    assert [i.label for i in await complete_at(client, doc, "enable-prefix-caching: §\n")] == [
        "true"
    ]
    fields = [
        i.label for i in await complete_at(client, doc, "compilation-config:\n  mode: 3\n  §\n")
    ]
    assert "cudagraph_mode" in fields and fields.index("mode") > fields.index("cudagraph_mode")
    members = [
        i.label
        for i in await complete_at(client, doc, "compilation-config:\n  cudagraph_mode: §\n")
    ]
    assert "FULL_AND_PIECEWISE" in members
    in_json = await complete_at(client, doc, 'compilation-config: \'{"mode": 3, "cu§\'\n')
    assert "cudagraph_mode" in [i.label for i in in_json]
    nested_json = await complete_at(client, doc, 'compilation-config: |\n  {"pass_config": {"§\n')
    assert "fuse_norm_quant" in [i.label for i in nested_json]
    assert await complete_at(client, doc, "model: x  # max§\n") == []


async def _outline(client: LanguageClient, doc: Doc) -> list[types.DocumentSymbol]:
    """The document's symbols, once it is checked (all three editors take them nested)."""
    await doc.diagnostics()
    result = await asyncio.wait_for(
        client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
        ),
        TIMEOUT,
    )
    assert result
    symbols = [s for s in result if isinstance(s, types.DocumentSymbol)]
    assert len(symbols) == len(result)
    return symbols


async def test_symbols(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/f/symbols.vllm.yaml", TEXT)
    symbols = await _outline(client, doc)
    assert [s.name for s in symbols] == [
        "model",
        "dtype",
        "served-model-name",
        "disable-cascade-attn",
        "compilation-config",
        "kv-transfer-config",
    ]
    compilation = symbols[4]
    assert [c.name for c in compilation.children or []] == ["cudagraph_mode", "pass_config"]
    pass_config = (compilation.children or [])[1]
    assert [c.name for c in pass_config.children or []] == ["fuse_norm_quant"]
    kv = symbols[5]
    assert [c.name for c in kv.children or []] == ["kv_connector", "kv_role"]
    assert kv.selection_range.start == types.Position(line=9, character=0)


async def test_symbols_show_values_as_written(client: LanguageClient) -> None:
    """The outline says `true` where the file says `true` (not Python's `True`)."""
    text = (
        "model: Qwen/Qwen3-8B\n"
        "enforce-eager: true\n"
        "max-num-seqs: 0x10\n"
        "served-model-name: 'qwen'\n"
        'compilation-config: \'{"use_inductor": false, "level": 3e0, "x": null}\'\n'
    )
    doc = Doc(client, "file:///work/f/symbols-written.vllm.yaml", text)
    symbols = {s.name: s for s in await _outline(client, doc)}
    shown = [
        symbols[name].detail for name in ("enforce-eager", "max-num-seqs", "served-model-name")
    ]
    assert shown == ["true", "0x10", "qwen"]
    fields = symbols["compilation-config"].children or []
    assert [(f.name, f.detail) for f in fields] == [
        ("use_inductor", "false"),
        ("level", "3e0"),
        ("x", "null"),
    ]


async def test_nothing_for_other_yaml(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/f/deployment.yaml", "apiVersion: v1\nkind: Pod\n")
    assert await hover_text(client, doc, "kind") is None
    assert await complete_at(client, doc, "apiVersion: v1\nkind: Pod\n§", checked=False) == []


async def test_inlay_hints_need_a_target(client: LanguageClient) -> None:
    """The memory budget's hint is only said for a file whose GPU is known: without one, the
    request answers with no hints (tests/rules/test_memory_budget_e2e.py has the target)."""
    text = "# vllm-config: version=0.33.0\nmodel: Qwen/Qwen3-8B\nmax-model-len: 8192\n"
    doc = Doc(client, "file:///work/f/inlay.vllm.yaml", text)
    await doc.diagnostics()
    assert await inlay_hints(client, doc) == []
    doc.close()
