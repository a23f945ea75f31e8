"""What the loader rules share about the scalars YAML resolved (the YAML is their subject)."""

from __future__ import annotations

from collections.abc import Iterator

from yaml.nodes import Node, ScalarNode, SequenceNode


def plain_scalars(node: Node, *kinds: str) -> Iterator[ScalarNode]:
    """The unquoted scalars of a top-level value, or of its list items, that YAML resolved
    to one of `kinds` (`bool`, `int`, `float`): each becomes one `str(value)` token."""
    tags = tuple(f":{kind}" for kind in kinds)
    for item in node.value if isinstance(node, SequenceNode) else [node]:
        if isinstance(item, ScalarNode) and item.style is None and item.tag.endswith(tags):
            yield item
