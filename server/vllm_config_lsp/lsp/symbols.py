"""Document symbols (the outline): one symbol per top-level key, with the fields of
mapping-valued flags nested under it, wherever they are written (YAML mapping, JSON string).
A value is shown as the document writes it (`true`, `0x10`, `null`), not as Python loaded it
(`True`, `16`, `None`); strings are shown loaded, without their quotes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from vllm_config_lsp.document.value_tree import ValueNode
from vllm_config_lsp.document.yaml_edits import content_end
from vllm_config_lsp.lsp.positions import Positions
from vllm_config_lsp.rules.support import entries

if TYPE_CHECKING:
    from yaml.nodes import Node

    from vllm_config_lsp.lsp.session import Snapshot

#: Nesting shown in the outline; deeper config trees are rare and only add noise.
MAX_DEPTH = 4


def symbols(analysis: Snapshot) -> list[types.DocumentSymbol] | list[types.SymbolInformation]:
    model = analysis.result.model if analysis.result else None
    if model is None:
        return []
    positions = analysis.positions
    trees = {
        id(value.use.token.pair): value.tree
        for value in model.values
        if value.tree is not None and value.use.token.pair is not None
    }
    out: list[types.DocumentSymbol] = []
    for pair in entries(model):
        key_start, key_end = pair.key_node.start_mark.index, pair.key_node.end_mark.index
        end = max(key_end, content_end(model.text, pair.value_node))
        tree = trees.get(id(pair))
        out.append(
            types.DocumentSymbol(
                name=pair.key or "(empty key)",
                kind=types.SymbolKind.Object
                if tree and tree.entries
                else types.SymbolKind.Property,
                range=positions.range(key_start, end),
                selection_range=positions.range(key_start, key_end),
                detail=None
                if tree and tree.entries
                else _detail(pair.value, _written(model.text, pair.value_node)),
                children=_children(positions, tree, key_start, end, 1) if tree else None,
            )
        )
    capabilities = analysis.capabilities
    document = capabilities.text_document.document_symbol if capabilities.text_document else None
    if document and document.hierarchical_document_symbol_support:
        return out
    return _flat(analysis.uri, out)


def _children(
    positions: Positions, tree: ValueNode, start: int, end: int, depth: int
) -> list[types.DocumentSymbol] | None:
    if not tree.entries or depth > MAX_DEPTH:
        return None
    out = []
    for entry in tree.entries:
        # entries of a value without inner positions span the whole value: no outline there
        if entry.key_end <= entry.key_start or not start <= entry.key_start < entry.key_end <= end:
            continue
        entry_end = max(entry.key_end, entry.end, entry.value.end)
        out.append(
            types.DocumentSymbol(
                name=entry.key,
                kind=types.SymbolKind.Object if entry.value.entries else types.SymbolKind.Field,
                range=positions.range(entry.key_start, min(entry_end, end)),
                selection_range=positions.range(entry.key_start, entry.key_end),
                detail=_detail(
                    entry.value.value, positions.text[entry.value.start : entry.value.end]
                ),
                children=_children(positions, entry.value, entry.key_start, end, depth + 1),
            )
        )
    return out or None


def _written(text: str, node: Node) -> str:
    return text[node.start_mark.index : node.end_mark.index]


def _detail(value: object, written: str) -> str | None:
    """`written` is the value's text in the document; strings show loaded (no quotes or
    escapes), other scalars as written when that is one line (`key:` alone shows nothing)."""
    if isinstance(value, (dict, list)):
        return None
    written = written.strip()
    if isinstance(value, str) or "\n" in written:
        text = str(value)
    elif written:
        text = written
    else:
        return None
    return text if len(text) <= 40 else text[:39] + "…"


def _flat(
    uri: str, tree: Sequence[types.DocumentSymbol], container: str | None = None
) -> list[types.SymbolInformation]:
    out = []
    for symbol in tree:
        out.append(
            types.SymbolInformation(
                name=symbol.name,
                kind=symbol.kind,
                location=types.Location(uri=uri, range=symbol.range),
                container_name=container,
            )
        )
        out.extend(_flat(uri, symbol.children or [], symbol.name))
    return out
