"""Ray Serve config files (`serve run config.yaml`, `serve deploy`, a RayService's
`serveConfigV2`): what an application gives the deployments it builds.

Each `applications[]` entry's `runtime_env` is the runtime environment of the application's
deployments (ray python/ray/serve/schema.py `ServeApplicationSchema.runtime_env`); a
deployment's own, Ray Serve LLM's `LLMConfig.runtime_env`, is merged over it, its
`env_vars` winning a name both set. So the application's variables come first in the
environment of the starts its `args` build (`sources.kubernetes` reads those), and the
last setting of a name wins, as `Invocation.environment` reads it. The replicas also get
the environment of the Ray nodes they run on, which a Serve config does not show: the
environment of its starts is open.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from yaml.nodes import Node

from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.yaml_hosts import Frame, env_mapping, get, items, node_span

__all__ = ["MODEL_ID_ORIGIN", "with_application_environ"]

#: Where the model comes from when a `model_loading_config` names no `model_source`: Ray
#: loads `model_id` as a Hugging Face id (ray-project/ray
#: python/ray/llm/_internal/serve/core/configs/llm_config.py `ModelLoadingConfig`:
#: "When omitted, defaults to the model_id as a HuggingFace model ID").
MODEL_ID_ORIGIN = "Ray Serve `model_id` (no `model_source`)"


def with_application_environ(
    frame: Frame, root: Node, found: list[Invocation], restore: Callable[[Word], Word]
) -> list[Invocation]:
    """`found` (the starts read from the document `root`) with the `runtime_env.env_vars`
    of the application each lies in put before its own environment."""
    for application in items(get(root, "applications")):
        start, end = node_span(frame, application)
        found = [
            replace(inv, environ_open=True) if start <= inv.start < end else inv for inv in found
        ]
        env_vars = get(get(application, "runtime_env"), "env_vars")
        environ = env_mapping(frame, env_vars, "application runtime_env", restore)
        if not environ:
            continue
        found = [
            replace(inv, environ=(*environ, *inv.environ)) if start <= inv.start < end else inv
            for inv in found
        ]
    return found
