"""The model of every invocation in an editor session (issue 29): the same model-aware and
memory findings, at the same places and with the same words, in a `--config` file, shell
lines, a Kubernetes manifest, a compose file, a Markdown recipe, a KubeAI Model and a Ray
Serve config naming the same model, whether its facts come from the registry alone (no
files), from the Hugging Face cache after `models pull` (against the local Hub stand-in,
tests/hub_server.py: never the network), or from a model folder set in the settings. The
target GPU is the editor setting. tests/rules/test_model_everywhere.py is the same through
the CLI; the files are tests/fixtures/models/meta-llama/Meta-Llama-3.1-8B-Instruct's."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from hub_server import FakeHub, model_files, start_hub
from lsp_support import (
    SERVER_COMMAND,
    Doc,
    _client_factory,
    change_settings,
    hover_text,
    published,
    start_session,
    wait_until,
)
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from support import REPO, cli_command, model_hosts

pytestmark = pytest.mark.asyncio(loop_scope="module")

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
FIXTURE = REPO / "tests" / "fixtures" / "models" / "meta-llama" / "Meta-Llama-3.1-8B-Instruct"
ENDPOINT = start_hub(FakeHub({MODEL: model_files(FIXTURE)}))
CACHE = Path(tempfile.mkdtemp(prefix="vllm-config-everywhere-"))
ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("VLLM_CONFIG_MODEL_DIRS", "HF_HOME")},
    "HF_HUB_CACHE": str(CACHE / "hub"),
    "HF_ENDPOINT": ENDPOINT,
    "HF_HUB_DISABLE_TELEMETRY": "1",
}
SETTINGS = {"debounceMs": 0, "gpu": "L4", "gpuCount": 1}
CASES = {
    "VC601": [("--tensor-parallel-size", "3")],
    "VC681": [("--max-model-len", "131072"), ("--gpu-memory-utilization", "0.7")],
}
LANGUAGES = {".sh": "shellscript", ".md": "markdown"}
#: Where each origin's hover says the facts came from.
SAID = {
    "registry": "model registry",
    "models pull": "Hugging Face cache",
    "model folder": "model folder",
}
#: (case, file) → the range of its finding, from the first origin checked.
PLACES: dict[tuple[str, str], types.Range] = {}


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=SERVER_COMMAND, client_factory=_client_factory, server_env=ENV
    ),
    params=["visual-studio-code"],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    await start_session(lsp_client, request.param, {"vllmConfig": SETTINGS})
    yield
    await lsp_client.shutdown_session()


def pull() -> None:
    """`vllm-config-lsp models pull` into the session's cache, from the Hub stand-in."""
    done = subprocess.run(
        [*cli_command(), "models", "pull", MODEL],
        capture_output=True,
        text=True,
        env={**ENV, "VLLM_CONFIG_MODEL_REGISTRY": "off"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr


async def use_model_folder(client: LanguageClient) -> None:
    """Set `modelDirs` to a folder with the model's files, and wait until the server has
    rechecked an open document with it."""
    folder = CACHE / "models"
    if not (folder / MODEL).is_dir():
        shutil.copytree(FIXTURE, folder / MODEL)
    probe = Doc(client, "file:///work/everywhere/probe.vllm.yaml", f"model: {MODEL}\n")
    await probe.diagnostics()
    before = len(published(client, probe.uri))
    settings = {**SETTINGS, "modelDirs": [str(folder)]}
    change_settings(client, settings)
    await wait_until(lambda: len(published(client, probe.uri)) > before)


@pytest.mark.parametrize("origin", ["registry", "models pull", "model folder"])
async def test_same_findings_in_every_host(client: LanguageClient, origin: str) -> None:
    if origin == "models pull":
        pull()
    elif origin == "model folder":
        await use_model_folder(client)
    for code, flags in CASES.items():
        found: dict[str, list[types.Diagnostic]] = {}
        docs = {}
        for name, text in model_hosts(MODEL, flags).items():
            uri = f"file:///work/everywhere/{origin.replace(' ', '-')}/{code}/{name}"
            language = LANGUAGES.get(Path(name).suffix, "yaml")
            docs[name] = doc = Doc(client, uri, text, language_id=language)
            found[name] = [d for d in await doc.diagnostics() if str(d.code) in (code, "VC600")]
        codes = {name: [str(d.code) for d in items] for name, items in found.items()}
        assert all(items == [code] for items in codes.values()), (origin, codes)
        assert len({items[0].message for items in found.values()}) == 1, origin
        for name, items in found.items():
            assert PLACES.setdefault((code, name), items[0].range) == items[0].range, name
        hover = await hover_text(client, docs["config.vllm.yaml"], "Llama-3.1", skip=2) or ""
        assert SAID[origin] in hover, hover
