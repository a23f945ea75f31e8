"""Offset <-> line/column conversion for one document snapshot.

Every position inside the engine is a *code point offset* into the document ``str`` (this is
what PyYAML's ``Mark.index`` is for ``str`` input, and what :mod:`yaml_scalars` and
:mod:`json_positions` produce).  Line/column pairs only exist at the edges: the LSP wants
zero-based lines and UTF-16 code units, the CLI wants human-readable line/column.

Two line models are kept, because the two consumers disagree:

* **YAML lines** (:meth:`TextIndex.line_col`, :meth:`offset_of`, :meth:`line_start`,
  :meth:`line_end`, :attr:`line_count`) count exactly what PyYAML's ``Mark.line`` counts:
  ``\\n``, ``\\r\\n`` (one break), a lone ``\\r``, and also ``\\x85`` (NEL), ``\\u2028`` (LS)
  and ``\\u2029`` (PS) -- see ``yaml/reader.py`` ``Reader.forward``.  So ``mark.line`` and
  ``TextIndex.line_col(mark.index)[0]`` always agree.  (``mark.column`` agrees too, except that
  PyYAML does not advance the column over U+FEFF; we count it like any other code point.)
* **LSP lines** (:meth:`lsp_position`, :meth:`offset_of_lsp`) follow the LSP specification,
  whose only line terminators are ``\\n``, ``\\r\\n`` and ``\\r``; an editor shows NEL/LS/PS
  inside a line, so LSP positions must not break there.

For ordinary files (no NEL/LS/PS) both models share one table.  Tables are lists of line start
offsets searched with :func:`bisect.bisect_right`; construction is a few C-level passes over
the text (well under a millisecond for 5,000 lines).

An offset that points *between* the ``\\r`` and ``\\n`` of a CRLF pair is treated as the end of
its line (the position of the ``\\r``) so that no conversion ever splits the pair.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

__all__ = ["TextIndex"]

_EXOTIC_BREAKS = ("\x85", "\u2028", "\u2029")
# Single-character separators (used when the text has no lone ``\r``: then a ``\r\n`` pair
# ends with ``\n`` and splitting on ``\n`` alone yields the right line starts).
_YAML_SINGLE_SPLIT = re.compile("[\n\x85\u2028\u2029]")
# General case (lone ``\r`` present): capture the separators to know their lengths.
_YAML_SPLIT = re.compile("(\r\n|[\r\n\x85\u2028\u2029])")
_LSP_SPLIT = re.compile("(\r\n|[\r\n])")


def _line_starts(text: str, *, yaml_breaks: bool) -> list[int]:
    """Offsets at which each line begins (always starts with 0)."""
    cr = text.count("\r")
    if cr == 0 or cr == text.count("\r\n"):
        parts = _YAML_SINGLE_SPLIT.split(text) if yaml_breaks else text.split("\n")
        return list(accumulate([len(p) + 1 for p in parts[:-1]], initial=0))
    pieces = (_YAML_SPLIT if yaml_breaks else _LSP_SPLIT).split(text)
    ends = list(accumulate(map(len, pieces)))
    starts = [0]
    starts.extend(ends[1::2])
    return starts


def _utf16_units(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


class TextIndex:
    """Offsets are indexes into the Python str (code points)."""

    __slots__ = ("_has_astral", "_lsp_starts", "_starts", "line_count", "text")

    text: str
    line_count: int

    def __init__(self, text: str) -> None:
        self.text = text
        exotic = not text.isascii() and any(ch in text for ch in _EXOTIC_BREAKS)
        self._starts = _line_starts(text, yaml_breaks=exotic)
        self._lsp_starts = _line_starts(text, yaml_breaks=False) if exotic else self._starts
        # UTF-16 is longer than the code point count exactly when astral characters exist;
        # encoding is a fast C loop (a regex search over the text is ~50x slower).
        self._has_astral = not text.isascii() and _utf16_units(text) != len(text)
        self.line_count = len(self._starts)

    # -- helpers ---------------------------------------------------------------------------

    def _clamp(self, offset: int) -> int:
        if offset < 0:
            return 0
        n = len(self.text)
        return n if offset > n else offset

    @staticmethod
    def _end_of(text: str, starts: list[int], line: int) -> int:
        """End of ``line`` (excluding its break) in the given line table."""
        if line + 1 >= len(starts):
            return len(text)
        nxt = starts[line + 1]
        if nxt >= 2 and text[nxt - 2 : nxt] == "\r\n":
            return nxt - 2
        return nxt - 1

    def _utf16_len(self, start: int, end: int) -> int:
        if not self._has_astral:
            return end - start
        return _utf16_units(self.text[start:end])

    # -- YAML (PyYAML Mark-compatible) lines ------------------------------------------------

    def line_start(self, line: int) -> int:
        """Offset of the first character of ``line`` (clamped to the document)."""
        if line < 0:
            return 0
        if line >= self.line_count:
            return len(self.text)
        return self._starts[line]

    def line_end(self, line: int) -> int:
        """Offset just before the line break ending ``line`` (the break is excluded)."""
        if line < 0:
            line = 0
        if line >= self.line_count:
            return len(self.text)
        return self._end_of(self.text, self._starts, line)

    def line_col(self, offset: int) -> tuple[int, int]:
        """Zero-based (line, column in code points), lines counted like PyYAML's Mark.line."""
        offset = self._clamp(offset)
        line = bisect_right(self._starts, offset) - 1
        start = self._starts[line]
        end = self._end_of(self.text, self._starts, line)
        return line, (offset if offset < end else end) - start

    def offset_of(self, line: int, col: int) -> int:
        """Inverse of :meth:`line_col`; out-of-range lines/columns clamp to document/line end."""
        if line < 0:
            return 0
        if line >= self.line_count:
            return len(self.text)
        start = self._starts[line]
        end = self._end_of(self.text, self._starts, line)
        if col < 0:
            return start
        return min(start + col, end)

    # -- LSP lines (\n, \r\n, \r) and UTF-16 columns ---------------------------------------

    @property
    def lsp_line_count(self) -> int:
        """Number of lines as an LSP client counts them (differs only with NEL/LS/PS)."""
        return len(self._lsp_starts)

    def lsp_position(self, offset: int) -> tuple[int, int]:
        """Zero-based (line, character in UTF-16 code units) as the LSP expects."""
        offset = self._clamp(offset)
        starts = self._lsp_starts
        line = bisect_right(starts, offset) - 1
        start = starts[line]
        end = self._end_of(self.text, starts, line)
        return line, self._utf16_len(start, offset if offset < end else end)

    def offset_of_lsp(self, line: int, character: int) -> int:
        """Inverse of :meth:`lsp_position`.

        Out-of-range lines clamp to the document start/end, characters past the line end clamp
        to the line end (as the LSP specification asks), and a character pointing into the
        middle of a surrogate pair rounds down to the start of that code point.
        """
        starts = self._lsp_starts
        if line < 0:
            return 0
        if line >= len(starts):
            return len(self.text)
        start = starts[line]
        end = self._end_of(self.text, starts, line)
        if character <= 0:
            return start
        if not self._has_astral:
            return min(start + character, end)
        segment = self.text[start:end]
        if _utf16_units(segment) == len(segment):
            return min(start + character, end)
        units = 0
        for i, ch in enumerate(segment):
            width = 2 if ord(ch) > 0xFFFF else 1
            if units + width > character:
                return start + i
            units += width
        return end
