"""KAITO `Workspace` (kaito.sh) inference: the ConfigMap `inference_config.yaml` it reads.

Transcribes kaito-project/kaito presets/workspace/inference/vllm/inference_api.py
@997577de659c0036b7783df0a588766291945a1c: the runtime appends `f"--{key}"` and
`str(value)` for every key of the file's `vllm:` mapping to the argv of
`vllm.entrypoints.openai.api_server` (so `true` arrives as `True`).
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node

from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.operators.reader import Operator, Reader, python_str
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    get_pair,
    key_word,
    pairs,
    value_of,
    value_word,
)


def _inference_config(reader: Reader, frame: Frame, name: str, root: Node) -> None:
    """A ConfigMap's `inference_config.yaml`: every key of its `vllm:` mapping."""
    if name != "inference_config.yaml":
        return
    pair = get_pair(root, "vllm")
    if pair is None or not isinstance(pair[1], MappingNode):
        return
    words: list[Word] = []
    for key, value in pairs(pair[1]):
        name = value_of(key)
        if name is None:
            continue
        words.append(key_word(frame, key, f"--{name}"))
        words.append(value_word(frame, value, python_str(value_of(value))))
    reader.mapped(frame, pair[0], "api_server", words)


OPERATOR = Operator(
    "KAITO",
    ("ConfigMap `inference_config.yaml` of a Workspace (kaito.sh)",),
    "kaito-project/kaito presets/workspace/inference/vllm/inference_api.py@997577d",
    embedded_file=_inference_config,
)
