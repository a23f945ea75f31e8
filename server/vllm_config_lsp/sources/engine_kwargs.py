"""Keyword arguments of vLLM's `AsyncEngineArgs` written as a mapping, read as the command
line that means the same.

Ray Serve LLM's `engine_kwargs` (`sources.kubernetes`) and Triton's `model.json`
(`sources.triton`) hand vLLM a dict of engine-argument field names that becomes
`AsyncEngineArgs(**kwargs)`: no argparse runs. The rules check command lines, so each
entry becomes the flag vLLM's CLI defines for that field, with the value the CLI needs to
give the field the same value:

* `max_model_len: 8` → `--max-model-len 8` (the value as `str()` writes it);
* `true` → the bare flag; so does the string `"true"`, which pydantic's lax validation of
  the config reads as True and Triton's own tutorial writes (`"enforce_eager": "true"`);
* `false`, `"false"` and `null` → nothing: the field keeps its default, which is what a
  command line says by leaving the flag out. `--no-x` would be wrong for the fields whose
  flag is `store_true` (`disable_log_stats: false`, which Triton's README recommends, has
  no `--no-…` form);
* a list of scalars → the flag and one word per item (`nargs="+"`);
* a mapping, or a list holding collections → its JSON: the text as written when it is
  JSON that loads to the same value (each character then maps to itself, so a finding
  inside it lands on the member), else `json.dumps` of the value.

A key's flag word maps every character to the whole key, so a finding on the flag
underlines the key; a bare flag stands for the whole entry (its word ends with the value),
so removing it removes the entry. Keys are quoted `<syntax>-field` and values
`<syntax>-field-value`: `sources.rendering` writes a renamed option back as a field name in
the host's key syntax, and removes a key with its values.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Literal

from yaml.nodes import Node, ScalarNode

from vllm_config_lsp.sources.invocation import Word
from vllm_config_lsp.sources.rendering import FIELD, FIELD_VALUE
from vllm_config_lsp.sources.yaml_hosts import (
    Frame,
    items,
    node_span,
    pairs,
    synthetic_word,
    value_of,
    value_word,
)

__all__ = ["engine_kwargs_words"]

#: How the host writes keys and values: a YAML mapping (Ray) or a JSON object (Triton).
Syntax = Literal["yaml", "json"]


def engine_kwargs_words(frame: Frame, mapping: Node, *, syntax: Syntax) -> list[Word]:
    """The command line that sets the same engine arguments as the mapping, in its order."""
    key_quoting, value_quoting = syntax + FIELD, syntax + FIELD_VALUE
    words: list[Word] = []
    for key, value in pairs(mapping):
        name = value_of(key)
        loaded = value_of(value)
        if not isinstance(name, str) or not name:
            continue
        if isinstance(loaded, str) and loaded.lower() in ("true", "false"):
            loaded = loaded.lower() == "true"
        if loaded is None or loaded is False:
            continue
        start, end = node_span(frame, key)
        flag = replace(
            synthetic_word("--" + name.replace("_", "-"), start, end, key_quoting), field=name
        )
        if loaded is True:
            words.append(replace(flag, end=node_span(frame, value)[1]))
            continue
        words.append(flag)
        if isinstance(loaded, list) and not any(isinstance(i, (dict, list)) for i in loaded):
            for item_node, item in zip(items(value), loaded, strict=False):
                words.append(value_word(frame, item_node, str(item), value_quoting))
        elif isinstance(loaded, (dict, list)):
            words.append(_json_word(frame, value, loaded, value_quoting))
        else:
            words.append(value_word(frame, value, str(loaded), value_quoting))
    return words


def _json_word(frame: Frame, node: Node, loaded: Any, quoting: str) -> Word:
    """A collection's JSON: its own text when that is JSON of the same value (a JSON host,
    a YAML flow mapping written as JSON), character for character; else `json.dumps`."""
    if not isinstance(node, ScalarNode):
        first, last = node.start_mark.index, node.end_mark.index
        written = frame.text[first:last]
        try:
            same = json.loads(written) == loaded
        except (ValueError, RecursionError):
            same = False
        if same:
            start, end = node_span(frame, node)
            starts = tuple(frame.start_of(i) for i in range(first, last))
            ends = tuple(frame.end_of(i + 1) for i in range(first, last))
            return Word(written, start, end, starts, ends, quoting=quoting)
    return value_word(frame, node, json.dumps(loaded), quoting)
