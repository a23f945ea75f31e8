"""The memory budget end to end: the target read from the marker comment and from the
CLI's `--gpu/--gpus`, VC680/VC681 in `check`'s output, the inlay hint and the hover line in
a real LSP session."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "lsp"))
import lsp_support as lsp
from lsp_support import Doc, hover_text, inlay_hints
from pytest_lsp import ClientServerConfig, LanguageClient
from support import REPO, cli_command

MODELS = REPO / "tests" / "fixtures" / "models"
MARKER = "# vllm-config: gpu=H100-80GB count=2\n"
REFUSED = MARKER + "model: meta-llama/Llama-3.1-70B-Instruct\ntensor-parallel-size: 2\n"
FITS = REFUSED + "max-model-len: 32768\n"


ENV = {**os.environ, "VLLM_CONFIG_MODEL_DIRS": str(MODELS)}


def check_json(path: Path, *args: str) -> list[dict[str, object]]:
    done = subprocess.run(
        [*cli_command(), "check", "--format", "json", *args, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=ENV,
    )
    findings: list[dict[str, object]] = json.loads(done.stdout)
    return findings


def codes_of(findings: list[dict[str, object]]) -> list[object]:
    return [f.get("code") for f in findings]


def test_marker_target_refuses_the_full_context(tmp_path: Path) -> None:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text(REFUSED)
    assert "VC681" in codes_of(check_json(path))
    path.write_text(FITS)
    assert "VC681" not in codes_of(check_json(path))


@pytest.mark.parametrize(
    ("name", "text", "column"),
    [
        ("serve.vllm.yaml", "model: meta-llama/Llama-3.1-70B-Instruct\nmax-model-len: 8192\n", 8),
        ("serve.sh", "vllm serve meta-llama/Llama-3.1-70B-Instruct --max-model-len 8192\n", 12),
    ],
)
def test_weights_finding_is_on_the_model(tmp_path: Path, name: str, text: str, column: int) -> None:
    """The weights do not depend on `max-model-len`: VC680 sits on the model word, and the
    marker comment that states the target is its related information."""
    path = tmp_path / name
    path.write_text("# vllm-config: gpu=H100-80GB count=1\n" + text)
    (found,) = [f for f in check_json(path) if f["code"] == "VC680"]
    assert (found["line"], found["column"]) == (2, column)
    assert found["related"] == [
        {"line": 1, "column": 20, "message": "the target: the `# vllm-config:` comment"}
    ]


def test_cli_target(tmp_path: Path) -> None:
    path = tmp_path / "serve.vllm.yaml"
    path.write_text("model: meta-llama/Llama-3.1-70B-Instruct\n")
    assert "VC680" in codes_of(check_json(path, "--gpu", "H100-80GB", "--gpus", "1"))
    assert "VC680" not in codes_of(check_json(path))  # no target: nothing is said


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=lsp.SERVER_COMMAND, client_factory=lsp._client_factory, server_env=ENV
    ),
    params=lsp.EDITORS[:1],
    scope="module",
)
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest) -> AsyncIterator[None]:
    await lsp.start_session(lsp_client, request.param, {"vllmConfig": {"debounceMs": 0}})
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_inlay_hint_and_hover_of_a_config_that_fits(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/f/budget.vllm.yaml", FITS)
    diagnostics = await doc.diagnostics()
    assert not [d for d in diagnostics if d.code in ("VC680", "VC681")]
    hints = await inlay_hints(client, doc)
    assert len(hints) == 1
    assert hints[0].position.line == 3  # the end of `max-model-len: 32768`
    label = hints[0].label
    assert isinstance(label, str) and label.startswith("weights 65.7 GiB/GPU · KV 160 KiB/token")
    hover = await hover_text(client, doc, "max-model-len")
    assert hover is not None and "Memory on the target GPU: weights 65.7 GiB/GPU" in hover
    refused = await doc.replace(REFUSED)
    assert [d.code for d in refused if d.code == "VC681"] == ["VC681"]
    doc.close()
