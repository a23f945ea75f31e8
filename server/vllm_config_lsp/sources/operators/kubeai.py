"""KubeAI `Model` (kubeai.org/v1), and its models chart's catalog entries.

Transcribes substratusai/kubeai internal/modelcontroller/engine_vllm.go
@85440f180cfd36daea99ff6923f649fb278d67d9 (`vLLMPodForModel`): with `engine: VLLM` the
controller runs `python3 -m vllm.entrypoints.openai.api_server` with
`--model=<url>` and `--served-model-name=<metadata.name>` first, then `spec.args`.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources import gpu_claims
from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.operators.reader import Operator, Reader, args_start
from vllm_config_lsp.sources.yaml_hosts import Frame, get, text_of

_ORIGIN = "the KubeAI controller"


def _model(reader: Reader, frame: Frame, node: MappingNode, parent: Node | None) -> None:
    """With `engine: VLLM`, `args` are appended after the two flags the controller writes:
    `--model=` the Hugging Face repository of `url` (the cache directory with a
    `cacheProfile`), `--served-model-name=` the Model's name (a catalog entry's key)."""
    engine = text_of(get(node, "engine"))
    if engine is None or engine.lower() != "vllm":
        return
    args = reader.argv(frame, get(node, "args"))
    if not args:
        return
    url = get(node, "url")
    words: list[Word] = []
    if url is not None:  # a snippet that elides the Model's source: nothing to say of it
        name = _name(node, parent)
        source = text_of(url) or ""
        repo = source.removeprefix("hf://").rstrip("/") if source.startswith("hf://") else ""
        if not repo or get(node, "cacheProfile") is not None:
            repo = "$(MODEL_DIR)"  # a cache or another store: a path this file does not show
        reader.made(words, f"--model={repo}", _ORIGIN, frame, url)
        served = text_of(name) if name is not None else None
        reader.made(
            words, f"--served-model-name={served or '$(NAME)'}", _ORIGIN, frame, name or url
        )
    found = args_start(reader.source, words + args, "api_server")
    found.model = reader.model_ref(frame, url, "KubeAI `url`")
    found.gpus = gpu_claims.kubeai(frame, node)
    reader.found.append(found)


def _name(node: MappingNode, parent: Node | None) -> Node | None:
    """The Model's name: `metadata.name` of the resource whose `spec` this is, or the key of
    the models chart's `catalog` entry this is."""
    if not isinstance(parent, MappingNode):
        return None
    if get(parent, "spec") is node:
        return get(get(parent, "metadata"), "name")
    return next((key for key, value in parent.value if value is node), None)


OPERATOR = Operator(
    "KubeAI",
    ("Model (kubeai.org)", "charts/models values `catalog`"),
    "substratusai/kubeai internal/modelcontroller/engine_vllm.go@85440f1",
    node=_model,
)
