"""vLLM starts in Jupyter notebooks (`.ipynb`): code cells as IPython, Markdown cells as Markdown.

A notebook is JSON (nbformat 4): `{"cells": [{"cell_type": "code", "source": [...]}, ...]}`,
each cell's `source` one string or a list of strings that join into the cell's text. Real
Colab and Kaggle guides start vLLM in code cells (`!vllm serve … &`, `%%bash`, `subprocess.
Popen([...])`, `LLM(...)`: read by `sources.ipython`) and show the command in Markdown cells
(read by `sources.markdown`). The file is parsed by `document.json_positions` (what
`json.loads` accepts, with the offsets of every string); each character of a cell's text
maps to the JSON text that wrote it (`\\"` to both characters, `\\n` to both, `\\u00e9` to
all six), so a finding lands on the flag in the file. A file `json.loads` refuses, or whose
cells are not of that shape, holds nothing; a notebook that names no vLLM is not parsed.

Fixes are rendered in the cell's syntax (a shell word, a Python string's content) and must
then be written inside the JSON strings: `document_fixes` escapes each edit's text as JSON
does (`"` → `\\"`, a line break → `\\n`), and drops a fix whose edit does not lie inside the
cells' strings (from one string's content to another's: a removal across lines joins the two
strings, which nbformat reads as the same text).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from dataclasses import dataclass, replace

from vllm_config_lsp.document.json_positions import (
    JsonArray,
    JsonError,
    JsonNode,
    JsonObject,
    JsonString,
    parse_json,
)
from vllm_config_lsp.document.text_memo import text_memo
from vllm_config_lsp.findings import Finding, TextEdit
from vllm_config_lsp.sources import ipython, markdown
from vllm_config_lsp.sources.exec_form import decoded_json_string
from vllm_config_lsp.sources.invocation import Invocation
from vllm_config_lsp.sources.source_map import SourceMap

__all__ = ["SOURCE", "document_fixes", "find_invocations"]

SOURCE = "notebook"
#: The escapes of a JSON string's content, left to right.
_ESCAPE = re.compile(r"\\(?:u[0-9a-fA-F]{4}|.)", re.S)


@dataclass(frozen=True)
class _Cell:
    """A cell's type, its text (the `source` strings joined) and where each character of
    the text was written."""

    kind: str
    text: str
    source_map: SourceMap


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start in the notebook's code and Markdown cells, in document offsets.
    The code cells are read together, as the kernel runs them (`ipython.read_cells`)."""
    if "vllm" not in text and "ray" not in text:
        return []
    cells = _cells(text)
    code = [cell for cell in cells if cell.kind == "code"]
    found = [_joined(code).invocation(inv) for inv in ipython.read_cells([c.text for c in code])]
    for cell in cells:
        if cell.kind == "markdown":
            found.extend(
                cell.source_map.invocation(inv) for inv in markdown.find_invocations(cell.text)
            )
    found = [replace(invocation, source=SOURCE) for invocation in found]
    return sorted(found, key=lambda invocation: invocation.start)


def _joined(cells: list[_Cell]) -> SourceMap:
    """The map of the cells' texts joined by line breaks (each break at its cell's end)."""
    starts: list[int] = []
    ends: list[int] = []
    for index, cell in enumerate(cells):
        if index:
            starts.append(cells[index - 1].source_map.end)
            ends.append(cells[index - 1].source_map.end)
        starts.extend(cell.source_map.starts or ())
        ends.extend(cell.source_map.ends or ())
    return SourceMap(tuple(starts), tuple(ends), cells[-1].source_map.end if cells else 0)


def document_fixes(text: str, findings: list[Finding]) -> list[Finding]:
    """The findings with each fix's edits written as JSON string content (see above)."""
    spans = _string_spans(text)
    starts = [start for start, _ in spans]
    kept: list[Finding] = []
    for found in findings:
        if not found.fixes:
            kept.append(found)
            continue
        fixes = []
        for fix in found.fixes:
            edits = [_escaped(text, edit, spans, starts) for edit in fix.edits]
            if all(edit is not None for edit in edits):
                fixes.append(replace(fix, edits=tuple(e for e in edits if e is not None)))
        kept.append(replace(found, fixes=tuple(fixes)))
    return kept


def _escaped(
    text: str, edit: TextEdit, spans: list[tuple[int, int]], starts: list[int]
) -> TextEdit | None:
    """The edit with its text as JSON string content, when both of its ends lie in the
    content of a cell's string; None otherwise, and None when its text holds a quote or a
    backslash and the strings it edits hold escaped ones (a fix inside JSON or Python
    text may have written the document's escapes itself: escaping them again, or not,
    would be a guess)."""
    first, last = _string_at(edit.start, spans, starts), _string_at(edit.end, spans, starts)
    if first is None or last is None:
        return None
    quoting = any(char in edit.new_text for char in '"\\')
    if quoting and _escapes_quoting(text[spans[first][0] : spans[last][1]]):
        return None
    return replace(edit, new_text=json.dumps(edit.new_text, ensure_ascii=False)[1:-1])


def _escapes_quoting(content: str) -> bool:
    """Whether JSON string content escapes a quote or a backslash (a `\\\\` before `\\n`,
    a shell line continuation, does not count)."""
    escapes = [(match.start(), match.group()) for match in _ESCAPE.finditer(content)]
    for index, (at, escape) in enumerate(escapes):
        if escape == '\\"':
            return True
        following = escapes[index + 1] if index + 1 < len(escapes) else None
        if escape == "\\\\" and following != (at + 2, "\\n"):
            return True
    return False


def _string_at(offset: int, spans: list[tuple[int, int]], starts: list[int]) -> int | None:
    """The index of the string whose content holds `offset` (its ends included)."""
    at = bisect_right(starts, offset) - 1
    return at if at >= 0 and spans[at][0] <= offset <= spans[at][1] else None


def _string_spans(text: str) -> list[tuple[int, int]]:
    """The content (inside the quotes) of every string of every cell's `source`."""
    return [
        (piece.start + 1, piece.end - 1)
        for _kind, pieces in _cell_sources(text)
        for piece in pieces
    ]


def _cells(text: str) -> list[_Cell]:
    cells: list[_Cell] = []
    for kind, pieces in _cell_sources(text):
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        for piece in pieces:
            value, spans = decoded_json_string(
                text[piece.start + 1 : piece.end - 1], piece.start + 1
            )
            if value != piece.value:  # an escape read otherwise: each character spans it all
                value, spans = piece.value, [(piece.start, piece.end)] * len(piece.value)
            chars.append(value)
            starts.extend(start for start, _ in spans)
            ends.extend(end for _, end in spans)
        end = pieces[-1].end - 1 if pieces else 0
        cells.append(_Cell(kind, "".join(chars), SourceMap(tuple(starts), tuple(ends), end)))
    return cells


@text_memo
def _cell_sources(text: str) -> list[tuple[str, list[JsonString]]]:
    """Each cell's type and the strings of its `source`; nothing for a file that is not an
    nbformat 4 notebook."""
    try:
        root = parse_json(text)
    except (JsonError, RecursionError):
        return []
    cells = root.get("cells") if isinstance(root, JsonObject) else None
    if not isinstance(cells, JsonArray):
        return []
    found: list[tuple[str, list[JsonString]]] = []
    for cell in cells.items:
        if not isinstance(cell, JsonObject):
            continue
        kind, source = cell.get("cell_type"), cell.get("source")
        pieces = _strings(source)
        if isinstance(kind, JsonString) and pieces is not None:
            found.append((kind.value, pieces))
    return found


def _strings(source: JsonNode | None) -> list[JsonString] | None:
    """A `source`: one string, or a list of strings."""
    if isinstance(source, JsonString):
        return [source]
    if isinstance(source, JsonArray) and all(isinstance(i, JsonString) for i in source.items):
        return [item for item in source.items if isinstance(item, JsonString)]
    return None
