"""vLLM's environment variables in an LSP session: completion of names and of choice
values in a Kubernetes `env:` list and a compose `environment:` (mapping and list forms),
hover with the variable's documentation (the comment above it in vllm/envs.py), default
and parse rule, and the diagnostics on what a real file sets.

The real files are the deployment corpus's (tests/corpus/deployments/SOURCES.md cites
them): vllm-project/production-stack
`src/gateway_inference_extension/configs/vllm/gpu-deployment.yaml` (fc9adce9abe4) and
opea-project/GenAIExamples `ChatQnA/docker_compose/intel/hpu/gaudi/compose.yaml`
(5113bebd9a77).
"""

from __future__ import annotations

import pytest
from lsp_support import Doc, complete_at, hover_text
from pytest_lsp import LanguageClient
from support import CORPUS

pytestmark = pytest.mark.asyncio(loop_scope="session")

FILES = CORPUS / "deployments" / "files"
K8S = (
    FILES
    / "k8s"
    / (
        "vllm-project__production-stack__src__gateway_inference_extension__configs__vllm"
        "__gpu-deployment.yaml"
    )
)
COMPOSE = (
    FILES
    / "compose"
    / ("opea-project__GenAIExamples__ChatQnA__docker_compose__intel__hpu__gaudi__compose.yaml")
)

MANIFEST = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.33.0
        args: ["--model", "Qwen/Qwen3-8B"]
        env:
        - name: VLLM_LOGGING_LEVEL
          value: DEBUG
        - name: §
"""

SERVICE = """services:
  vllm:
    image: vllm/vllm-openai:v0.33.0
    command: ["--model", "Qwen/Qwen3-8B"]
    environment:
      VLLM_LOGGING_LEVEL: DEBUG
      §
"""


def _labels(items: list) -> list[str]:
    return [item.label for item in items]


async def test_kubernetes_env_completion_and_hover(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/env/deploy.yaml", MANIFEST.replace("§", "X"))
    await doc.diagnostics()
    names = _labels(await complete_at(client, doc, MANIFEST.replace("§", "VLLM_WORKER_M§")))
    assert "VLLM_WORKER_MULTIPROC_METHOD" in names and "VLLM_LOGGING_LEVEL" in names
    assert "VLLM_ATTENTION_BACKEND" not in names  # gone in 0.33.0
    value = MANIFEST.replace("§", "VLLM_WORKER_MULTIPROC_METHOD\n          value: §")
    assert _labels(await complete_at(client, doc, value)) == ["fork", "spawn"]
    boolean = MANIFEST.replace("§", "VLLM_USE_DEEP_GEMM\n          value: §")
    assert _labels(await complete_at(client, doc, boolean)) == ["0", "1"]
    text = await hover_text(client, doc, "VLLM_LOGGING_LEVEL", 3)
    assert text is not None and "default logging level" in text and "`INFO`" in text
    assert "vllm/envs.py" in text
    doc.close()


async def test_kubernetes_real_manifest_hover_and_findings(client: LanguageClient) -> None:
    """production-stack's manifest runs lmcache/vllm-openai (a release before the V0
    removal): `VLLM_USE_V1` is a variable of that release, hovered with its rule."""
    doc = Doc(client, "file:///work/env/gpu-deployment.yaml", K8S.read_text(encoding="utf-8"))
    diagnostics = await doc.diagnostics()
    assert not [d for d in diagnostics if d.code in ("VC240", "VC241") and d.severity == 1]
    text = await hover_text(client, doc, "VLLM_ALLOW_RUNTIME_LORA_UPDATING", 2)
    assert text is not None and "VLLM_ALLOW_RUNTIME_LORA_UPDATING" in text
    assert "lower-cased" in text  # read as `.lower() in ("1", "true")`: "true" is fine
    doc.close()


async def test_compose_environment_completion_and_hover(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/env/compose.yaml", SERVICE.replace("§", "X: 1"))
    await doc.diagnostics()
    names = _labels(await complete_at(client, doc, SERVICE.replace("§", "VLLM_USE_DEEP§")))
    assert "VLLM_USE_DEEP_GEMM" in names
    mapping = SERVICE.replace("§", "VLLM_FLOAT32_MATMUL_PRECISION: §")
    assert _labels(await complete_at(client, doc, mapping)) == ["high", "highest", "medium"]
    listed = SERVICE.replace("VLLM_LOGGING_LEVEL: DEBUG", "- VLLM_LOGGING_LEVEL=DEBUG")
    items = await complete_at(client, doc, listed.replace("§", "- VLLM_WORKER_MULTIPROC_METHOD=§"))
    assert _labels(items) == ["fork", "spawn"]
    text = await hover_text(client, doc, "VLLM_LOGGING_LEVEL", 3)
    assert text is not None and "VLLM_LOGGING_LEVEL" in text
    doc.close()


async def test_compose_real_file_removed_variable(client: LanguageClient) -> None:
    """OPEA's ChatQnA Gaudi compose sets `VLLM_TORCH_PROFILER_DIR`, which 0.16.0 removed
    for `--profiler-config.torch_profiler_dir`: a warning in vLLM's words, and the hover
    says what to write instead."""
    text = COMPOSE.read_text(encoding="utf-8")
    doc = Doc(client, "file:///work/env/chatqna/compose.yaml", text)
    diagnostics = await doc.diagnostics()
    [unknown] = [d for d in diagnostics if d.code == "VC240"]
    assert "Unknown vLLM environment variable detected: VLLM_TORCH_PROFILER_DIR" in unknown.message
    assert unknown.severity == 2
    hover = await hover_text(client, doc, "VLLM_TORCH_PROFILER_DIR", 2)
    assert hover is not None and "--profiler-config.torch_profiler_dir" in hover
    doc.close()
