"""Where a document's text is content: what its comments may annotate, in every host.

Suppression comments (`rules.suppression`) are found outside scalars only (a `#` inside a
quoted or block string is text), and a comment on the line of a key whose value spans
several lines covers the whole entry. Both come from the composed YAML of the file, which
is this source's to read: the rules get spans. A host of command lines says the same of
its own syntax (`host_layout`): how it writes a comment (`COMMENTS`), and where a `#` at a
line's end would be text rather than a comment.
"""

from __future__ import annotations

import io
import re
import tokenize
from functools import lru_cache

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.document.text_index import TextIndex
from vllm_config_lsp.document.yaml_edits import content_end
from vllm_config_lsp.sources.config_file import ConfigFile
from vllm_config_lsp.sources.yaml_hosts import documents

MAP_TAG = "tag:yaml.org,2002:map"
#: The hosts whose text is YAML (a `#` inside a block or multi-line scalar is text).
_YAML_HOSTS = ("kubernetes", "compose", "workflow", "helm", "dstack", "skypilot", "launcher")

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


#: How each host's syntax takes a suppression comment, by the source that read the start
#: (`Invocation.source`): `line`, a `# …` at the end of the line (YAML, a shell and the
#: recipes make and just hand it, TOML, Python); `above`, a `# …` line of its own above
#: it (a Dockerfile: a `#` after an instruction is no comment, and would turn an exec form
#: into a shell form; a comment line inside a continued instruction is dropped by Docker).
#: A host not listed writes none: Markdown prose, a notebook's JSON strings, Triton's JSON.
COMMENTS: dict[str, str] = {
    **dict.fromkeys(_YAML_HOSTS, "line"),
    **dict.fromkeys(("shell", "makefile", "justfile", "toml", "python"), "line"),
    "dockerfile": "above",
    # in the fenced blocks whose language takes `#` comments (`_markdown_text`)
    "markdown": "line",
}
#: Fence languages whose lines take a `#` comment at their end.
_HASH_FENCES = frozenset(
    {"bash", "sh", "shell", "zsh", "console", "shell-session", "yaml", "yml", "python", "py"}
    | {"python3", "toml", "makefile", "make", "just"}
)
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*([^\s`{]*)", re.MULTILINE)


#: A host's layout: how it writes a comment, the `Layout`, and the spans of its YAML
#: literal block scalars (`|`), whose lines a shell may read as a script, comments included.
HostLayout = tuple[str | None, Layout, list[tuple[int, int]]]


def host_layout(source: str, text: str) -> HostLayout:
    """How the host that read a start writes a comment (`COMMENTS`), and the layout of its
    document: where a `#` is text (YAML scalars, Python and TOML multi-line strings), the
    multi-line YAML entries a comment on the key's line covers, the literal blocks."""
    style = COMMENTS.get(source)
    if style is None:
        return None, ([], []), []
    return _host_spans(source, text, style)


@lru_cache(maxsize=1)
def _host_spans(source: str, text: str, style: str) -> HostLayout:
    """Once per text (every command line of a document shares it)."""
    if source in _YAML_HOSTS:
        literal: list[tuple[int, int]] = []
        roots = documents(text)
        if not all(isinstance(root, (MappingNode, SequenceNode)) for root in roots):
            return style, ([], []), []  # no YAML file (a script whose here-document is one)
        layout = _walk(roots, text, TextIndex(text), plain=True, literal=literal)
        return style, layout, literal
    if source == "python":
        return style, (_python_strings(text), []), []
    if source == "toml":
        return style, (_toml_strings(text), []), []
    if source == "markdown":
        return style, (_markdown_text(text), []), []
    return style, ([], []), []


def _markdown_text(text: str) -> list[tuple[int, int]]:
    """Everything of a Markdown file but the bodies of its fenced blocks in a language that
    takes `#` comments (a `#` in prose is a heading, or text)."""
    spans: list[tuple[int, int]] = []
    prose = 0
    at = 0
    while (opening := _FENCE.search(text, at)) is not None:
        fence, language = opening.group(1), opening.group(2).lower()
        body = text.find("\n", opening.end())
        body = len(text) if body == -1 else body + 1
        closing = re.compile(rf"^ {{0,3}}{fence[0]}{{{len(fence)},}}[ \t]*$", re.MULTILINE)
        close = closing.search(text, body)
        end = len(text) if close is None else close.start()
        if language in _HASH_FENCES:
            spans.append((prose, body))
            prose = end
        at = len(text) if close is None else close.end()
    spans.append((prose, len(text) + 1))
    return spans


def _python_strings(text: str) -> list[tuple[int, int]]:
    """The strings of a Python file that span lines (`tokenize`, up to where it cannot
    read on)."""
    spans: list[tuple[int, int]] = []
    starts = [0, *(at + 1 for at, char in enumerate(text) if char == "\n")]
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            (row, col), (end_row, end_col) = token.start, token.end
            if token.type == tokenize.STRING and end_row > row:
                spans.append((starts[row - 1] + col, starts[end_row - 1] + end_col))
    except (tokenize.TokenError, SyntaxError, IndexError):
        pass  # an unterminated string or bracket at the end: what was read stands
    return spans


def _toml_strings(text: str) -> list[tuple[int, int]]:
    """TOML's multi-line strings (three double or three single quotes) outside comments."""
    spans: list[tuple[int, int]] = []
    at = 0
    while True:
        found = [i for i in (text.find('"' * 3, at), text.find("'" * 3, at)) if i != -1]
        if not found:
            return spans
        start = min(found)
        line_start = text.rfind("\n", 0, start) + 1
        if "#" in text[line_start:start]:  # after a `#`: a comment, or a string's text
            at = start + 3
            continue
        end = text.find(text[start : start + 3], start + 3)
        end = len(text) if end == -1 else end + 3
        spans.append((start, end))
        at = end


def _walk(
    roots: list[Node],
    text: str,
    index: TextIndex,
    *,
    plain: bool = False,
    literal: list[tuple[int, int]] | None = None,
) -> Layout:
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
            if (node.style is not None or (plain and "\n" in text[start:end])) and end > start:
                scalars.append((start, end))  # a ` #` inside a plain one would end it
                if literal is not None and node.style == "|":
                    literal.append((start, end))
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
