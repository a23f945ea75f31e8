"""JSON-shaped values with document positions, whatever the file spelled them as.

A JSON-valued flag can be a YAML mapping, a JSON string (quoted, escaped, or a block
scalar) or a set of dotted keys; rules must not care which. A `ValueNode` holds the value
vLLM ends up with plus where each piece came from in the document.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)
class Entry:
    """One `"key": value` member of an object, duplicates kept in order."""

    key: str
    key_start: int
    key_end: int
    value: ValueNode
    #: Offsets of the whole member (key through value), for "remove this option" fixes.
    start: int = -1
    end: int = -1
    #: Precomputed span deleting this member cleanly (block YAML lines, a dotted top-level
    #: key), when the generic sibling-based removal does not apply.
    remove_span: tuple[int, int] | None = None


@dataclass(eq=False)
class ValueNode:
    start: int
    end: int
    value: Any
    entries: list[Entry] | None = None  # objects
    items: list[ValueNode] | None = None  # arrays
    #: "yaml" when the pieces are YAML nodes (edits are YAML edits), "json" when they sit
    #: inside a JSON string (edits must keep JSON syntax inside the YAML scalar).
    origin: str = "yaml"
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def is_object(self) -> bool:
        return self.entries is not None

    @property
    def is_array(self) -> bool:
        return self.items is not None

    def get(self, key: str) -> ValueNode | None:
        """The member vLLM keeps (the last of duplicates), or None."""
        found = None
        for entry in self.entries or ():
            if entry.key == key:
                found = entry.value
        return found

    def entry(self, key: str) -> Entry | None:
        found = None
        for entry in self.entries or ():
            if entry.key == key:
                found = entry
        return found

    def kept_entries(self) -> dict[str, Entry]:
        """`entry` for every key at once (the last of duplicates): fixes that look up many
        keys of a large object stay linear. Computed on each call: trees are still
        completed after they are built (dotted keys)."""
        return {entry.key: entry for entry in self.entries or ()}

    def walk(self) -> Iterator[ValueNode]:
        yield self
        for entry in self.entries or ():
            yield from entry.value.walk()
        for item in self.items or ():
            yield from item.walk()


def from_json_value(value: Any, start: int, end: int, origin: str = "yaml") -> ValueNode:
    """A node without inner positions: every piece points at the whole span."""
    if isinstance(value, dict):
        entries = [
            Entry(str(k), start, end, from_json_value(v, start, end, origin), start, end)
            for k, v in value.items()
        ]
        return ValueNode(start, end, value, entries=entries, origin=origin)
    if isinstance(value, list):
        items = [from_json_value(v, start, end, origin) for v in value]
        return ValueNode(start, end, value, items=items, origin=origin)
    return ValueNode(start, end, value, origin=origin)
