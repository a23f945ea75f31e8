"""Where a `--config` file's text is YAML content: what its comments may annotate.

Suppression comments (`rules.suppression`) are found outside scalars only (a `#` inside a
quoted or block string is text), and a comment on the line of a key whose value spans
several lines covers the whole entry. Both come from the composed YAML of the file, which
is this source's to read: the rules get spans.
"""

from __future__ import annotations

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.document.yaml_edits import content_end
from vllm_config_lsp.sources.config_file import ConfigFile

MAP_TAG = "tag:yaml.org,2002:map"

#: Spans in which a `#` is text (scalar contents), and (key line, entry start, entry end)
#: of every entry whose value spans several lines.
Layout = tuple[list[tuple[int, int]], list[tuple[int, int, int]]]


def comment_layout(origin: ConfigFile, text: str, index: TextIndex) -> Layout:
    """The layout of the whole file; entry by entry (each piece's cached with it) when
    the file was composed piece by piece."""
    if origin.pieces:
        scalars: list[tuple[int, int]] = []
        entries: list[tuple[int, int, int]] = []
        for piece in origin.pieces.values():
            own = piece.cache.get("layout")
            if own is None:
                root = MappingNode(MAP_TAG, [(piece.base_key, piece.base_value)])
                own = piece.cache["layout"] = _walk([root], piece.text, TextIndex(piece.text))
            at, lines = piece.offset, piece.line
            scalars.extend((start + at, end + at) for start, end in own[0])
            entries.extend((line + lines, start + at, end + at) for line, start, end in own[1])
        return scalars, entries
    roots = [origin.parsed.root, *origin.parsed.extra_documents]
    return _walk([root for root in roots if root is not None], text, index)


def _walk(roots: list[Node], text: str, index: TextIndex) -> Layout:
    scalars: list[tuple[int, int]] = []
    entries: list[tuple[int, int, int]] = []
    seen: set[int] = set()
    todo: list[Node] = list(roots)
    while todo:
        node = todo.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, ScalarNode):
            start, end = node.start_mark.index, node.end_mark.index
            if node.style in ("|", ">"):
                # the header line (`|  # comment`) may hold a comment; the content may not
                newline = text.find("\n", start, end)
                start = end if newline == -1 else newline
            if node.style is not None and end > start:
                scalars.append((start, end))
        elif isinstance(node, SequenceNode):
            todo.extend(node.value)
        elif isinstance(node, MappingNode):
            for key, value in node.value:
                todo.append(key)
                todo.append(value)
                key_line = index.lsp_position(key.start_mark.index)[0]
                end = content_end(text, value)
                if index.lsp_position(end)[0] > key_line:
                    entries.append((key_line, key.start_mark.index, end))
    return scalars, entries
