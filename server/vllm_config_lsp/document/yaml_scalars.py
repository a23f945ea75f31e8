"""Map every character of a loaded YAML scalar back to the document text.

PyYAML gives a :class:`yaml.ScalarNode` only its start/end marks and the *loaded* value.  A
value character is not at ``start + i``: quotes, escapes (``\\n``, ``\\x41``, ``''``), line
folding (a line break that became a space), indentation stripped from block scalars and
chomping all shift it.  To point a diagnostic at one character of, say, a JSON document
embedded in a scalar, we re-run PyYAML's own scanning rules (``yaml/scanner.py``:
``scan_plain``, ``scan_flow_scalar`` and ``scan_block_scalar``, PyYAML 6) over
``text[start:end]`` while recording, for every value character, the source span that produced
it.  Characters that do not exist literally in the source map to the thing that produced them:
an escape maps to its backslash (span: the whole escape), a folded space or a line break
produced by folding/chomping maps to the source line break.

The mirrored rules include PyYAML's quirks (e.g. a NEL line break loads as ``\\n`` but LS/PS
line breaks load as themselves; tabs end plain scalars; a block scalar's indentation depends on
the *parent* collection's indentation, which is why :func:`scalar_source_map` accepts
``parent_indent``).  The reconstructed value is returned too, so callers can verify it equals
``node.value`` (pass ``value=`` to have that checked for you).  Work is linear in the scalar's
length -- except that a block scalar with an explicit indentation indicator (``|2``) and no
``parent_indent`` may be rescanned once per candidate parent column -- and nothing raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ScalarSourceMap",
    "scalar_source_map",
]

_BREAKS = "\r\n\x85\u2028\u2029"
_SPACE_BREAKS = " " + _BREAKS
_BLANK_BREAKS = " \t" + _BREAKS
_ANCHOR_CHARS = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_")
_HEX = frozenset("0123456789ABCDEFabcdef")
# Runs scanned with regexes (C speed) instead of per-character Python loops.
_PLAIN_RUN = re.compile("[^ \t\r\n\x85\u2028\u2029]*")
_FLOW_RUN = re.compile("[^'\"\\\\ \t\r\n\x85\u2028\u2029]*")
_LINE_RUN = re.compile("[^\r\n\x85\u2028\u2029]*")
_SPACES = re.compile(" *")
_BLANKS = re.compile("[ \t]*")

# yaml/scanner.py Scanner.ESCAPE_REPLACEMENTS / ESCAPE_CODES
_ESCAPE_REPLACEMENTS = {
    "0": "\0",
    "a": "\x07",
    "b": "\x08",
    "t": "\x09",
    "\t": "\x09",
    "n": "\x0a",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\x0d",
    "e": "\x1b",
    " ": "\x20",
    '"': '"',
    "\\": "\\",
    "/": "/",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_ESCAPE_CODES = {"x": 2, "u": 4, "U": 8}


@dataclass(frozen=True)
class ScalarSourceMap:
    """A reconstructed scalar value and the source span of each of its characters.

    ``starts[i]``/``ends[i]`` delimit the source text that produced ``value[i]``; ``end`` is
    the offset just past the source of the last character (``start`` of the scalar text when
    the value is empty).
    """

    value: str
    starts: list[int]
    ends: list[int]
    end: int

    @property
    def offsets(self) -> list[int]:
        """``starts`` plus the end: one source offset per value character, then the end."""
        return [*self.starts, self.end]

    def source_range(self, start: int, end: int) -> tuple[int, int]:
        """Tight source range of value range ``[start, end)``.

        Unlike ``offsets[end]`` the end is the end of the last character's own source (so a
        trailing escape is covered whole and whitespace dropped by folding is not), which is
        the nicer range to underline.
        """
        n = len(self.starts)
        start = min(max(start, 0), n)
        end = min(max(end, start), n)
        if start == n:
            return self.end, self.end
        if end == start:
            return self.starts[start], self.starts[start]
        return self.starts[start], self.ends[end - 1]


class _Fail(Exception):
    """Internal: the source does not follow the rules we mirror (never escapes the module)."""


class _Builder:
    """Accumulates value characters together with their source spans."""

    __slots__ = ("chunks", "ends", "starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.chunks: list[str] = []
        self.starts: list[int] = []
        self.ends: list[int] = []

    def literal(self, a: int, b: int) -> None:
        """Value characters copied verbatim from ``text[a:b]``."""
        if b > a:
            self.chunks.append(self.text[a:b])
            self.starts.extend(range(a, b))
            self.ends.extend(range(a + 1, b + 1))

    def synthetic(self, chars: str, a: int, b: int) -> None:
        """Value characters produced by the source span ``[a, b)`` (escape, break, ...)."""
        for ch in chars:
            self.chunks.append(ch)
            self.starts.append(a)
            self.ends.append(b)

    def value(self) -> str:
        return "".join(self.chunks)


def _match_end(pattern: re.Pattern[str], text: str, pos: int, end: int) -> int:
    """End of ``pattern``'s (always successful, possibly empty) match at ``pos``."""
    m = pattern.match(text, pos, end)
    return pos if m is None else m.end()


def _line_break(text: str, pos: int) -> tuple[str, int]:
    """PyYAML ``scan_line_break``: (normalized break, position after it), '' if no break."""
    ch = text[pos] if pos < len(text) else "\0"
    if ch in "\r\n\x85":
        if ch == "\r" and text.startswith("\n", pos + 1):
            return "\n", pos + 2
        return "\n", pos + 1
    if ch in "\u2028\u2029":
        return ch, pos + 1
    return "", pos


def _skip_properties(text: str, pos: int, end: int) -> int:
    """Skip anchors/tags (and the blanks/comments between them and the scalar).

    A node's ``start_mark`` is at its first property (``&a !!str "x"``), not at the scalar.
    Anchors and tags follow PyYAML's ``scan_anchor``/``scan_tag`` character rules: an anchor
    is ASCII alphanumerics, ``-`` and ``_``; a tag runs to the next blank (PyYAML requires a
    space or line break after it) or, if verbatim, to ``>``.
    """
    n = len(text)
    while pos < end:
        ch = text[pos]
        if ch == "&":
            pos += 1
            while pos < n and text[pos] in _ANCHOR_CHARS:
                pos += 1
        elif ch == "!":
            if text.startswith("<", pos + 1):
                close = text.find(">", pos + 2)
                if close < 0:
                    raise _Fail
                pos = close + 1
            else:
                while pos < n and text[pos] not in _BLANK_BREAKS:
                    pos += 1
        elif ch in _BLANK_BREAKS:
            pos += 1
        elif ch == "#":
            while pos < n and text[pos] not in _BREAKS:
                pos += 1
        else:
            break
    return pos


# -- plain -------------------------------------------------------------------------------


def _scan_plain(text: str, pos: int, end: int, out: _Builder) -> int:
    """Mirror ``scan_plain``/``scan_plain_spaces``; ``end`` (the token's end mark, which is
    right after its last non-space chunk) replaces PyYAML's context-dependent stop rules."""
    n = len(text)
    while pos < end:
        chunk_start = pos
        pos = _match_end(_PLAIN_RUN, text, pos, end)
        if pos == chunk_start:
            raise _Fail
        out.literal(chunk_start, pos)
        if pos >= end:
            break
        ws_start = pos
        pos = _match_end(_SPACES, text, pos, n)
        brk, brk_end = _line_break(text, pos)
        if brk:
            brk_pos, pos = pos, brk_end
            breaks: list[tuple[str, int, int]] = []
            while pos < n and text[pos] in _SPACE_BREAKS:
                if text[pos] == " ":
                    pos += 1
                else:
                    b, after = _line_break(text, pos)
                    breaks.append((b, pos, after))
                    pos = after
            if brk != "\n":
                out.synthetic(brk, brk_pos, brk_end)
            elif not breaks:
                out.synthetic(" ", brk_pos, brk_end)
            for b, a, z in breaks:
                out.synthetic(b, a, z)
        else:
            out.literal(ws_start, pos)
    return pos


# -- single and double quoted ------------------------------------------------------------


def _flow_breaks(text: str, pos: int, found: list[tuple[str, int, int]]) -> int:
    """Mirror ``scan_flow_scalar_breaks``: collect the line breaks of blank lines inside a
    quoted scalar as (break, start, end); returns the position after them."""
    n = len(text)
    while True:
        pos = _match_end(_BLANKS, text, pos, n)
        brk, after = _line_break(text, pos)
        if not brk:
            return pos
        found.append((brk, pos, after))
        pos = after


def _scan_flow(text: str, pos: int, double: bool, out: _Builder) -> int:
    """Mirror ``scan_flow_scalar``; ``pos`` is at the opening quote.  Returns the offset
    just past the closing quote."""
    n = len(text)
    quote = text[pos]
    pos += 1
    while True:
        # scan_flow_scalar_non_spaces
        while True:
            a = pos
            pos = _match_end(_FLOW_RUN, text, pos, n)
            out.literal(a, pos)
            ch = text[pos] if pos < n else "\0"
            if not double and ch == "'" and text.startswith("'", pos + 1):
                out.synthetic("'", pos, pos + 2)
                pos += 2
            elif (double and ch == "'") or (not double and ch in '"\\'):
                out.literal(pos, pos + 1)
                pos += 1
            elif double and ch == "\\":
                esc_start = pos
                pos += 1
                ch = text[pos] if pos < n else "\0"
                if ch in _ESCAPE_REPLACEMENTS:
                    pos += 1
                    out.synthetic(_ESCAPE_REPLACEMENTS[ch], esc_start, pos)
                elif ch in _ESCAPE_CODES:
                    length = _ESCAPE_CODES[ch]
                    pos += 1
                    digits = text[pos : pos + length]
                    if len(digits) != length or not all(d in _HEX for d in digits):
                        raise _Fail
                    pos += length
                    out.synthetic(chr(int(digits, 16)), esc_start, pos)
                elif ch != "\0" and ch in _BREAKS:
                    escaped: list[tuple[str, int, int]] = []
                    pos = _flow_breaks(text, _line_break(text, pos)[1], escaped)
                    for b in escaped:
                        out.synthetic(*b)
                else:
                    raise _Fail
            else:
                break
        if pos >= n:
            raise _Fail
        if text[pos] == quote:
            return pos + 1
        # scan_flow_scalar_spaces
        ws_start = pos
        pos = _match_end(_BLANKS, text, pos, n)
        if pos >= n:
            raise _Fail
        brk, after = _line_break(text, pos)
        if brk:
            folded: list[tuple[str, int, int]] = []
            brk_pos, pos = pos, after
            pos = _flow_breaks(text, pos, folded)
            if brk != "\n":
                out.synthetic(brk, brk_pos, after)
            elif not folded:
                out.synthetic(" ", brk_pos, after)
            for b in folded:
                out.synthetic(*b)
        else:
            out.literal(ws_start, pos)


# -- block (literal | and folded >) ------------------------------------------------------


@dataclass
class _BlockHeader:
    chomping: bool | None
    increment: int | None
    body: int  # offset just after the header line (after its line break, if any)
    body_line_start: int  # offset from which columns of the first body line are counted


def _block_header(text: str, pos: int) -> _BlockHeader:
    """Mirror ``scan_block_scalar_indicators`` and ``scan_block_scalar_ignored_line``."""
    n = len(text)
    pos += 1  # the '|' or '>'
    chomping: bool | None = None
    increment: int | None = None
    ch = text[pos] if pos < n else "\0"
    if ch in "+-":
        chomping = ch == "+"
        pos += 1
        ch = text[pos] if pos < n else "\0"
        if ch in "0123456789":
            increment = int(ch)
            pos += 1
    elif ch in "0123456789":
        increment = int(ch)
        pos += 1
        ch = text[pos] if pos < n else "\0"
        if ch in "+-":
            chomping = ch == "+"
            pos += 1
    if increment == 0:
        raise _Fail
    while pos < n and text[pos] == " ":
        pos += 1
    if pos < n and text[pos] == "#":
        while pos < n and text[pos] not in _BREAKS:
            pos += 1
    if pos < n and text[pos] not in _BREAKS:
        raise _Fail
    brk, after = _line_break(text, pos)
    return _BlockHeader(chomping, increment, after, after if brk else -(10**9))


def _breaks_at_indent(
    text: str, pos: int, line_start: int, indent: int
) -> tuple[int, int, list[tuple[str, int, int]], int]:
    """Mirror ``scan_block_scalar_breaks``: skip up to ``indent`` spaces and empty lines.

    Returns (position, start of its line, the breaks as (break, start, end), end mark).
    """
    n = len(text)
    found: list[tuple[str, int, int]] = []
    end_mark = pos
    while pos - line_start < indent and pos < n and text[pos] == " ":
        pos += 1
    while pos < n and text[pos] in _BREAKS:
        brk, after = _line_break(text, pos)
        found.append((brk, pos, after))
        pos = line_start = end_mark = after
        while pos - line_start < indent and pos < n and text[pos] == " ":
            pos += 1
    return pos, line_start, found, end_mark


def _scan_block(
    text: str, folded: bool, hdr: _BlockHeader, min_indent: int
) -> tuple[_Builder, int]:
    """Mirror the body of ``scan_block_scalar`` for a given ``min_indent``
    (``max(parent_indent + 1, 1)``).  Returns the builder and the token's end mark."""
    n = len(text)
    out = _Builder(text)
    pos = hdr.body
    line_start = hdr.body_line_start

    breaks: list[tuple[str, int, int]]
    if hdr.increment is None:
        # scan_block_scalar_indentation
        breaks = []
        max_indent = 0
        end_mark = pos
        while pos < n and text[pos] in _SPACE_BREAKS:
            if text[pos] != " ":
                brk, after = _line_break(text, pos)
                breaks.append((brk, pos, after))
                pos = line_start = end_mark = after
            else:
                pos += 1
                max_indent = max(max_indent, pos - line_start)
        indent = max(min_indent, max_indent)
    else:
        indent = min_indent + hdr.increment - 1
        pos, line_start, breaks, end_mark = _breaks_at_indent(text, pos, line_start, indent)

    line_break: tuple[str, int, int] | None = None
    while pos - line_start == indent and pos < n:
        for b in breaks:
            out.synthetic(*b)
        leading_non_space = text[pos] not in " \t"
        a = pos
        pos = _match_end(_LINE_RUN, text, pos, n)
        out.literal(a, pos)
        brk, after = _line_break(text, pos)
        line_break = (brk, pos, after) if brk else None
        if brk:
            pos = line_start = after
        pos, line_start, breaks, end_mark = _breaks_at_indent(text, pos, line_start, indent)
        if pos - line_start == indent and pos < n:
            if (
                folded
                and line_break is not None
                and line_break[0] == "\n"
                and leading_non_space
                and text[pos] not in " \t"
            ):
                if not breaks:
                    out.synthetic(" ", line_break[1], line_break[2])
            elif line_break is not None:
                out.synthetic(*line_break)
        else:
            break

    if hdr.chomping is not False and line_break is not None:
        out.synthetic(*line_break)
    if hdr.chomping is True:
        for b in breaks:
            out.synthetic(*b)
    return out, end_mark


def _guess_parent_indent(text: str, header_pos: int) -> int:
    """Best guess of PyYAML's ``Scanner.indent`` when it scans the block scalar header.

    That is the column of the innermost open block collection (-1 at the document root): on
    the header's own line, the last ``- ``/``? `` entry or simple key before the header; if the
    header starts its line, the deepest such column not right of the header on the closest
    preceding content line.  Only used to order the candidates tried by :func:`_block`.
    """
    line_start = header_pos
    while line_start > 0 and text[line_start - 1] not in _BREAKS:
        line_start -= 1
    header_col = header_pos - line_start
    cols = _collection_columns(text[line_start:header_pos])
    if cols:
        return cols[-1]
    pos = line_start
    while pos > 0:
        end = pos - 1
        if text[end] == "\n" and end > 0 and text[end - 1] == "\r":
            end -= 1
        start = end
        while start > 0 and text[start - 1] not in _BREAKS:
            start -= 1
        cols = [c for c in _collection_columns(text[start:end]) if c <= header_col]
        if cols:
            return cols[-1]
        pos = start
    return -1


def _collection_columns(line: str) -> list[int]:
    """Columns at which block collections start on one line (``- ``, ``? ``, simple keys)."""
    cols: list[int] = []
    n = len(line)
    i = 0
    node_start: int | None = None
    while i < n:
        ch = line[i]
        nxt = line[i + 1] if i + 1 < n else " "
        if ch in " \t":
            i += 1
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            break
        elif ch in "-?" and nxt in " \t":
            cols.append(i)
            node_start = None
            i += 1
        elif ch == ":" and nxt in " \t":
            cols.append(i if node_start is None else node_start)
            node_start = None
            i += 1
        elif ch in "&!":
            if node_start is None:
                node_start = i
            while i < n and line[i] not in " \t":
                i += 1
        elif ch in "'\"":
            if node_start is None:
                node_start = i
            i += 1
            while i < n:
                if ch == '"' and line[i] == "\\":
                    i += 2
                    continue
                if line[i] == ch:
                    if ch == "'" and line.startswith("'", i + 1):
                        i += 2
                        continue
                    i += 1
                    break
                i += 1
        else:
            if node_start is None:
                node_start = i
            while i < n:
                c = line[i]
                if c == ":" and (i + 1 >= n or line[i + 1] in " \t"):
                    break
                if c in " \t" and line.startswith("#", i + 1):
                    break
                i += 1
    return cols


def _block(
    text: str,
    pos: int,
    end: int,
    folded: bool,
    parent_indent: int | None,
    expected: str | None,
) -> _Builder:
    """Scan a block scalar, resolving the parent indentation PyYAML used.

    With ``parent_indent`` unknown, every possible value (``-1`` .. header column) is tried,
    best guess first, and the first whose end mark equals ``end`` (and whose value equals
    ``expected``, when given) wins.
    """
    hdr = _block_header(text, pos)
    if parent_indent is not None:
        candidates = [parent_indent]
    else:
        line_start = pos
        while line_start > 0 and text[line_start - 1] not in _BREAKS:
            line_start -= 1
        candidates = list(range(-1, pos - line_start + 1))
        if hdr.increment is not None:
            # The end mark rarely tells explicit-indent candidates apart: try the likely one
            # first.  (Auto-detected indentation only depends on the parent when the body is
            # less indented than the parent allows, which the end mark does reveal.)
            guess = _guess_parent_indent(text, pos)
            candidates = [guess, *(c for c in candidates if c != guess)]
    seen: set[int] = set()
    for parent in candidates:
        min_indent = max(parent + 1, 1)
        if min_indent in seen:
            continue
        seen.add(min_indent)
        out, end_mark = _scan_block(text, folded, hdr, min_indent)
        if end_mark == end and (expected is None or out.value() == expected):
            return out
        if parent_indent is not None:
            break
    raise _Fail


# -- public API --------------------------------------------------------------------------


def scalar_source_map(
    text: str,
    start: int,
    end: int,
    style: str | None,
    *,
    parent_indent: int | None = None,
    value: str | None = None,
) -> ScalarSourceMap | None:
    """Reconstruct a scalar's value with per-character source spans.

    ``start``/``end``/``style`` are the ScalarNode's ``start_mark.index``, ``end_mark.index``
    and ``style`` (None plain, ``'``, ``"``, ``|``, ``>``).  For block scalars with an explicit
    indentation indicator (``|2``) the result depends on the enclosing block collection's
    column; pass it as ``parent_indent`` (-1 for a root scalar) when known, otherwise it is
    inferred from the text and the end mark.  If ``value`` (the node's value) is given, a
    reconstruction that differs from it yields None instead of wrong offsets.
    """
    try:
        result = _source_map(text, start, end, style, parent_indent, value)
    except Exception:  # _Fail, or anything a malformed input provokes: never raise
        return None
    if value is not None and result.value != value:
        return None
    return result


def _source_map(
    text: str,
    start: int,
    end: int,
    style: str | None,
    parent_indent: int | None,
    expected: str | None,
) -> ScalarSourceMap:
    if not 0 <= start <= end <= len(text):
        raise _Fail
    pos = _skip_properties(text, start, end)
    out = _Builder(text)
    final = pos
    if style is None:
        final = _scan_plain(text, pos, end, out)
    elif pos >= end:
        raise _Fail
    elif style in ("'", '"'):
        if text[pos] != style:
            raise _Fail
        close = _scan_flow(text, pos, style == '"', out)
        if close != end:
            raise _Fail
        final = close - 1
    elif style in ("|", ">"):
        if text[pos] != style:
            raise _Fail
        out = _block(text, pos, end, style == ">", parent_indent, expected)
        final = out.ends[-1] if out.ends else pos
    else:
        raise _Fail
    if out.ends:
        final = out.ends[-1]
    return ScalarSourceMap(out.value(), out.starts, out.ends, min(max(final, start), end))
