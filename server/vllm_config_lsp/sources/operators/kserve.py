"""KServe `InferenceService` (serving.kserve.io/v1beta1) whose predictor model is vLLM's.

Transcribes kserve/kserve config/runtimes/kserve-vllmserver.yaml@9f680738c3e0 (the
`kserve-vllmserver` ClusterServingRuntime, `supportedModelFormats: vLLM`, autoSelect):
the runtime container runs `python -m vllm.entrypoints.openai.api_server
--port=8080 --served-model-name={{.Name}} --model=/mnt/models`, and the controller appends
the predictor model's `args` to the runtime container's (kserve/kserve
pkg/controller/v1beta1/inferenceservice/components/predictor.go@279fb1e56b33).
"""

from __future__ import annotations

from yaml.nodes import MappingNode

from vllm_config_lsp.sources.operators.reader import Operator, Reader, args_start
from vllm_config_lsp.sources.yaml_hosts import Frame, get, text_of


def _predictor_model(reader: Reader, frame: Frame, node: MappingNode) -> None:
    """A `predictor.model` of format vLLM (or on a vLLM runtime): its `args` after the
    runtime's."""
    model_format = text_of(get(get(node, "modelFormat"), "name")) or ""
    runtime = text_of(get(node, "runtime")) or ""
    if model_format.lower() != "vllm" and "vllm" not in runtime.lower():
        return
    args = reader.argv(frame, get(node, "args"))
    if args:
        found = args_start(reader.source, args, "api_server")
        found.model = reader.model_ref(frame, get(node, "storageUri"), "KServe `storageUri`")
        reader.found.append(found)


OPERATOR = Operator(
    "KServe InferenceService",
    ("InferenceService (serving.kserve.io)",),
    "kserve/kserve config/runtimes/kserve-vllmserver.yaml@9f680738c3e0",
    node=_predictor_model,
    in_embedded=False,
)
