"""KServe `InferenceService` (serving.kserve.io/v1beta1) whose predictor model is vLLM's.

Transcribes kserve/kserve config/runtimes/kserve-vllmserver.yaml@9f680738c3e0 (the
`kserve-vllmserver` ClusterServingRuntime, `supportedModelFormats: vLLM`, autoSelect):
the runtime container runs `python -m vllm.entrypoints.openai.api_server
--port=8080 --served-model-name={{.Name}} --model=/mnt/models`, and the controller appends
the predictor model's `args` to the runtime container's (kserve/kserve
pkg/controller/v1beta1/inferenceservice/components/predictor.go@279fb1e56b33). The model
is the predictor pod's container: its `resources` and the predictor's `nodeSelector` /
node affinity say which GPUs it gets.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources import gpu_claims
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.operators.reader import Operator, Reader, args_start
from vllm_config_lsp.sources.yaml_hosts import Frame, get, get_pair, node_span, text_of

#: The runtime the format `vLLM` selects, and the args its container starts with.
_RUNTIME = "kserve-vllmserver"
_ORIGIN = "the kserve-vllmserver runtime"


def _predictor_model(reader: Reader, frame: Frame, node: MappingNode, parent: Node | None) -> None:
    """A `predictor.model` of format vLLM (or on a vLLM runtime): its `args` after the
    runtime's, which are known when the runtime is `kserve-vllmserver` (named, or chosen
    for the format when none is named): then the model starts vLLM even with no `args`."""
    model_format = text_of(get(get(node, "modelFormat"), "name")) or ""
    runtime = text_of(get(node, "runtime")) or ""
    if model_format.lower() != "vllm" and "vllm" not in runtime.lower():
        return
    args = reader.argv(frame, get(node, "args"))
    known = runtime in ("", _RUNTIME)
    if not args and not known:
        return
    words: list[Word] = []
    at = get_pair(node, "runtime") or get_pair(node, "modelFormat")
    anchor = at[0] if at is not None else node
    if known:
        name = get(get(reader.root, "metadata"), "name")
        served = (text_of(name) if name is not None else None) or "{{.Name}}"
        reader.made(words, "--port=8080", _ORIGIN, frame, anchor)
        reader.made(words, f"--served-model-name={served}", _ORIGIN, frame, name or anchor)
        reader.made(words, "--model=/mnt/models", _ORIGIN, frame, anchor)
    if args:
        found = args_start(reader.source, words + args, "api_server")
    else:  # the runtime's own command line: it starts at the key that selects it
        start, end = node_span(frame, anchor)
        found = Invocation(reader.source, "api_server", start, end, words)
    found.model = reader.model_ref(frame, get(node, "storageUri"), "KServe `storageUri`")
    if isinstance(parent, MappingNode):  # the model is the predictor pod's container
        found.gpus = gpu_claims.kubernetes(frame, parent, node)
    reader.found.append(found)


OPERATOR = Operator(
    "KServe InferenceService",
    ("InferenceService (serving.kserve.io)",),
    "kserve/kserve config/runtimes/kserve-vllmserver.yaml@9f680738c3e0",
    node=_predictor_model,
    in_embedded=False,
)
