"""Text edits that remove or replace pieces of a config while keeping everything else.

Fixes must leave comments and layout elsewhere untouched, so removals work on the source
text: a block-style member or item loses its whole lines; a flow-style or JSON member loses
itself and one neighbouring comma, whatever the quoting around it.
"""

from __future__ import annotations

import json
import weakref
from typing import Any

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import TextEdit


def content_end(text: str, node: Node) -> int:
    """Where a node's own text ends: block collections' end marks sit at the next token
    (after comments and blank lines), so descend to the last child instead."""
    if isinstance(node, (MappingNode, SequenceNode)) and not node.flow_style and node.value:
        last = node.value[-1]
        return content_end(text, last[1] if isinstance(node, MappingNode) else last)
    end = node.end_mark.index
    if isinstance(node, ScalarNode) and node.style in ("|", ">"):
        while end > node.start_mark.index and text[end - 1] in " \t\r\n":
            end -= 1
    return end


def whole_lines(text: str, start: int, end: int) -> tuple[int, int] | None:
    """[start, end) grown to full lines (with the final line break), or None when other
    content shares the first or last line."""
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    if text[line_start:start].strip(" \t"):
        return None
    cursor = end
    while cursor < len(text) and text[cursor] in " \t":
        cursor += 1
    if cursor < len(text) and text[cursor] == "#":
        while cursor < len(text) and text[cursor] not in "\r\n":
            cursor += 1
    if cursor < len(text) and text[cursor] not in "\r\n":
        return None
    if text.startswith("\r\n", cursor):
        cursor += 2
    elif cursor < len(text):
        cursor += 1
    return line_start, cursor


def remove_lines(text: str, start: int, end: int) -> TextEdit | None:
    span = whole_lines(text, start, end)
    return TextEdit(span[0], span[1], "") if span else None


def _between_siblings(text: str, spans: list[tuple[int, int]], index: int) -> TextEdit:
    """Remove sibling `index` of a flow/JSON collection with one adjacent separator."""
    start, end = spans[index]
    if index + 1 < len(spans):
        return TextEdit(start, spans[index + 1][0], "")
    if index > 0:
        return TextEdit(spans[index - 1][1], end, "")
    return TextEdit(start, end, "")


def _remove_block_item(text: str, item: ValueNode) -> TextEdit | None:
    """A `- value` line: the dash indicator precedes the node, include it."""
    line_start = max(text.rfind("\n", 0, item.start), text.rfind("\r", 0, item.start)) + 1
    dash = text.rfind("-", line_start, item.start)
    if dash == -1:
        return None
    return remove_lines(text, dash, item.end)


#: Each flow/JSON container's member positions, built once: a rule removing each of n
#: members asked for the list of spans and the member's index n times (8,000 unknown keys
#: in one mapping took 15 s). Keyed by the container (dropped with it), checked against
#: its member list so a list changed since is indexed again.
_SIBLINGS: weakref.WeakKeyDictionary[
    ValueNode, tuple[list[Entry], int, list[tuple[int, int]], dict[int, int]]
] = weakref.WeakKeyDictionary()


def _siblings(container: ValueNode) -> tuple[list[tuple[int, int]], dict[int, int]]:
    """The container's member spans in order, and each member's index by identity."""
    entries = container.entries or []
    known = _SIBLINGS.get(container)
    if known is not None and known[0] is entries and known[1] == len(entries):
        return known[2], known[3]
    spans = [(e.start, e.end) for e in entries]
    where: dict[int, int] = {}
    for index, member in enumerate(entries):
        where.setdefault(id(member), index)
    _SIBLINGS[container] = (entries, len(entries), spans, where)
    return spans, where


def remove_entry(text: str, container: ValueNode, entry: Entry) -> TextEdit | None:
    if entry.remove_span is not None:
        return TextEdit(*entry.remove_span, "")
    if container.meta.get("block"):
        return remove_lines(text, entry.start, entry.end)
    spans, where = _siblings(container)
    index = where.get(id(entry))
    entries = container.entries or []
    if index is None or entries[index] is not entry:  # a member replaced since: index anew
        _SIBLINGS.pop(container, None)
        spans, where = _siblings(container)
        index = where.get(id(entry))
    if index is None:
        raise ValueError(f"{entry.key!r} is not a member of its container")
    return _between_siblings(text, spans, index)


def remove_items(text: str, container: ValueNode, drop: set[int]) -> list[TextEdit] | None:
    """Edits removing the given items; None when no clean textual removal exists."""
    items = container.items or []
    if container.meta.get("comma_list") and len(drop) >= len(items):
        return None
    if container.meta.get("block"):
        if len(drop) >= len(items):
            return None
        lines = [_remove_block_item(text, items[i]) for i in sorted(drop)]
        return None if any(e is None for e in lines) else [e for e in lines if e is not None]
    edits: list[TextEdit] = []
    index = 0
    while index < len(items):
        if index not in drop:
            index += 1
            continue
        run_end = index
        while run_end + 1 < len(items) and run_end + 1 in drop:
            run_end += 1
        if run_end + 1 < len(items):  # a kept item follows: eat up to it
            edits.append(TextEdit(items[index].start, items[run_end + 1].start, ""))
        elif index > 0:  # run at the end: eat the separator before it
            edits.append(TextEdit(items[index - 1].end, items[run_end].end, ""))
        else:
            edits.append(TextEdit(items[index].start, items[run_end].end, ""))
        index = run_end + 1
    return edits


def render_json(value: Any) -> str:
    return json.dumps(value)
