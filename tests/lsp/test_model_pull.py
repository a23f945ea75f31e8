"""Model facts in an editor session (issue 29): a model without files gets VC600 with the
action "Download config.json of ORG/NAME…", which fetches config.json and the safetensors
index from a local stand-in of the Hub (tests/hub_server.py through HF_ENDPOINT: never the
network) into the session's Hugging Face cache; then the `--config` file and the shell
script naming the model both get VC601, and the hover says the files came from the cache.
A model the registry knows is checked with no files at all, and the hover says so."""

from __future__ import annotations

import os
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from hub_server import FakeHub, model_files, start_hub
from lsp_support import (
    SERVER_COMMAND,
    TIMEOUT,
    Doc,
    _client_factory,
    code_actions,
    hover_text,
    published,
    start_session,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: Not in the registry (its new name, meta-llama/Llama-3.1-8B-Instruct, is).
MODEL = "meta-llama/Meta-Llama-3.1-8B-Instruct"
FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures/models/meta-llama/Meta-Llama-3.1-8B-Instruct"
)
HUB = FakeHub({MODEL: model_files(FIXTURE)})
ENDPOINT = start_hub(HUB)  # for the module's server
CACHE = Path(tempfile.mkdtemp(prefix="vllm-config-pull-"))
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("VLLM_CONFIG_MODEL_DIRS", "HF_HOME")},
    "HF_HUB_CACHE": str(CACHE / "hub"),
    "HF_ENDPOINT": ENDPOINT,
    "HF_HUB_DISABLE_TELEMETRY": "1",
}
#: A model folder configured (that lacks the model): VC600 speaks for Hub ids too.
OPTIONS = {"vllmConfig": {"debounceMs": 0, "modelDirs": ["/nonexistent"]}}


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=SERVER_COMMAND, client_factory=_client_factory, server_env=ENV
    ),
    params=["visual-studio-code"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    await start_session(lsp_client, request.param, OPTIONS)
    yield
    await lsp_client.shutdown_session()


def _codes(client: LanguageClient, uri: str) -> set[str]:
    found = published(client, uri)
    return {str(d.code) for d in found[-1].diagnostics} if found else set()


async def test_registry_model_is_checked_without_files(client: LanguageClient) -> None:
    doc = Doc(
        client,
        "file:///work/pull/registry.vllm.yaml",
        "model: Qwen/Qwen3-32B\ntensor-parallel-size: 3\n",
    )
    assert "VC601" in {str(d.code) for d in await doc.diagnostics()}
    hover = await hover_text(client, doc, "Qwen3-32B", skip=2) or ""
    assert "model registry" in hover and "ai-dynamo/aiconfigurator" in hover


async def test_pull_action_fetches_and_rechecks(client: LanguageClient) -> None:
    config = Doc(
        client, "file:///work/pull/llama.vllm.yaml", f"model: {MODEL}\ntensor-parallel-size: 3\n"
    )
    script = Doc(
        client,
        "file:///work/pull/serve.sh",
        f"#!/bin/bash\nvllm serve {MODEL} --tensor-parallel-size 3\n",
        language_id="shellscript",
    )
    diagnostics = await config.diagnostics()
    assert {str(d.code) for d in diagnostics} == {"VC600"}
    assert "VC600" in {str(d.code) for d in await script.diagnostics()}
    missing = next(d for d in diagnostics if str(d.code) == "VC600")
    actions = await code_actions(client, config.uri, missing.range, [missing])
    pull = next(a for a in actions if a.title.startswith("Download config.json of"))
    assert pull.title == f"Download config.json of {MODEL} into the Hugging Face cache"
    assert not [r for r in HUB.requests if "/resolve/" in r]  # nothing fetched before asked
    assert pull.command is not None
    fetched = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=pull.command.command, arguments=pull.command.arguments)
    )
    assert fetched is True
    await wait_until(lambda: "VC601" in _codes(client, config.uri), TIMEOUT)
    await wait_until(lambda: "VC601" in _codes(client, script.uri), TIMEOUT)
    assert "VC600" not in _codes(client, config.uri)
    hover = await hover_text(client, config, "Llama-3.1", skip=2) or ""
    assert "Hugging Face cache" in hover
