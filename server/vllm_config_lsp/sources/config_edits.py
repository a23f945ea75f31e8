"""Edits to a `--config` file in its own syntax: the YAML twin of `rendering`.

A rule states what to change in the argv (remove a flag, write a value, add a flag beside
another, remove keys or items of a JSON value); where the argv came from decides the text
that says it. A command line's words are edited by `rendering`; a `--config` file's
entries (`yaml_origin.Pair`) and the value trees inside them by this module, so the rules
outside `rules/loader/` never read YAML nodes (the import-linter contract in
`pyproject.toml`). Removals take whole lines, so comments and layout elsewhere stay as
they are (`document.yaml_edits`).
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from yaml.nodes import Node

from vllm_config_lsp.document import yaml_edits
from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.document.yaml_values import yaml_to_value
from vllm_config_lsp.findings import TextEdit
from vllm_config_lsp.sources.yaml_origin import Pair

#: A place in a `--config` file (a YAML node: a key, a value, an item). Rules get it from a
#: word's origin and hand it back to this module; they never read it.
Place = Node


def entry_span(text: str, pair: Pair) -> tuple[int, int]:
    """The whole `key: value` of a top-level entry, up to the end of the value's own text
    (a block collection's end mark sits at the next key, after comments)."""
    return pair.key_node.start_mark.index, yaml_edits.content_end(text, pair.value_node)


def value_span(text: str, node: Place) -> tuple[int, int]:
    """A value's own text (a block collection up to its last child)."""
    return node.start_mark.index, yaml_edits.content_end(text, node)


def remove_entry(text: str, pair: Pair) -> TextEdit | None:
    """Remove a top-level entry with its lines; None when other content shares them."""
    return yaml_edits.remove_lines(text, *entry_span(text, pair))


def add_entry_after(text: str, pair: Pair, key: str, value: str) -> TextEdit | None:
    """Insert `key: value` on its own line below the entry `pair`, at its indentation;
    None when the entry shares a line with other content."""
    start = pair.key_node.start_mark.index
    lines = yaml_edits.whole_lines(text, *entry_span(text, pair))
    if lines is None:
        return None
    line_start = max(text.rfind("\n", 0, start), text.rfind("\r", 0, start)) + 1
    indent = text[line_start:start]
    end = lines[1]
    newline = "" if end > 0 and text[end - 1] in "\r\n" else "\n"
    return TextEdit(end, end, f"{newline}{indent}{key}: {value}\n")


def replace_value(text: str, node: Place, new_text: str) -> TextEdit:
    """Write `new_text` over a value node's own text."""
    return TextEdit(*value_span(text, node), new_text)


def fill_value(text: str, node: Place, new_text: str) -> TextEdit:
    """Write `new_text` as an empty value (`key:`, `key: ""`, the item of `key: [null]`):
    over the node, after a space when nothing follows the colon."""
    start, end = node.start_mark.index, node.end_mark.index
    if start == end and text[start - 1 : start] == ":":
        new_text = " " + new_text
    return TextEdit(start, end, new_text)


def single_quoted(text: str) -> str:
    """`text` as a YAML single-quoted scalar."""
    return "'" + text.replace("'", "''") + "'"


def write_string(text: str, node: Place, string: str) -> TextEdit:
    """Replace a value by the YAML string `string` (single-quoted)."""
    return replace_value(text, node, single_quoted(string))


def replace_after_key(text: str, pair: Pair, string: str) -> tuple[TextEdit, str] | None:
    """Replace everything after the key's colon by the one-line string `string`, so a block
    mapping becomes one line; with the text replaced (a fix is unsafe where it held
    comments). None when the colon is not found before the value."""
    colon = text.find(":", pair.key_node.end_mark.index)
    end = yaml_edits.content_end(text, pair.value_node)
    if colon == -1 or colon >= pair.value_node.start_mark.index:
        return None
    return TextEdit(colon + 1, end, " " + single_quoted(string)), text[colon + 1 : end]


_VALUES: WeakKeyDictionary[Node, ValueNode] = WeakKeyDictionary()


def value_tree(text: str, pair: Pair) -> ValueNode:
    """A top-level value as a positioned tree, built once however often it is asked for."""
    node = pair.value_node
    found = _VALUES.get(node)
    if found is None:
        found = _VALUES[node] = yaml_to_value(node, text)
    return found


def remove_member(text: str, container: ValueNode, entry: Entry) -> TextEdit | None:
    """Remove a key of a positioned value (YAML block or flow, JSON in any quoting)."""
    return yaml_edits.remove_entry(text, container, entry)


def remove_items(text: str, container: ValueNode, drop: set[int]) -> list[TextEdit] | None:
    """Remove the items `drop` of a positioned list; None when no clean removal exists."""
    return yaml_edits.remove_items(text, container, drop)
