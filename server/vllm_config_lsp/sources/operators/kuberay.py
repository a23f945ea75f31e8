"""Ray Serve LLM applications, in a KubeRay `RayService` (ray.io) `serveConfigV2` or a
Serve config file: `engine_kwargs` of an `LLMConfig` (and RayLLM's `engine_config` of type
VLLMEngine), keywords of `AsyncEngineArgs` (`Invocation.keywords_of`), with the GPU its
`accelerator_type` names.

Transcribes ray-project/ray python/ray/llm/_internal/serve/core/configs/llm_config.py
@697db261a21ae1af89c705bcc3a941e9e5c845c7 (`LLMConfig.engine_kwargs`, handed to vLLM's
`AsyncEngineArgs`) and ray-project/kuberay
ray-operator/config/samples/ray-service.llm-serve.yaml@3adcb43c9244
(the Serve config a `RayService` holds as a YAML string in `serveConfigV2`).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources import gpu_claims, ray_serve
from vllm_config_lsp.sources.engine_kwargs import engine_kwargs_words
from vllm_config_lsp.sources.operators.reader import Operator, Reader
from vllm_config_lsp.sources.yaml_hosts import Frame, env_mapping, get, get_pair, text_of


def _engine_kwargs(reader: Reader, frame: Frame, node: MappingNode, parent: Node | None) -> None:
    """Ray Serve LLM `engine_kwargs` (and RayLLM's `engine_config` of type VLLMEngine):
    keyword arguments of vLLM's `AsyncEngineArgs`, not a command line; the words are
    the command line that means the same (`sources.engine_kwargs`)."""
    pair = get_pair(node, "engine_kwargs")
    if pair is None or not isinstance(pair[1], MappingNode):
        return
    ray_like = (
        get(node, "model_loading_config") is not None
        or text_of(get(node, "type")) == "VLLMEngine"
        or get(node, "llm_config") is not None
    )
    if not ray_like:
        return
    words = engine_kwargs_words(frame, pair[1], syntax="yaml")
    reader.mapped(frame, pair[0], "serve", words)
    started = reader.found[-1]
    started.keywords_of = "AsyncEngineArgs"
    loading = get(node, "model_loading_config")
    source = get(loading, "model_source")
    if source is not None or get(loading, "model_id") is None:
        started.model = reader.model_ref(frame, source, "Ray Serve `model_source`")
    else:  # `ModelLoadingConfig.model_source`: "When omitted, defaults to the model_id"
        started.model = reader.model_ref(frame, get(loading, "model_id"), ray_serve.MODEL_ID_ORIGIN)
    started.gpus = gpu_claims.ray_accelerator(frame, node)
    env_vars = get(get(node, "runtime_env"), "env_vars")
    started.environ = env_mapping(frame, env_vars, "runtime_env", reader.masked.restore_word)


def _applications(reader: Reader, frame: Frame, root: Node, _kind: str, before: int) -> None:
    """The starts a Serve config's applications build get each application's own
    `runtime_env` first (`sources.ray_serve`)."""
    reader.found[before:] = ray_serve.with_application_environ(
        frame, root, reader.found[before:], reader.masked.restore_word
    )


OPERATOR = Operator(
    "Ray Serve LLM (KubeRay)",
    ("RayService (ray.io) `serveConfigV2`", "Serve config `applications[].args.llm_configs`"),
    "ray-project/ray python/ray/llm/_internal/serve/core/configs/llm_config.py@697db26",
    node=_engine_kwargs,
    embedded_keys=frozenset({"serveConfigV2", "serveConfig"}),
    finish=_applications,
)
