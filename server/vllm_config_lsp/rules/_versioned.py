"""Helpers shared by the release-history rules (VC120-VC129): where each config field of a
file sits, and which of a file's keys another history rule already reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.rules.support import field_path
from vllm_config_lsp.vllm.catalogue import Catalogue
from vllm_config_lsp.vllm.config_model import ConfigModel, FlagValue
from vllm_config_lsp.vllm.flag_history import deprecated_field, renamed_field, renamed_flag

#: Nested config objects are shallow; this bounds hostile input.
MAX_DEPTH = 8


@dataclass(frozen=True)
class FieldUse:
    """One key written inside a config-class value (`compilation-config.pass_config.x`)."""

    value: FlagValue
    class_name: str
    path: list[str]
    entry: Entry
    container: ValueNode

    @property
    def name(self) -> str:
        return self.path[-1]

    @property
    def where(self) -> str:
        return field_path(self.value.spec.name, self.path)


def field_uses(model: ConfigModel) -> Iterator[FieldUse]:
    """Every key of every config-class value whose class the release defines, nested
    classes included (`pass_config` inside `compilation-config`)."""
    for value in model.values:
        class_name = value.spec.dataclass_name
        tree = value.tree
        if class_name is None or tree is None or not tree.is_object:
            continue
        yield from _walk(model.catalogue, value, class_name, tree, [], 0)


def _walk(
    catalogue: Catalogue,
    value: FlagValue,
    class_name: str,
    node: ValueNode,
    path: list[str],
    depth: int,
) -> Iterator[FieldUse]:
    cls = catalogue.classes.get(class_name)
    if cls is None or depth > MAX_DEPTH:
        return
    for entry in node.entries or []:
        here = [*path, entry.key]
        yield FieldUse(value, class_name, here, entry, node)
        spec = cls.fields.get(entry.key)
        nested = _class_of(spec.type) if spec is not None else None
        if nested is not None and entry.value.is_object:
            yield from _walk(catalogue, value, nested, entry.value, here, depth + 1)


def _class_of(tree: dict[str, Any]) -> str | None:
    """The config class a field holds (`PassConfig`, or `PassConfig | None`)."""
    if tree.get("kind") == "class":
        name = tree.get("name")
        return name if isinstance(name, str) else None
    if tree.get("kind") == "union":
        classes = {_class_of(option) for option in tree.get("options") or []} - {None}
        return classes.pop() if len(classes) == 1 else None
    return None


def flag_reported_elsewhere(model: ConfigModel, option: str, deprecated: str | None) -> bool:
    """VC121 (renamed) or VC110 (deprecated) already reports this flag in this release."""
    return deprecated is not None or renamed_flag(option, model.catalogue.version) is not None


def field_reported_elsewhere(model: ConfigModel, class_name: str, field: str) -> bool:
    """VC121 (renamed) or VC122 (deprecated) already reports this field in this release."""
    release = model.catalogue.version
    return (
        renamed_field(class_name, field, release) is not None
        or deprecated_field(class_name, field, release) is not None
    )
