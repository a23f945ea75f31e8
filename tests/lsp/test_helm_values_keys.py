"""Issue 34 (items 4, 5 and 9) on a Helm chart, over a real LSP session: what a values file
reports names the values key the user edits (`vllm.tensorParallelSize`), not only the vLLM
flag the template writes around it; the `--enable-reasoning` replacement works where the
flag sits inside quotes of one word (a values key, a Kubernetes flow list `args: [...]`).
Every fix is applied: the finding goes, the file still parses, the rest stays as written."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from lsp_support import Doc, apply_workspace_edit, code_actions, deployment, encoding, hover_text
from lsprotocol import types
from pytest_lsp import LanguageClient
from support import small_chart

pytestmark = pytest.mark.asyncio(loop_scope="session")

VALUES = """\
image:
  tag: v0.33.0
vllm:
  model: Qwen/Qwen3-8B
  tensorParallelSize: 3
  gpuMemoryUtilization: 1.5
  extra: "--enable-reasoning"
"""
TEMPLATE = deployment(
    '"vllm/vllm-openai:{{ .Values.image.tag }}"',
    '["{{ .Values.vllm.model }}", "--tensor-parallel-size", '
    '"{{ .Values.vllm.tensorParallelSize }}", '
    '"--gpu-memory-utilization={{ .Values.vllm.gpuMemoryUtilization }}", '
    "{{ .Values.vllm.extra | quote }}]",
)


async def _fix(
    client: LanguageClient, doc: Doc, code: str, title: str
) -> tuple[types.Diagnostic, str]:
    [found] = [d for d in await doc.diagnostics() if d.code == code]
    actions = await code_actions(client, doc.uri, found.range, [found], only=["quickfix"])
    matching = [a for a in actions if a.title == f"{title} ({code})"]
    assert len(matching) == 1, [a.title for a in actions]
    action = matching[0]
    assert action.edit is not None
    return found, apply_workspace_edit(doc.text, action.edit, doc.uri, encoding(client))


@pytest.mark.parametrize(
    ("code", "title", "said", "before", "after"),
    [
        (
            "VC601",
            "Set vllm.tensorParallelSize to 2",
            "",
            "tensorParallelSize: 3",
            "tensorParallelSize: 2",
        ),
        (
            "VC203",
            "Set '1', the nearest valid value",
            "'vllm.gpuMemoryUtilization' must be above 0 and at most 1",
            "gpuMemoryUtilization: 1.5",
            "gpuMemoryUtilization: 1",
        ),
        (
            "VC101",
            "Replace with '--reasoning-parser=qwen3'",
            "for Qwen/Qwen3-8B: '--reasoning-parser qwen3'",
            'extra: "--enable-reasoning"',
            'extra: "--reasoning-parser=qwen3"',
        ),
    ],
)
async def test_a_values_file_names_its_keys_and_its_fixes_apply(
    client: LanguageClient,
    tmp_path: Path,
    code: str,
    title: str,
    said: str,
    before: str,
    after: str,
) -> None:
    path = small_chart(tmp_path, VALUES, TEMPLATE)
    doc = Doc(client, path.as_uri(), VALUES)
    found, fixed = await _fix(client, doc, code, title)
    assert said in found.message, found.message
    assert fixed == VALUES.replace(before, after)  # the rest untouched
    assert yaml.safe_load(fixed)["vllm"]["model"] == "Qwen/Qwen3-8B"
    assert code not in [d.code for d in await doc.replace(fixed)]
    doc.close()


FLOW = deployment(
    "vllm/vllm-openai:v0.33.0",
    '["Qwen/Qwen3-8B", "--enable-reasoning", "--max-model-len", "8192"]',
)


async def test_enable_reasoning_in_a_flow_list_is_replaced_in_place(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A flow list takes no appended item: the flag's own quotes get the one word."""
    doc = Doc(client, (tmp_path / "deploy.yaml").as_uri(), FLOW)
    _found, fixed = await _fix(client, doc, "VC101", "Replace with '--reasoning-parser=qwen3'")
    assert fixed == FLOW.replace('"--enable-reasoning"', '"--reasoning-parser=qwen3"')
    [container] = yaml.safe_load(fixed)["spec"]["template"]["spec"]["containers"]
    assert container["args"][1] == "--reasoning-parser=qwen3"
    assert not await doc.replace(fixed)
    doc.close()


async def test_a_removal_in_a_template_leaves_an_unresolved_word_after_the_value(
    client: LanguageClient, tmp_path: Path
) -> None:
    """`--swap-space "{{ .Values.s }}" {{ .Values.extra | quote }}`: the removal took the
    last action too, which may be any flag of the user's."""
    template = deployment(
        "vllm/vllm-openai:v0.33.0",
        '["Qwen/Qwen3-8B", "--swap-space", "{{ .Values.s }}", {{ .Values.extra | quote }}]',
    )
    (tmp_path / "templates").mkdir()
    path = tmp_path / "templates" / "deployment.yaml"
    doc = Doc(client, path.as_uri(), template)
    _found, fixed = await _fix(client, doc, "VC101", "Remove '--swap-space {{ .Values.s }}'")
    assert fixed == template.replace('"--swap-space", "{{ .Values.s }}", ', "")
    doc.close()


GPU_VALUES = "vllm:\n  model: Qwen/Qwen3-8B\n  tp: 4\ngpus: 2\n"
GPU_TEMPLATE = deployment(
    "vllm/vllm-openai:v0.33.0",
    '\n            - "{{ .Values.vllm.model }}"\n            - --tensor-parallel-size'
    '\n            - "{{ .Values.vllm.tp }}"',
) + (
    "          resources:\n            limits:\n              nvidia.com/gpu: {{ .Values.gpus }}\n"
)


@pytest.mark.parametrize(
    ("title", "after"),
    [
        ("Set 'vllm.tp: 2'", GPU_VALUES.replace("tp: 4", "tp: 2")),
        ("Request 4 GPUs (gpus: 4)", GPU_VALUES.replace("gpus: 2", "gpus: 4")),
    ],
)
async def test_a_world_too_large_names_the_values_keys_of_both_ways_out(
    client: LanguageClient, tmp_path: Path, title: str, after: str
) -> None:
    """The GPU count the template takes from `gpus` is named `gpus`, not the pod's
    `resources.limits nvidia.com/gpu` that the user does not write in this file."""
    path = small_chart(tmp_path, GPU_VALUES, GPU_TEMPLATE)
    doc = Doc(client, path.as_uri(), GPU_VALUES)
    found, fixed = await _fix(client, doc, "VC703", title)
    assert found.message.endswith("(GPUs per node: 2, from gpus)"), found.message
    assert fixed == after
    yaml.safe_load(fixed)
    assert "VC703" not in [d.code for d in await doc.replace(fixed)]
    doc.close()


@pytest.mark.parametrize(
    ("needle", "skip"),
    [("gpuMemoryUtilization", 3), ("1.5", 1)],
)
async def test_hover_on_a_values_key_names_it_then_the_flag(
    client: LanguageClient, tmp_path: Path, needle: str, skip: int
) -> None:
    """Hovering the key the user edits (or its value) says which flag it sets, with the
    flag's documentation; the key's own name first (it was no hover at all)."""
    path = small_chart(tmp_path, VALUES, TEMPLATE)
    doc = Doc(client, path.as_uri(), VALUES)
    await doc.diagnostics()
    text = await hover_text(client, doc, needle, skip)
    assert text is not None
    first, _, rest = text.partition("\n\n")
    assert (
        first == "`vllm.gpuMemoryUtilization` (this chart's value) sets `--gpu-memory-utilization`"
    )
    assert rest.startswith("**--gpu-memory-utilization")
    doc.close()


async def test_hover_inside_a_json_values_key_documents_the_field(
    client: LanguageClient, tmp_path: Path
) -> None:
    """A values key holding a JSON flag value: on a field of the JSON the hover is that
    field's own documentation, as in a --config file, not the flag's (the values-key
    hover took over the whole value once)."""
    values = "compilationConfig: '{\"encoder_cudagraph_token_budgets\": [2048]}'\n"
    template = deployment(
        '"vllm/vllm-openai:v0.33.0"',
        "\n            - m\n            - --compilation-config\n"
        "            - {{ .Values.compilationConfig | squote }}",
    )
    path = small_chart(tmp_path, values, template)
    doc = Doc(client, path.as_uri(), values)
    await doc.diagnostics()
    text = await hover_text(client, doc, "cudagraph_token", 1)
    assert text is not None
    assert text.startswith("**compilation-config.encoder_cudagraph_token_budgets**"), text
    on_key = await hover_text(client, doc, "compilationConfig", 1)
    assert on_key is not None and on_key.startswith("`compilationConfig` (this chart's value)")
    doc.close()
