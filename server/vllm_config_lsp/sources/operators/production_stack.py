"""vLLM production-stack: the operator's `VLLMRuntime` (production-stack.vllm.ai) and the
Helm chart's values (`servingEngineSpec.modelSpec[]`).

Transcribes vllm-project/production-stack
operator/internal/controller/vllmruntime_controller.go
@3310887f13027ae0f9cfcd0407638d69fe6e3f3d (`deploymentForVLLMRuntime`) and
helm/templates/deployment-vllm-multi.yaml@f1f9822790e76c4d5ac03303c32ce2073e44c573 with
helm/templates/_helpers.tpl (`chart.container-port`: `servingEngineSpec.containerPort`,
default 8000).
"""

from __future__ import annotations

import json

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources import gpu_claims
from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.operators.reader import LIST, Operator, Reader, python_str
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    distinct,
    get,
    get_pair,
    go_value,
    items,
    key_word,
    text_of,
    value_of,
    value_word,
)

_OPERATOR = "the production-stack operator"
_CHART = "the production-stack chart"


def _vllm_runtime(reader: Reader, frame: Frame, root: Node, kind: str) -> None:
    """production-stack `VLLMRuntime`, as operator/internal/controller/
    vllmruntime_controller.go (`deploymentForVLLMRuntime`) builds the args of
    `/opt/venv/bin/vllm serve`: modelURL positional, `--host 0.0.0.0 --port <port>`,
    booleans always as `--x`/`--no-x`, sizes only when above 0, `extraArgs`, then the
    LMCache `--kv-transfer-config`."""
    if kind != "VLLMRuntime":
        return
    spec = get(root, "spec")
    model_pair = get_pair(spec, "model")
    model = model_pair[1] if model_pair is not None else None
    config = get(spec, "vllmConfig")
    words: list[Word] = []

    def flag(owner: Node | None, key: str, name: str) -> Node | None:
        pair = get_pair(owner, key)
        if pair is not None:
            words.append(key_word(frame, pair[0], name))
            return pair[1]
        return None

    def sized(owner: Node | None, key: str, name: str, *, string: bool = False) -> None:
        pair = get_pair(owner, key)
        loaded = value_of(pair[1]) if pair is not None else None
        if pair is None or loaded is None:
            return
        if string and str(loaded) == "":
            return
        if not string and not (isinstance(loaded, (int, float)) and loaded > 0):
            return
        words.append(key_word(frame, pair[0], name))
        text = str(loaded) if string else python_str(int(loaded))
        words.append(value_word(frame, pair[1], text))

    url = get(model, "modelURL")
    if url is not None:
        words.append(value_word(frame, url, str(value_of(url) or "")))
    anchor = model_pair[0] if model_pair is not None else root
    config_pair = get_pair(spec, "vllmConfig")
    config_key = config_pair[0] if config_pair is not None else anchor
    reader.made(words, "--host", _OPERATOR, frame, anchor)
    reader.made(words, "0.0.0.0", _OPERATOR, frame, anchor)
    port = get_pair(config, "port")
    if port is not None:
        words.append(key_word(frame, port[0], "--port"))
        words.append(value_word(frame, port[1], str(value_of(port[1]))))
    if value_of(get(model, "enableLoRA")) is True:
        flag(model, "enableLoRA", "--enable-lora")
    if value_of(get(model, "enableTool")) is True:
        flag(model, "enableTool", "--enable-auto-tool-choice")
    sized(model, "toolCallParser", "--tool-call-parser", string=True)
    for key, name in (
        ("enableChunkedPrefill", "enable-chunked-prefill"),
        ("enablePrefixCaching", "enable-prefix-caching"),
    ):
        on = value_of(get(config, key)) is True
        if flag(config, key, f"--{name}" if on else f"--no-{name}") is None:
            reader.made(words, f"--no-{name}", _OPERATOR, frame, config_key)
    sized(model, "maxModelLen", "--max-model-len")
    sized(model, "dtype", "--dtype", string=True)
    sized(config, "tensorParallelSize", "--tensor-parallel-size")
    sized(model, "maxNumSeqs", "--max-num-seqs")
    sized(config, "gpuMemoryUtilization", "--gpu_memory_utilization", string=True)
    sized(config, "maxLoras", "--max_loras")
    words.extend(reader.argv(frame, get(config, "extraArgs")))
    template = get_pair(model, "chatTemplate")
    if template is not None and value_of(template[1]):
        words.append(key_word(frame, template[0], "--chat-template"))
        words.append(value_word(frame, template[1], "/etc/chat-template.json"))
    cache = get_pair(spec, "lmCacheConfig")
    enabled = get(cache[1], "enabled") if cache is not None else None
    if cache is not None and enabled is not None and value_of(enabled) is True:
        v1 = value_of(get(config, "v1")) is True
        connector = "LMCacheConnectorV1" if v1 else "LMCacheConnector"
        words.append(key_word(frame, cache[0], "--kv-transfer-config"))
        words.append(
            value_word(frame, enabled, f'{{"kv_connector":"{connector}","kv_role":"kv_both"}}')
        )
    if model_pair is not None:
        image = get(get(get(spec, "deploymentConfig"), "image"), "name")
        reader.mapped(frame, model_pair[0], "serve", words, image=text_of(image))


def _values(reader: Reader, frame: Frame, node: MappingNode, parent: Node | None) -> None:
    """production-stack Helm values: each `servingEngineSpec.modelSpec[]` entry, as
    helm/templates/deployment-vllm-multi.yaml renders its `vllm serve` command (values
    go through `quote`, so numbers print the way Go prints a float64)."""
    engine = get(node, "servingEngineSpec")
    if not isinstance(engine, MappingNode):
        return
    if value_of(get(engine, "enableEngine")) is False:
        return
    for spec in distinct(items(get(engine, "modelSpec"))):
        if isinstance(spec, MappingNode) and get(spec, "raySpec") is None:
            _model_spec(reader, frame, spec, engine)


def _model_spec(reader: Reader, frame: Frame, spec: MappingNode, engine: MappingNode) -> None:
    """One `modelSpec[]` entry in the chart's order: the model, then `--host 0.0.0.0
    --port` the chart's `chart.container-port` (`servingEngineSpec.containerPort`, else
    8000), which the chart writes."""
    words: list[Word] = []

    def quoted(owner: Node | None, key: str, name: str, *, when: str = "has") -> None:
        pair = get_pair(owner, key)
        if pair is None:
            return
        loaded = value_of(pair[1])
        if when == "truthy" and not loaded:
            return
        words.append(key_word(frame, pair[0], name))
        words.append(value_word(frame, pair[1], go_value(loaded)))

    url = get_pair(spec, "modelURL")
    if url is not None:
        words.append(value_word(frame, url[1], go_value(value_of(url[1]))))
    anchor = url[0] if url is not None else (spec.value[0][0] if spec.value else spec)
    port = get(engine, "containerPort")
    reader.made(words, "--host", _CHART, frame, anchor)
    reader.made(words, "0.0.0.0", _CHART, frame, anchor)
    reader.made(words, "--port", _CHART, frame, anchor)
    number = go_value(value_of(port)) if port is not None else ""
    reader.made(words, number or "8000", _CHART, frame, port if number else anchor)
    for key, name in (
        ("enableLoRA", "--enable-lora"),
        ("enableTool", "--enable-auto-tool-choice"),
    ):
        pair = get_pair(spec, key)
        if pair is not None and value_of(pair[1]):
            words.append(key_word(frame, pair[0], name))
    quoted(spec, "toolCallParser", "--tool-call-parser", when="truthy")
    config_pair = get_pair(spec, "vllmConfig")
    config = config_pair[1] if config_pair is not None else None
    if config_pair is not None and isinstance(config, MappingNode) and config.value:
        chunked = get_pair(config, "enableChunkedPrefill")
        if chunked is not None:
            on = bool(value_of(chunked[1]))
            name = "--enable-chunked-prefill" if on else "--no-enable-chunked-prefill"
            words.append(key_word(frame, chunked[0], name))
        caching = get_pair(config, "enablePrefixCaching")
        if caching is not None:
            on = bool(value_of(caching[1]))
            name = "--enable-prefix-caching" if on else "--no-enable-prefix-caching"
            words.append(key_word(frame, caching[0], name))
        else:  # the chart's `if .enablePrefixCaching … else`
            reader.made(words, "--no-enable-prefix-caching", _CHART, frame, config_pair[0])
        for key, name in (
            ("maxModelLen", "--max-model-len"),
            ("dtype", "--dtype"),
            ("tensorParallelSize", "--tensor-parallel-size"),
            ("maxNumSeqs", "--max-num-seqs"),
            ("gpuMemoryUtilization", "--gpu_memory_utilization"),
            ("maxLoras", "--max_loras"),
        ):
            quoted(config, key, name)
        extra = get(config, "extraArgs")
        if value_of(extra):
            for item in items(extra):
                words.append(value_word(frame, item, go_value(value_of(item)), LIST))
    cache_pair = get_pair(spec, "lmcacheConfig")
    cache = cache_pair[1] if cache_pair is not None else None
    if cache_pair is not None and value_of(cache) and value_of(get(cache, "enabled")):
        role = value_of(get(cache, "kvRole")) or "kv_both"
        if get(cache, "enablePD") is not None:
            nixl = json.dumps(go_value(value_of(get(cache, "nixlRole"))))
            value = (
                f'{{"kv_connector":"LMCacheConnectorV1","kv_role":"{role}",'
                f'"kv_connector_extra_config":{{"discard_partial_chunks": false, '
                f'"lmcache_rpc_port": {nixl}}}}}'
            )
        elif str(value_of(get(config, "v0"))) == "1":
            value = f'{{"kv_connector":"LMCacheConnector","kv_role":"{role}"}}'
        else:
            value = f'{{"kv_connector":"LMCacheConnectorV1","kv_role":"{role}"}}'
        words.append(key_word(frame, cache_pair[0], "--kv-transfer-config"))
        assert cache is not None
        words.append(value_word(frame, cache, value))
    template = get_pair(spec, "chatTemplate")
    if template is not None and value_of(template[1]):
        words.append(key_word(frame, template[0], "--chat-template"))
        words.append(value_word(frame, template[1], f"/templates/{value_of(template[1])}"))
    repository = text_of(get(spec, "repository"))
    tag = text_of(get(spec, "tag"))
    image = f"{repository}:{tag}" if repository and tag else repository
    reader.mapped(frame, anchor, "serve", words, image=image, source="helm")
    reader.found[-1].gpus = gpu_claims.production_stack(frame, spec)


OPERATOR = Operator(
    "vLLM production-stack",
    ("VLLMRuntime (production-stack.vllm.ai)", "Helm values `servingEngineSpec.modelSpec`"),
    "vllm-project/production-stack helm/templates/deployment-vllm-multi.yaml@f1f9822",
    document=_vllm_runtime,
    node=_values,
)
