"""Turn YAML nodes and JSON-in-YAML strings into positioned `ValueNode`s.

vLLM hands a YAML mapping to argparse as `json.dumps(value)` and a string as-is; the config
classes then read it back with a JSON parser. Both paths are reproduced here so the tree a
rule sees equals what vLLM validates, with every piece pointing back into the file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.document.json_positions import (
    JsonArray,
    JsonError,
    JsonNode,
    JsonObject,
    parse_json,
)
from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.document.yaml_edits import content_end, whole_lines
from vllm_config_lsp.document.yaml_scalars import scalar_source_map
from vllm_config_lsp.document.yaml_tree import construct_scalar, mapping_pairs


def _json_key(value: Any) -> str:
    """json.dumps' key coercion (`json.encoder` `_iterencode_dict`); other key types never
    get here because vLLM's own `json.dumps` already failed on them (config_file.config_words)."""
    if isinstance(value, str):
        return value
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return repr(value) if isinstance(value, float) else str(value)


def yaml_to_value(node: Node, text: str) -> ValueNode:
    """The value `json.loads(json.dumps(yaml_value))` gives, positioned on YAML nodes."""
    start, end = node.start_mark.index, node.end_mark.index
    block = {} if isinstance(node, ScalarNode) else {"block": not node.flow_style}  # type: ignore[attr-defined]
    if isinstance(node, MappingNode):
        entries: list[Entry] = []
        result: dict[str, Any] = {}
        for key_node, value_node in mapping_pairs(node):
            key = _json_key(
                construct_scalar(key_node) if isinstance(key_node, ScalarNode) else None
            )
            child = yaml_to_value(value_node, text)
            key_start = key_node.start_mark.index
            value_end = content_end(text, value_node)
            entry = Entry(key, key_start, key_node.end_mark.index, child, key_start, value_end)
            if block["block"]:
                entry.remove_span = whole_lines(text, key_start, value_end)
            entries.append(entry)
            result[key] = child.value
        return ValueNode(start, end, result, entries=entries, meta=block)
    if isinstance(node, SequenceNode):
        items = [yaml_to_value(item, text) for item in node.value]
        for item, item_node in zip(items, node.value, strict=True):
            item.end = content_end(text, item_node)
        return ValueNode(start, end, [item.value for item in items], items=items, meta=block)
    value = construct_scalar(node)  # type: ignore[arg-type]
    return ValueNode(start, content_end(text, node), value)


@dataclass
class JsonProblem:
    start: int
    end: int
    message: str


def json_in_scalar(
    text: str, node: ScalarNode, *, human_numbers: bool = False
) -> ValueNode | JsonProblem:
    """Parse a YAML string scalar as JSON, with positions inside the scalar's source."""
    raw: str = node.value
    # Checked against the node's value: a wrong reconstruction gives no map, not wrong places.
    source = scalar_source_map(
        text, node.start_mark.index, node.end_mark.index, node.style, value=raw
    )
    whole = (node.start_mark.index, node.end_mark.index)

    def place(a: int, b: int) -> tuple[int, int]:
        return whole if source is None else source.source_range(a, b)

    return json_in_text(raw, place, human_numbers=human_numbers)


def json_in_text(
    raw: str, place: Callable[[int, int], tuple[int, int]], *, human_numbers: bool = False
) -> ValueNode | JsonProblem:
    """Parse `raw` as JSON; `place` maps a range of `raw` to its range in the document."""
    try:
        tree = parse_json(raw, human_readable_numbers=human_numbers)
    except JsonError as error:
        start, end = place(error.pos, min(error.pos + 1, len(raw)))
        return JsonProblem(start, max(end, start), error.msg)
    return _convert(tree, place)


def json_in_string(
    raw: str, start: int, end: int, *, human_numbers: bool = False
) -> ValueNode | JsonProblem:
    """A JSON string that does not sit literally in the file (e.g. `str()` of a number):
    every piece points at the whole source span."""
    try:
        tree = parse_json(raw, human_readable_numbers=human_numbers)
    except JsonError as error:
        return JsonProblem(start, end, error.msg)
    return _convert(tree, lambda a, b: (start, end))


def _convert(root: JsonNode, place: Any) -> ValueNode:
    """The positioned value tree of a JSON tree, built without recursion (JSON nests as
    deep as `parse_json` allows)."""
    built: dict[int, ValueNode] = {}
    todo: list[tuple[JsonNode, bool]] = [(root, False)]
    while todo:
        node, children_done = todo.pop()
        if isinstance(node, (JsonObject, JsonArray)) and not children_done:
            todo.append((node, True))
            children = (
                [child for _, child in node.members] if isinstance(node, JsonObject) else node.items
            )
            todo.extend((child, False) for child in reversed(children))
            continue
        start, end = place(node.start, node.end)
        if isinstance(node, JsonObject):
            entries = []
            for key, child in node.members:
                key_start, key_end = place(key.start, key.end)
                value = built.pop(id(child))
                entries.append(Entry(key.value, key_start, key_end, value, key_start, value.end))
            result = {entry.key: entry.value.value for entry in entries}
            built[id(node)] = ValueNode(start, end, result, entries=entries, origin="json")
        elif isinstance(node, JsonArray):
            items = [built.pop(id(item)) for item in node.items]
            value_list = [i.value for i in items]
            built[id(node)] = ValueNode(start, end, value_list, items=items, origin="json")
        else:
            built[id(node)] = ValueNode(start, end, node.value, origin="json")
    return built[id(root)]
