"""KServe `InferenceService` (serving.kserve.io/v1beta1) whose predictor model is vLLM's.

Transcribes kserve/kserve config/runtimes/kserve-vllmserver.yaml@9f680738c3e0 (the
`kserve-vllmserver` ClusterServingRuntime, `supportedModelFormats: vLLM`, autoSelect):
the runtime container runs `python -m vllm.entrypoints.openai.api_server
--port=8080 --served-model-name={{.Name}} --model=/mnt/models`, and the controller appends
the predictor model's `args` to the runtime container's (kserve/kserve
pkg/controller/v1beta1/inferenceservice/components/predictor.go@279fb1e56b33).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.operators.reader import Operator, Reader, args_start
from vllm_config_lsp.sources.yaml_hosts import Frame, get, get_pair, text_of

#: The runtime the format `vLLM` selects, and the args its container starts with.
_RUNTIME = "kserve-vllmserver"
_ORIGIN = "the kserve-vllmserver runtime"


def _predictor_model(reader: Reader, frame: Frame, node: MappingNode, parent: Node | None) -> None:
    """A `predictor.model` of format vLLM (or on a vLLM runtime): its `args` after the
    runtime's, which are known when the runtime is `kserve-vllmserver` (named, or chosen
    for the format when none is named)."""
    model_format = text_of(get(get(node, "modelFormat"), "name")) or ""
    runtime = text_of(get(node, "runtime")) or ""
    if model_format.lower() != "vllm" and "vllm" not in runtime.lower():
        return
    args = reader.argv(frame, get(node, "args"))
    if not args:
        return
    words: list[Word] = []
    if runtime in ("", _RUNTIME):
        at = get_pair(node, "runtime") or get_pair(node, "modelFormat")
        anchor = at[0] if at is not None else node
        name = get(get(reader.root, "metadata"), "name")
        served = (text_of(name) if name is not None else None) or "{{.Name}}"
        reader.made(words, "--port=8080", _ORIGIN, frame, anchor)
        reader.made(words, f"--served-model-name={served}", _ORIGIN, frame, name or anchor)
        reader.made(words, "--model=/mnt/models", _ORIGIN, frame, anchor)
    found = args_start(reader.source, words + args, "api_server")
    found.model = reader.model_ref(frame, get(node, "storageUri"), "KServe `storageUri`")
    reader.found.append(found)


OPERATOR = Operator(
    "KServe InferenceService",
    ("InferenceService (serving.kserve.io)",),
    "kserve/kserve config/runtimes/kserve-vllmserver.yaml@9f680738c3e0",
    node=_predictor_model,
    in_embedded=False,
)
