"""The status item and the hover say the release the checks use, and why (issue 34, item 1):
a manifest with its own image tag names it (not a compose file beside it), a chart's values
file the tag its template takes from it (`helm create`'s `| default .Chart.AppVersion`), a
document whose command lines run different releases each one's, and a sibling file's tag is
named as the last resort it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_support import Doc, deployment, document_info, hover_text
from pytest_lsp import LanguageClient

pytestmark = pytest.mark.asyncio(loop_scope="session")


DEPLOY = deployment("vllm/vllm-openai:v0.33.0", '["Qwen/Qwen3-8B", "--max-num-seqs", "8"]')
COMPOSE = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.11.0
    command: ["--model", "Qwen/Qwen3-8B", "--max-num-seqs", "8"]
"""
SCRIPT = "#!/bin/sh\nvllm serve Qwen/Qwen3-8B --max-num-seqs 8\n"
TWO = """\
#!/bin/sh
docker run --gpus all vllm/vllm-openai:v0.11.0 --model Qwen/Qwen3-8B --max-num-seqs 8
docker run --gpus all vllm/vllm-openai:v0.33.0 --model Qwen/Qwen3-8B --max-num-batched-tokens 8
"""
VALUES = "image:\n  repository: vllm/vllm-openai\n  tag: v0.11.0\nmaxNumSeqs: 8\n"
TEMPLATE = deployment(
    '"{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}"',
    '["Qwen/Qwen3-8B", "--max-num-seqs", "{{ .Values.maxNumSeqs }}"]',
)


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    (folder / "chart" / "templates").mkdir(parents=True)
    (folder / "deploy.yaml").write_text(DEPLOY, encoding="utf-8")
    (folder / "docker-compose.yml").write_text(COMPOSE, encoding="utf-8")
    (folder / "serve.sh").write_text(SCRIPT, encoding="utf-8")
    (folder / "two.sh").write_text(TWO, encoding="utf-8")
    (folder / "chart" / "Chart.yaml").write_text("apiVersion: v2\nname: vllm\nversion: 0.1.0\n")
    (folder / "chart" / "values.yaml").write_text(VALUES, encoding="utf-8")
    (folder / "chart" / "templates" / "deployment.yaml").write_text(TEMPLATE, encoding="utf-8")
    return folder


async def _open(client: LanguageClient, path: Path, language_id: str = "yaml") -> Doc:
    doc = Doc(client, path.as_uri(), path.read_text(encoding="utf-8"), language_id=language_id)
    await doc.diagnostics()
    return doc


async def test_each_file_names_its_own_release(client: LanguageClient, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    deploy = await _open(client, folder / "deploy.yaml")
    compose = await _open(client, folder / "docker-compose.yml")
    info = await document_info(client, deploy.uri)
    assert info["vllmVersion"] == "0.33.0"
    assert info["versionSource"] == "vLLM 0.33.0, from the image vllm/vllm-openai:v0.33.0"
    assert info["commandLines"] == [
        {"line": 8, **{k: info[k] for k in ("vllmVersion", "versionSource")}}
    ]
    hover = await hover_text(client, deploy, "--max-num-seqs", 3)
    assert hover is not None and hover.endswith(
        "_vLLM 0.33.0, from the image vllm/vllm-openai:v0.33.0_"
    )
    info = await document_info(client, compose.uri)
    assert (
        info["versionSource"]
        == "vLLM 0.11.2 (for v0.11.0), from the image vllm/vllm-openai:v0.11.0"
    )

    # nothing in the script names a release: a tag beside it is the last resort, said so
    script = await _open(client, folder / "serve.sh", "shellscript")
    info = await document_info(client, script.uri)
    assert "a file beside it (nothing here names one)" in info["versionSource"], info
    assert info["versionSource"].startswith("vLLM ")
    hover = await hover_text(client, script, "--max-num-seqs", 3)
    assert hover is not None and "a file beside it (nothing here names one)" in hover

    # the values file: the tag its template takes from it
    values = await _open(client, folder / "chart" / "values.yaml")
    info = await document_info(client, values.uri)
    assert info["vllmVersion"] == "0.11.2"
    assert (
        info["versionSource"]
        == "vLLM 0.11.2 (for v0.11.0), from the image vllm/vllm-openai:v0.11.0"
    )
    for doc in (deploy, compose, script, values):
        doc.close()


async def test_command_lines_on_different_releases(client: LanguageClient, tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    two = await _open(client, folder / "two.sh", "shellscript")
    info = await document_info(client, two.uri)
    assert [(line["line"], line["vllmVersion"]) for line in info["commandLines"]] == [
        (1, "0.11.2"),
        (2, "0.33.0"),
    ]
    assert info["versionSource"] == (
        "2 command lines, each checked for its own release: "
        "line 2: vLLM 0.11.2 (for v0.11.0), from the image vllm/vllm-openai:v0.11.0; "
        "line 3: vLLM 0.33.0, from the image vllm/vllm-openai:v0.33.0"
    )
    first = await hover_text(client, two, "--max-num-seqs", 3)
    second = await hover_text(client, two, "--max-num-batched", 3)
    assert first is not None and first.endswith("from the image vllm/vllm-openai:v0.11.0_")
    assert second is not None and second.endswith("from the image vllm/vllm-openai:v0.33.0_")
    two.close()
