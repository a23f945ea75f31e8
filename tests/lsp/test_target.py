"""The target hardware in an editor session: the marker comment and a Kubernetes manifest
say which GPUs a config runs on; the checks they decide are published, and a hover on the
text that says it shows what it resolved to."""

from __future__ import annotations

import pytest
from lsp_support import Doc, hover_text
from pytest_lsp import LanguageClient
from support import GPU_MANIFEST

pytestmark = pytest.mark.asyncio(loop_scope="session")

MARKED = "# vllm-config: gpu=T4 count=1\nmodel: Qwen/Qwen3-8B\ndtype: bfloat16\n"


async def test_the_marker_names_the_gpu(client: LanguageClient) -> None:
    doc = Doc(client, "file:///work/t/target.vllm.yaml", MARKED)
    bf16 = [d for d in await doc.diagnostics() if d.code == "VC701"]
    assert len(bf16) == 1 and bf16[0].range.start.line == 2
    assert "compute capability 7.5" in bf16[0].message
    said = await hover_text(client, doc, "T4")
    assert said is not None and "**Target:** 1 x NVIDIA T4" in said and "7.5" in said
    await doc.replace(MARKED.replace("gpu=T4", "gpu=A10G"))
    assert not [d for d in await doc.diagnostics() if d.code == "VC701"]


async def test_a_manifest_names_its_gpus(client: LanguageClient) -> None:
    text = GPU_MANIFEST.format(accelerator="nvidia-tesla-t4", gpus=2)
    doc = Doc(client, "file:///work/t/deployment.yaml", text)
    assert {"VC701", "VC703"} <= {str(d.code) for d in await doc.diagnostics()}
    label = await hover_text(client, doc, "nvidia-tesla-t4")
    assert label is not None and "NVIDIA T4" in label
    assert "nodeSelector cloud.google.com/gke-accelerator" in label
    assert "resources.limits nvidia.com/gpu" in label
    count = await hover_text(client, doc, "nvidia.com/gpu: 2", len("nvidia.com/gpu: "))
    assert count is not None and "2 x NVIDIA T4" in count
