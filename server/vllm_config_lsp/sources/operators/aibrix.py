"""AIBrix batch `ModelDeploymentTemplate`s whose engine is vLLM.

Transcribes vllm-project/aibrix python/aibrix/aibrix/batch/manifest/engine_adapter.py
@934c0214e349d086354d80854d69f93ae72179c2 (`_build_vllm_args`).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.operators.reader import Operator, Reader, python_str
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    get,
    get_pair,
    items,
    key_word,
    pairs,
    text_of,
    value_of,
    value_word,
)


def _deployment_template(
    reader: Reader, frame: Frame, node: MappingNode, parent: Node | None
) -> None:
    """An AIBrix batch ModelDeploymentTemplate whose engine is vLLM, rendered as
    python/aibrix/aibrix/batch/manifest/engine_adapter.py `_build_vllm_args` does:
    model source, parallelism above 1, typed engine args, the other engine args
    sorted (`key` → `--key-with-dashes`), quantization, then `serve_args` verbatim."""
    spec = get(node, "spec")
    engine = get(spec, "engine")
    source = get(spec, "model_source")
    if not isinstance(source, MappingNode) or text_of(get(engine, "type")) != "vllm":
        return
    words: list[Word] = []

    def option(owner: Node | None, key: str, flag: str, *, bare: bool = False) -> None:
        pair = get_pair(owner, key)
        if pair is None:
            return
        loaded = value_of(pair[1])
        if loaded is None or (bare and not loaded) or loaded == "":
            return
        words.append(key_word(frame, pair[0], flag))
        if not bare:
            words.append(value_word(frame, pair[1], python_str(loaded)))

    option(source, "uri", "--model")
    option(source, "revision", "--revision")
    option(source, "tokenizer_path", "--tokenizer")
    option(source, "chat_template_path", "--chat-template")
    parallelism = get(spec, "parallelism")
    for key, flag in (
        ("tp", "--tensor-parallel-size"),
        ("pp", "--pipeline-parallel-size"),
        ("dp", "--data-parallel-size"),
    ):
        size = value_of(get(parallelism, key))
        if isinstance(size, int) and not isinstance(size, bool) and size > 1:
            option(parallelism, key, flag)
    engine_args = get(spec, "engine_args")
    typed = (
        ("max_num_batched_tokens", "--max-num-batched-tokens", False),
        ("max_num_seqs", "--max-num-seqs", False),
        ("max_model_len", "--max-model-len", False),
        ("gpu_memory_utilization", "--gpu-memory-utilization", False),
        ("block_size", "--block-size", False),
        ("swap_space", "--swap-space", False),
        ("enable_prefix_caching", "--enable-prefix-caching", True),
        ("enable_chunked_prefill", "--enable-chunked-prefill", True),
        ("speculative_model", "--speculative-model", False),
    )
    for key, flag, bare in typed:
        option(engine_args, key, flag, bare=bare)
        if key == "speculative_model" and value_of(get(engine_args, key)):
            option(engine_args, "num_speculative_tokens", "--num-speculative-tokens")
    names = {key for key, _, _ in typed} | {"num_speculative_tokens"}
    extras: list[tuple[str, Node, Node]] = []
    for key_node, value_node in pairs(engine_args):
        extra = value_of(key_node)
        if isinstance(extra, str) and extra not in names:
            extras.append((extra, key_node, value_node))
    extras.sort(key=lambda entry: entry[0])
    for name, key_node, value in extras:
        loaded = value_of(value)
        if loaded is None:
            continue  # model_dump(exclude_none=True)
        flag = "--" + name.strip().lstrip("-").replace("_", "-")
        if isinstance(loaded, bool):
            if loaded:
                words.append(key_word(frame, key_node, flag))
        elif isinstance(loaded, list):
            for item_node, item in zip(items(value), loaded, strict=False):
                words.append(key_word(frame, key_node, flag))
                words.append(value_word(frame, item_node, str(item)))
        elif str(loaded).strip() == "":
            words.append(key_word(frame, key_node, flag))
        else:
            words.append(key_word(frame, key_node, flag))
            words.append(value_word(frame, value, str(loaded).strip()))
    quantization = get(spec, "quantization")
    option(quantization, "weight", "--quantization")
    option(quantization, "kv_cache", "--kv-cache-dtype")
    words.extend(reader.argv(frame, get(engine, "serve_args")))
    anchor = node.value[0][0] if node.value else node
    image = text_of(get(engine, "image"))
    reader.mapped(frame, anchor, "serve", words, image=image)


OPERATOR = Operator(
    "AIBrix batch",
    ("ModelDeploymentTemplate (AIBrix batch)",),
    "vllm-project/aibrix python/aibrix/aibrix/batch/manifest/engine_adapter.py@934c021",
    node=_deployment_template,
)
