"""Hover: what vLLM says about the flag, nested field or value under the cursor, and the
rule behind a code in a suppression comment.

Works on the positioned model of the current text: top-level pairs for flags, the JSON
trees of mapping-valued flags (YAML mappings, JSON strings, dotted keys alike) for fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from .argv import Pair
from .catalogue import Catalogue, FlagSpec
from .config_model import ConfigModel
from .edits import content_end
from .lsp_describe import (
    choices,
    class_at,
    field_doc,
    flag_doc,
    flag_for_key,
)
from .value_tree import ValueNode

if TYPE_CHECKING:
    from .server import Analysis


def version_note(analysis: Analysis) -> str:
    return f"_{analysis.version_source}_"


def hover_at(
    analysis: Analysis,
    position: types.Position,
    capabilities: types.ClientCapabilities,
    docs_url: str,
) -> types.Hover | None:
    model = analysis.result.model if analysis.result else None
    if model is None:
        return None
    offset = analysis.positions.offset(position)
    found = _suppression_code(model, offset, docs_url) or _describe(analysis, model, offset)
    if found is None:
        return None
    text, (start, end) = found
    markdown = _markdown_ok(capabilities)
    return types.Hover(
        contents=types.MarkupContent(
            kind=types.MarkupKind.Markdown if markdown else types.MarkupKind.PlainText,
            value=text if markdown else text.replace("**", "").replace("`", ""),
        ),
        range=analysis.positions.range(start, end),
    )


def _markdown_ok(capabilities: types.ClientCapabilities) -> bool:
    hover = capabilities.text_document.hover if capabilities.text_document else None
    formats = hover.content_format if hover else None
    return not formats or types.MarkupKind.Markdown in formats


def _suppression_code(
    model: ConfigModel, offset: int, docs_url: str
) -> tuple[str, tuple[int, int]] | None:
    from .rules import rule_by_code
    from .suppression import comments

    for comment in comments(model):
        if comment.line != model.index.lsp_position(offset)[0]:
            continue
        for directive in comment.directives:
            for ref in directive.codes:
                if ref.start <= offset <= ref.end:
                    rule = rule_by_code(ref.code)
                    if rule is None:
                        return f"`{ref.code}`: no such vllm-config rule", (ref.start, ref.end)
                    text = (
                        f"**{rule.code} {rule.name}**\n\n{rule.summary}.\n\n"
                        f"[Documentation]({docs_url}{rule.code}.md)"
                    )
                    return text, (ref.start, ref.end)
    return None


def _describe(
    analysis: Analysis, model: ConfigModel, offset: int
) -> tuple[str, tuple[int, int]] | None:
    note = version_note(analysis)
    catalogue = model.catalogue
    for pair in model.pairs:  # keys first: a block value's end mark is the next key
        spec, negative = flag_for_key(catalogue, pair.key)
        key_start, key_end = pair.key_node.start_mark.index, pair.key_node.end_mark.index
        if spec is None or not key_start <= offset <= key_end:
            continue
        dotted = pair.key.split(".")
        index = pair.key[: offset - key_start].count(".")
        if index == 0:
            text = flag_doc(spec, note)
            if negative:
                text = f"`{pair.key}: true` turns the flag off.\n\n" + text
            return text, (key_start, key_end)
        path = dotted[1 : index + 1]
        cls = class_at(catalogue, spec, path[:-1])
        field = cls.fields.get(path[-1]) if cls else None
        if cls is None or field is None:
            return None
        return field_doc(cls, field, ".".join(dotted[: index + 1]), note), (key_start, key_end)
    for pair in model.pairs:
        spec, _ = flag_for_key(catalogue, pair.key)
        start = pair.value_node.start_mark.index
        end = content_end(model.text, pair.value_node)
        if spec is None or not start <= offset <= end:
            continue
        tree = _tree_of(model, pair)
        if tree is not None and spec.dataclass_name:
            return _in_tree(catalogue, spec, tree, offset, note)
        values = choices(spec)
        written = str(pair.value)
        if values and written in map(str, values):
            listed = ", ".join(f"`{v}`" for v in values)
            kind = "one of the choices" if spec.choices else "a known value"
            text = f"`{written}`: {kind} of `--{spec.name}` ({listed})\n\n{note}"
            return text, (start, end)
        return None
    return None


def _tree_of(model: ConfigModel, pair: Pair) -> ValueNode | None:
    for value in model.values:
        token = value.use.token
        if value.tree is not None and (
            token.pair is pair or any(p.key_token.pair is pair for p in token.dotted or ())
        ):
            return value.tree
    return None


def _in_tree(
    catalogue: Catalogue, spec: FlagSpec, tree: ValueNode, offset: int, note: str
) -> tuple[str, tuple[int, int]] | None:
    path: list[str] = []
    node = tree
    while node.entries:
        for entry in node.entries:
            if entry.key_start <= offset <= entry.key_end and entry.key_end > entry.key_start:
                cls = class_at(catalogue, spec, path)
                field = cls.fields.get(entry.key) if cls else None
                if cls is None or field is None:
                    return None
                where = ".".join([spec.name, *path, entry.key])
                return field_doc(cls, field, where, note), (entry.key_start, entry.key_end)
            inner = entry.value
            if inner.start <= offset <= inner.end and inner.end > inner.start:
                if not inner.entries:
                    return _field_value(catalogue, spec, [*path, entry.key], inner, note)
                path.append(entry.key)
                node = inner
                break
        else:
            return None
    return None


def _field_value(
    catalogue: Catalogue, spec: FlagSpec, path: list[str], node: ValueNode, note: str
) -> tuple[str, tuple[int, int]] | None:
    cls = class_at(catalogue, spec, path[:-1])
    field = cls.fields.get(path[-1]) if cls else None
    if field is None:
        return None
    tree = field.type
    options = [tree, *(tree.get("options") or ())]
    for option in options:
        if option.get("kind") != "enum":
            continue
        name = str(option.get("name"))
        members = catalogue.enums.get(name, {})
        for member, value in members.items():
            if node.value == value or (
                isinstance(node.value, str) and node.value.upper() == member
            ):
                listed = ", ".join(f"`{m}`" for m in members)
                text = f"`{name}.{member}` (= `{value}`)\n\nMembers: {listed}\n\n{note}"
                return text, (node.start, node.end)
    return None
