"""The `modelDirs` setting: model-aware rules and the hover on `model:` find the model's files
in the listed folders (tests/fixtures/models) before the Hugging Face cache, and a changed
list applies without a restart."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import (
    EDITORS,
    SERVER_COMMAND,
    TIMEOUT,
    Doc,
    _client_factory,
    change_settings,
    encoding,
    position_of,
    published,
    start_session,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

MODELS = Path(__file__).resolve().parents[1] / "fixtures" / "models"
#: Hermetic: no model folders from the environment, the fixtures' own Hugging Face cache.
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("VLLM_CONFIG_MODEL_DIRS", "HF_HOME")},
    "HF_HUB_CACHE": str(MODELS / "hf-cache"),
}
#: `~user` of no known user is a folder that does not exist, not an internal error.
UNKNOWN_HOME = "~no-such-user-vllm-config/models"
OPTIONS = {
    "vllmConfig": {"debounceMs": 0, "modelDirs": [UNKNOWN_HOME, "/nonexistent", str(MODELS)]}
}


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=SERVER_COMMAND, client_factory=_client_factory, server_env=ENV
    ),
    params=EDITORS,
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    await start_session(lsp_client, request.param, OPTIONS)
    yield
    await lsp_client.shutdown_session()


TEXT = "model: Qwen/Qwen2.5-7B-Instruct\ntensor-parallel-size: 8\n"


async def _hover(client: LanguageClient, doc: Doc, needle: str, skip: int = 0) -> str:
    result = await asyncio.wait_for(
        client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=doc.uri),
                position=position_of(doc.text, doc.text.index(needle) + skip, encoding(client)),
            )
        ),
        TIMEOUT,
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    return result.contents.value.replace("`", "").replace("**", "")


async def test_hover_on_model_describes_the_checkpoint(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/m/hover.vllm.yaml", TEXT)
    assert "VC601" in {str(d.code) for d in await doc.diagnostics()}  # 28 heads, TP 8
    value = await _hover(client, doc, "Qwen2.5", skip=3)
    for expected in (
        "architecture: Qwen2ForCausalLM",
        "layers: 28",
        "attention heads / KV heads: 28 / 4",
        "max context: 32768",
        "vocab: 152064",
        "dtype: bfloat16",
        str(MODELS / "Qwen" / "Qwen2.5-7B-Instruct"),
        "newest known release",  # the version note, as on every hover
    ):
        assert expected in value, (expected, value)
    key = await _hover(client, doc, "model")
    assert "Qwen2ForCausalLM" in key and "--model" in key  # the flag, then the model
    assert key.index("--model") < key.index("Qwen2ForCausalLM")
    other = await _hover(client, doc, "tensor-parallel-size")
    assert "Qwen2ForCausalLM" not in other


async def test_hover_on_the_draft_describes_the_draft_checkpoint(client: LanguageClient) -> None:
    block = (
        "model: Qwen/Qwen2.5-7B-Instruct\nspeculative-config:\n"
        "  model: local/qwen2.5-0.5b-draft-4k\n  num_speculative_tokens: 3\n"
    )
    json_string = (
        "model: Qwen/Qwen2.5-7B-Instruct\nspeculative-config: "
        '\'{"model": "local/qwen2.5-0.5b-draft-4k", "num_speculative_tokens": 3}\'\n'
    )
    for n, text in enumerate((block, json_string)):
        doc = Doc(client, f"file:///work/m/draft-{n}.vllm.yaml", text)
        await doc.diagnostics()
        value = await _hover(client, doc, "draft-4k")
        for expected in ("max context: 4096", "layers: 24", "newest known release"):
            assert expected in value, (expected, value)
        assert str(MODELS / "local" / "qwen2.5-0.5b-draft-4k") in value
        target = await _hover(client, doc, "Qwen2.5-7B")
        assert "max context: 32768" in target and "draft-4k" not in target


async def test_quantized_and_cached_models(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/m/awq.vllm.yaml", "model: Qwen/Qwen2.5-7B-Instruct-AWQ\n")
    await doc.diagnostics()
    assert "quantization: awq" in await _hover(client, doc, "Qwen2.5", skip=3)
    cached = Doc(client, "file:///work/m/moe.vllm.yaml", "model: Qwen/Qwen3-30B-A3B\n")
    await cached.diagnostics()
    text = await _hover(client, cached, "Qwen3", skip=3)
    assert "Qwen3MoeForCausalLM" in text and "experts: 128 (8 per token)" in text
    assert str(MODELS / "Qwen" / "Qwen3-30B-A3B") in text  # modelDirs come before the cache


async def test_changing_model_dirs_rechecks(client: LanguageClient) -> None:
    """A model the registry does not carry (Qwen2.5-0.5B-Instruct: 14 heads) is known only
    from the model folder."""
    uri = "file:///work/m/change.vllm.yaml"
    doc = Doc(client, uri, "model: Qwen/Qwen2.5-0.5B-Instruct\ntensor-parallel-size: 8\n")
    assert "VC601" in {str(d.code) for d in await doc.diagnostics()}
    before = len(published(client, uri))
    settings = {"debounceMs": 0, "modelDirs": []}
    change_settings(client, settings)
    await wait_until(lambda: len(published(client, uri)) > before)
    assert "VC601" not in {str(d.code) for d in published(client, uri)[-1].diagnostics}
    assert "Model files not found" in await _hover(client, doc, "Qwen2.5", skip=3)
    cached = Doc(client, "file:///work/m/cached.vllm.yaml", "model: Qwen/Qwen3-30B-A3B\n")
    await cached.diagnostics()
    assert "hf-cache" in await _hover(client, cached, "Qwen3", skip=3)  # now from the cache
