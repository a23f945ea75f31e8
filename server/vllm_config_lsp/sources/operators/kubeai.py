"""KubeAI `Model` (kubeai.org/v1), and its models chart's catalog entries.

Transcribes substratusai/kubeai internal/modelcontroller/engine_vllm.go
@85440f180cfd36daea99ff6923f649fb278d67d9 (`vLLMPodForModel`): with `engine: VLLM` the
controller runs `python3 -m vllm.entrypoints.openai.api_server` with
`--model=<url>` and `--served-model-name=<metadata.name>` first, then `spec.args`.
"""

from __future__ import annotations

from yaml.nodes import MappingNode

from vllm_config_lsp.sources import gpu_claims
from vllm_config_lsp.sources.operators.reader import Operator, Reader, args_start
from vllm_config_lsp.sources.yaml_hosts import Frame, get, text_of


def _model(reader: Reader, frame: Frame, node: MappingNode) -> None:
    """With `engine: VLLM`, `args` are flags appended after the two the controller
    generates (no text here, so not words)."""
    engine = text_of(get(node, "engine"))
    if engine is None or engine.lower() != "vllm":
        return
    args = reader.argv(frame, get(node, "args"))
    if args:
        found = args_start(reader.source, args, "serve")
        found.model = reader.model_ref(frame, get(node, "url"), "KubeAI `url`")
        found.gpus = gpu_claims.kubeai(frame, node)
        reader.found.append(found)


OPERATOR = Operator(
    "KubeAI",
    ("Model (kubeai.org)", "charts/models values `catalog`"),
    "substratusai/kubeai internal/modelcontroller/engine_vllm.go@85440f1",
    node=_model,
)
