"""A JSON parser that behaves exactly like ``json.loads`` but keeps positions.

vLLM parses JSON-valued flags (``compilation-config: '{"level": 3}'``) with Python's json
module, so a linter must accept exactly what ``json.loads`` accepts, report the same error
message at the same index, and -- unlike ``json.loads`` -- tell where every value sits so a
diagnostic can underline one array element.

The grammar and every error path mirror CPython's C accelerator (``Modules/_json.c``:
``scan_once_unicode``, ``_parse_object_unicode``, ``_parse_array_unicode``,
``scanstring_unicode``, ``_match_number_unicode``), which is what ``json.loads`` runs; its
messages differ from the pure-Python fallback in places (``Invalid \\escape`` is reported at
the backslash, without the character).  Defaults of ``json.loads`` apply: ``strict=True``,
``NaN``/``Infinity``/``-Infinity`` accepted, duplicate keys keep the last value (every member
is still listed in :attr:`JsonObject.members`).  Python 3.13 added the "Illegal trailing
comma" errors; we follow the running interpreter.

Deviations, all outside what a config file contains: nesting deeper than ``MAX_DEPTH``
raises :class:`JsonError` with the RecursionError text of ``json.loads`` (which raises it
at the C recursion limit of the interpreter: 1,000 levels in 3.10/3.11, fewer than
``MAX_DEPTH`` in every release vLLM supports; the parser itself is iterative), and an
integer literal
longer than Python's int-digits limit raises :class:`JsonError` (positioned at the number)
with the ``ValueError`` text ``json.loads`` would raise.
"""

from __future__ import annotations

import re
import sys
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vllm_config_lsp.document.human_numbers import Expansion, expand_json_human_readable_numbers

__all__ = [
    "MAX_DEPTH",
    "JsonArray",
    "JsonError",
    "JsonNode",
    "JsonObject",
    "JsonScalar",
    "JsonString",
    "parse_json",
]

_TRAILING_COMMA_ERRORS = sys.version_info >= (3, 13)
#: Deeper than this `json.loads` raises RecursionError on every Python vLLM runs on, and
#: a tree no deeper stays cheap to walk.
MAX_DEPTH = 20_000

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_STR_CHUNK = re.compile(r'[^"\\\x00-\x1f]*')
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")
_CONSTANTS: dict[str, float] = {
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}


class JsonError(ValueError):
    """Same ``msg``/``pos`` (and ``lineno``/``colno``) as ``json.JSONDecodeError`` would have.

    ``pos`` indexes the string given to :func:`parse_json` (the *unexpanded* string when
    human-readable numbers are on).
    """

    msg: str
    pos: int
    doc: str
    lineno: int
    colno: int

    def __init__(self, msg: str, pos: int, doc: str = "") -> None:
        lineno = doc.count("\n", 0, pos) + 1
        colno = pos - doc.rfind("\n", 0, pos)
        super().__init__(f"{msg}: line {lineno} column {colno} (char {pos})")
        self.msg = msg
        self.pos = pos
        self.doc = doc
        self.lineno = lineno
        self.colno = colno

    def __reduce__(self) -> tuple[Any, ...]:
        return self.__class__, (self.msg, self.pos, self.doc)


@dataclass(eq=False)
class JsonNode:
    """A parsed JSON value; ``[start, end)`` indexes the parsed string.

    Every concrete node has ``value``: the Python object ``json.loads`` gives for it.
    """

    start: int
    end: int

    if TYPE_CHECKING:  # declared for type checkers only: subclasses store it as a field

        @property
        def value(self) -> Any: ...


@dataclass(eq=False)
class JsonString(JsonNode):
    value: str


@dataclass(eq=False)
class JsonScalar(JsonNode):
    """Number, ``true``/``false``/``null`` or a NaN/Infinity constant."""

    value: int | float | bool | None


@dataclass(eq=False)
class JsonArray(JsonNode):
    items: list[JsonNode]
    value: list[Any] = field(repr=False)


@dataclass(eq=False)
class JsonObject(JsonNode):
    members: list[tuple[JsonString, JsonNode]]
    value: dict[str, Any] = field(repr=False)  # json.loads semantics: last duplicate wins

    def get(self, key: str) -> JsonNode | None:
        """The member value json.loads keeps for ``key`` (the last one), or None."""
        for k, v in reversed(self.members):
            if k.value == key:
                return v
        return None

    def get_member(self, key: str) -> tuple[JsonString, JsonNode] | None:
        """The (key node, value node) pair json.loads keeps for ``key``, or None."""
        for member in reversed(self.members):
            if member[0].value == key:
                return member
        return None


class _Frame:
    """An array or object whose elements are still being parsed."""

    __slots__ = ("closer", "items", "key", "members", "start", "value")

    def __init__(self, start: int, is_object: bool) -> None:
        self.start = start
        self.closer = "}" if is_object else "]"
        self.items: list[JsonNode] = []
        self.members: list[tuple[JsonString, JsonNode]] = []
        self.key: JsonString | None = None
        self.value: Any = {} if is_object else []


def _scan_string(s: str, quote: int) -> JsonString:
    """``scanstring_unicode`` with strict=True; ``quote`` is the opening quote's index."""
    n = len(s)
    begin = quote
    pos = quote + 1
    chunks: list[str] = []
    while True:
        chunk_end = _STR_CHUNK.match(s, pos).end()  # type: ignore[union-attr]
        if chunk_end >= n:
            raise JsonError("Unterminated string starting at", begin, s)
        c = s[chunk_end]
        if c != '"' and c != "\\":
            raise JsonError("Invalid control character at", chunk_end, s)
        if c == '"':
            if not chunks:
                return JsonString(begin, chunk_end + 1, s[pos:chunk_end])
            chunks.append(s[pos:chunk_end])
            return JsonString(begin, chunk_end + 1, "".join(chunks))
        if chunk_end > pos:
            chunks.append(s[pos:chunk_end])
        nxt = chunk_end + 1  # index of the escape character
        if nxt == n:
            raise JsonError("Unterminated string starting at", begin, s)
        c = s[nxt]
        if c != "u":
            replacement = _ESCAPES.get(c)
            if replacement is None:
                raise JsonError("Invalid \\escape", chunk_end, s)
            chunks.append(replacement)
            pos = nxt + 1
            continue
        digits_start = nxt + 1
        end = digits_start + 4
        if end >= n:
            raise JsonError("Invalid \\uXXXX escape", nxt, s)
        digits = s[digits_start:end]
        if not all(d in _HEX for d in digits):
            raise JsonError("Invalid \\uXXXX escape", nxt, s)
        code = int(digits, 16)
        if 0xD800 <= code <= 0xDBFF and end + 6 < n and s[end] == "\\" and s[end + 1] == "u":
            low_digits = s[end + 2 : end + 6]
            if not all(d in _HEX for d in low_digits):
                raise JsonError("Invalid \\uXXXX escape", end + 1, s)
            low = int(low_digits, 16)
            if 0xDC00 <= low <= 0xDFFF:
                code = 0x10000 + (((code - 0xD800) << 10) | (low - 0xDC00))
                end += 6
        chunks.append(chr(code))
        pos = end


def _scan_scalar(s: str, idx: int) -> JsonNode:
    """Constants and numbers (``scan_once_unicode`` fall-through and ``_match_number``)."""
    n = len(s)
    c = s[idx]
    if c == "n" and idx + 3 < n and s.startswith("ull", idx + 1):
        return JsonScalar(idx, idx + 4, None)
    if c == "t" and idx + 3 < n and s.startswith("rue", idx + 1):
        return JsonScalar(idx, idx + 4, True)
    if c == "f" and idx + 4 < n and s.startswith("alse", idx + 1):
        return JsonScalar(idx, idx + 5, False)
    if c == "N" and idx + 2 < n and s.startswith("aN", idx + 1):
        return JsonScalar(idx, idx + 3, _CONSTANTS["NaN"])
    if c == "I" and idx + 7 < n and s.startswith("nfinity", idx + 1):
        return JsonScalar(idx, idx + 8, _CONSTANTS["Infinity"])
    if c == "-" and idx + 8 < n and s.startswith("Infinity", idx + 1):
        return JsonScalar(idx, idx + 9, _CONSTANTS["-Infinity"])
    m = _NUMBER.match(s, idx)
    if m is None:
        raise JsonError("Expecting value", idx, s)
    integer, frac, exp = m.groups()
    end = m.end()
    if frac or exp:
        return JsonScalar(idx, end, float(s[idx:end]))
    try:
        return JsonScalar(idx, end, int(integer))
    except ValueError as e:  # Python's int max-str-digits limit
        raise JsonError(str(e), idx, s) from None


def _skip_ws(s: str, idx: int) -> int:
    return _WS.match(s, idx).end()  # type: ignore[union-attr]


def _read_key(s: str, idx: int, frame: _Frame) -> int:
    """Read ``"key"`` + ``:`` at ``idx`` into ``frame``; returns the index of the value."""
    if idx >= len(s) or s[idx] != '"':
        raise JsonError("Expecting property name enclosed in double quotes", idx, s)
    key = _scan_string(s, idx)
    frame.key = key
    idx = _skip_ws(s, key.end)
    if idx >= len(s) or s[idx] != ":":
        raise JsonError("Expecting ':' delimiter", idx, s)
    return _skip_ws(s, idx + 1)


def _parse_at(s: str, idx: int) -> tuple[JsonNode, int]:
    """``scan_once`` at ``idx`` without recursion: returns (node, index after it)."""
    n = len(s)
    stack: list[_Frame] = []
    while True:
        # -- scan one term at idx (containers push a frame and continue with their first
        #    element) ------------------------------------------------------------------
        if idx >= n:
            raise JsonError("Expecting value", idx, s)
        c = s[idx]
        node: JsonNode
        if c == '"':
            node = _scan_string(s, idx)
        elif c == "{" or c == "[":
            if len(stack) >= MAX_DEPTH:
                kind = "object" if c == "{" else "array"
                message = f"maximum recursion depth exceeded while decoding a JSON {kind}"
                raise JsonError(f"{message} from a unicode string", idx, s)
            frame = _Frame(idx, c == "{")
            first = _skip_ws(s, idx + 1)
            if first < n and s[first] == frame.closer:
                if c == "{":
                    node = JsonObject(idx, first + 1, [], {})
                else:
                    node = JsonArray(idx, first + 1, [], [])
            else:
                stack.append(frame)
                idx = _read_key(s, first, frame) if c == "{" else first
                continue
        else:
            node = _scan_scalar(s, idx)
        idx = node.end
        # -- attach the finished node to its container; close containers as needed ------
        while True:
            if not stack:
                return node, idx
            frame = stack[-1]
            if frame.key is not None:
                frame.members.append((frame.key, node))
                frame.value[frame.key.value] = node.value
            else:
                frame.items.append(node)
                frame.value.append(node.value)
            idx = _skip_ws(s, idx)
            if idx < n and s[idx] == frame.closer:
                stack.pop()
                idx += 1
                if frame.closer == "}":
                    node = JsonObject(frame.start, idx, frame.members, frame.value)
                else:
                    node = JsonArray(frame.start, idx, frame.items, frame.value)
                continue
            if idx >= n or s[idx] != ",":
                raise JsonError("Expecting ',' delimiter", idx, s)
            comma = idx
            idx = _skip_ws(s, idx + 1)
            if _TRAILING_COMMA_ERRORS and idx < n and s[idx] == frame.closer:
                kind = "object" if frame.closer == "}" else "array"
                raise JsonError(f"Illegal trailing comma before end of {kind}", comma, s)
            if frame.closer == "}":
                idx = _read_key(s, idx, frame)
            break


def _loads(s: str) -> JsonNode:
    """``json.loads`` for ``str`` input, returning the positioned tree."""
    if s.startswith("\ufeff"):
        raise JsonError("Unexpected UTF-8 BOM (decode using utf-8-sig)", 0, s)
    node, end = _parse_at(s, _skip_ws(s, 0))
    end = _skip_ws(s, end)
    if end != len(s):
        raise JsonError("Extra data", end, s)
    return node


class _PositionMap:
    """Maps indexes of the expanded string back to the original one."""

    def __init__(self, expansions: list[Expansion]) -> None:
        self._expansions = expansions
        self._new_starts = [e.new_start for e in expansions]

    def __call__(self, pos: int) -> int:
        i = bisect_right(self._new_starts, pos) - 1
        if i < 0:
            return pos
        e = self._expansions[i]
        if pos >= e.new_end:
            return pos - e.new_end + e.end
        return e.start + min(pos - e.new_start, e.end - e.start)


def _remap(root: JsonNode, to_original: _PositionMap) -> None:
    todo: list[JsonNode] = [root]
    while todo:
        node = todo.pop()
        node.start = to_original(node.start)
        node.end = to_original(node.end)
        if isinstance(node, JsonArray):
            todo.extend(node.items)
        elif isinstance(node, JsonObject):
            for key, value in node.members:
                todo.append(key)
                todo.append(value)


def parse_json(s: str, *, human_readable_numbers: bool = False) -> JsonNode:
    """Parse ``s`` like ``json.loads`` and return a positioned tree (root ``.value`` equals
    ``json.loads(s)``); raise :class:`JsonError` with json's ``msg`` and ``pos`` otherwise.

    With ``human_readable_numbers`` the string is first expanded the way vLLM does before
    parsing JSON config values (``80m`` -> ``80000000``), but all positions -- nodes and
    errors -- refer to ``s`` as written.  A number node built from a token spans the token.
    """
    if not human_readable_numbers:
        return _loads(s)
    expanded, expansions = expand_json_human_readable_numbers(s)
    if not expansions:
        return _loads(s)
    to_original = _PositionMap(expansions)
    try:
        root = _loads(expanded)
    except JsonError as e:
        raise JsonError(e.msg, to_original(e.pos), s) from None
    _remap(root, to_original)
    return root
