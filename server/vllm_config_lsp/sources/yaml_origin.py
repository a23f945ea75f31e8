"""Where a `--config` file's argv words came from: the YAML entry and node of each.

vLLM's `load_config_file` turns every top-level `key: value` into argv (`--key` and the
value's `str()`, `json.dumps` or list items), so the text vLLM receives is not the text the
file holds. A word of that argv keeps its origin: the effective entry (`Pair`, after merge
keys and duplicates, as `yaml.safe_load` returns it) and the node its text came from. The
loader rules read it (duplicates, YAML 1.1 pitfalls, dotted keys spelled in the file), and
fixes edit the entry rather than the word.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from yaml.nodes import MappingNode, Node, SequenceNode


@dataclass(eq=False)
class Pair:
    """One effective top-level `key: value` of the file (after merges, last duplicate)."""

    key: str
    key_node: Node
    value_node: Node
    value: Any
    #: Earlier duplicates of the same key, which safe_load silently discards.
    shadowed: list[tuple[Node, Node]] = field(default_factory=list)

    @property
    def key_span(self) -> tuple[int, int]:
        return self.key_node.start_mark.index, self.key_node.end_mark.index

    @property
    def is_mapping(self) -> bool:
        """The value is a YAML mapping (block or flow), not a string holding JSON."""
        return isinstance(self.value_node, MappingNode)

    @property
    def is_list(self) -> bool:
        """The value is a YAML list (block or flow)."""
        return isinstance(self.value_node, SequenceNode)

    @property
    def items(self) -> int:
        """How many items a list value has (0 for any other value)."""
        return len(self.value_node.value) if self.is_list else 0


@dataclass(frozen=True, eq=False)
class YamlOrigin:
    """The entry a word comes from and the node its text is: the key node for `--key`,
    the value node or one list item for a value."""

    pair: Pair
    node: Node
    #: The word is the entry's `--key` (a value that reads `--x` is not a key).
    is_key: bool = False
