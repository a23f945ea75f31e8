"""Text edits that fold one mapping entry into another, or add a copy of one beside it.

A key renamed to a name the mapping already has would be a duplicate (the YAML loader keeps
the last one); what the fix may do instead depends on the two values: the same value means
the renamed entry can simply go, two block mappings whose shared keys agree can be merged
by moving the other entries across (re-indented, comments on their lines kept). Anything
else has no textual merge that keeps both meanings, and callers offer none.
"""

from __future__ import annotations

import json

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.findings import TextEdit


def same_value(a: ValueNode, b: ValueNode) -> bool:
    """Equal as vLLM receives them: JSON equality, so `1`, `1.0` and `true` differ."""
    try:
        return json.dumps(a.value, sort_keys=True) == json.dumps(b.value, sort_keys=True)
    except (TypeError, ValueError):  # YAML-only values (dates, binary): never merged
        return False


def merge_edits(text: str, moved: ValueNode, kept: ValueNode) -> list[TextEdit] | None:
    """What to add to `kept` so that it also says what `moved` says (the caller removes
    `moved`'s entry): nothing for the same value; for two block mappings, the entries only
    `moved` has; None when the values disagree or cannot be merged as text."""
    if same_value(moved, kept):
        return []
    if not (_block_object(moved) and _block_object(kept)):
        return None
    assert moved.entries is not None and kept.entries is not None
    extra = []
    present = kept.kept_entries()
    for entry in moved.entries:
        other = present.get(entry.key)
        if other is None:
            extra.append(entry)
        elif not same_value(entry.value, other.value):
            return None
    spans = [entry.remove_span for entry in extra]
    last = kept.entries[-1].remove_span
    if last is None or any(span is None for span in spans):
        return None
    indent = " " * _column(text, kept.entries[-1].key_start)
    chunks = [
        _reindented(text[span[0] : span[1]], _column(text, entry.key_start), indent, text)
        for entry, span in zip(extra, spans, strict=True)
        if span is not None
    ]
    return [_insert_lines(text, last[1], chunks)]


def copy_after(text: str, container: ValueNode, entry: Entry, new_key: str) -> TextEdit | None:
    """An edit adding a copy of `entry` under the name `new_key` right after it, in the
    container's syntax: its own line in a block mapping, `, copy` in flow YAML or JSON
    (whose quoting and escapes the copy keeps, being the same source text)."""
    at = text.find(entry.key, entry.key_start, entry.key_end)
    if at == -1 or entry.end < entry.key_end:
        return None
    copy = text[entry.start : at] + new_key + text[at + len(entry.key) : entry.end]
    if not container.meta.get("block"):
        return TextEdit(entry.end, entry.end, ", " + copy)
    if entry.remove_span is None:
        return None
    line = " " * _column(text, entry.start) + copy
    return _insert_lines(text, entry.remove_span[1], [line + _newline(text)])


def _block_object(node: ValueNode) -> bool:
    return bool(node.entries) and bool(node.meta.get("block"))


def _column(text: str, offset: int) -> int:
    return offset - (max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1)


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def _reindented(lines: str, width: int, indent: str, text: str) -> str:
    """Whole lines at indentation `width` moved to `indent` (deeper lines keep their
    depth relative to the first), ending with a line break in the style of `text`."""
    out = []
    for line in lines.splitlines(keepends=True):
        body = line[width:] if line[:width].strip(" ") == "" else line.lstrip(" ")
        out.append(indent + body if body.strip() else body)
    moved = "".join(out)
    return moved if moved.endswith(("\n", "\r")) else moved + _newline(text)


def _insert_lines(text: str, at: int, chunks: list[str]) -> TextEdit:
    """Whole lines inserted at a line start `at`; at the end of a file without a final
    line break, the break goes first."""
    added = "".join(chunks)
    if at == len(text) and text and text[-1] not in "\r\n":
        added = _newline(text) + added.rstrip("\r\n")
    return TextEdit(at, at, added)
