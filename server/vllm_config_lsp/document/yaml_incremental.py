"""Re-compose only the top-level entries that changed: the keystroke path on large files.

A config is almost always a plain block mapping: column-0 keys, each followed by its value.
Such a document composes exactly like its pieces composed one by one (each piece starts at
column 0 with no flow collection, quoted scalar or block scalar left open, and no alias can
reach into another piece: PyYAML would report an undefined alias). So the text is split
before every column-0 line that can start a key, each piece is composed alone (cached by
its text) and its nodes are moved to their place in the document. Everything built from a
piece alone (its Python value, its expanded size, the positioned JSON tree of its value) is
cached with it and moved along.

Anything unusual takes the full path (`yaml_tree.parse_yaml`): text libyaml may not
compose (tabs, tags, `?` keys, directives, …), document markers, a piece that does not
compose alone or is not exactly one `key: value` pair, merge keys at the top level, or
unsafe tags. A piece that fails alone proves nothing about the whole, so its error is never
reported from here: the full path reports it with its own recovery. Equivalence with the
full path is a property test (tests/document/test_incremental.py).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any
from weakref import WeakKeyDictionary

from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from vllm_config_lsp.document.value_tree import Entry, ValueNode
from vllm_config_lsp.document.yaml_tree import (
    MERGE_TAG,
    ParsedYaml,
    _compose_all_libyaml,
    _unsafe_tags,
    construct_value,
    expanded_size,
    libyaml_eligible,
)

#: Lines that make the document more than a plain block mapping (document markers, directives).
_NOT_PLAIN = re.compile(r"^(?:---|\.\.\.)(?:[ \r\n]|$)|^%", re.MULTILINE)
#: Column-0 lines that can start a top-level key (not indentation, a comment or `- item`).
_KEY_LINE = re.compile(r"^(?:[^\s#-]|-[^\s])", re.MULTILINE)
#: Below this, the whole text composes in well under a millisecond: no splitting.
MIN_CHARS = 2_000
#: Off: every document takes the full path (the equivalence tests compare both).
ENABLED = True
#: Pieces not used by the last this many builds are dropped from the cache.
KEEP_BUILDS = 8
#: And the cache never holds more text than this (each character is a few node objects).
MAX_CACHED_CHARS = 1_000_000

_UNSET: Any = object()


@dataclass(eq=False)
class Piece:
    """One top-level `key: value`, composed alone and placed at `offset`/`line`.

    The nodes composed first (`base_key`/`base_value`, at `base_offset`/`base_line`) are
    never changed: a piece placed elsewhere sees them through `_Moved*` nodes, which shift
    positions on access and wrap children only when asked for (a walk pays for what it
    visits; an entry nobody looks at costs nothing to move). Older models keep theirs.
    """

    text: str
    offset: int
    line: int
    base_key: Node
    base_value: Node
    base_offset: int
    base_line: int
    base_start_mark: Any  # the piece's own mapping marks (the first and last give the root's)
    base_end_mark: Any
    size: int  # expanded node count of key + value (`expanded_size` of the root sums these)
    key_value: Any = _UNSET
    value_value: Any = _UNSET
    #: catalogue version → (offset the tree was built at, `yaml_to_value` tree of `value`).
    trees: dict[str, tuple[int, ValueNode]] = field(default_factory=dict)
    #: Anything else derived from the base nodes and `text` alone (relative to the piece,
    #: shared by every placement), e.g. the suppression layout.
    cache: dict[str, Any] = field(default_factory=dict)
    last_used: int = 0

    def __post_init__(self) -> None:
        delta, lines = self.offset - self.base_offset, self.line - self.base_line
        self.key = _moved(self.base_key, delta, lines)
        self.value = _moved(self.base_value, delta, lines)
        self.start_mark = _shift_mark(self.base_start_mark, delta, lines)
        self.end_mark = _shift_mark(self.base_end_mark, delta, lines)

    def constructed_key(self) -> Any:
        """`construct_value` of a scalar key (None for a collection), built once."""
        if self.key_value is _UNSET:
            self.key_value = (
                construct_value(self.base_key) if isinstance(self.base_key, ScalarNode) else None
            )
        return self.key_value

    def constructed_value(self) -> Any:
        if self.value_value is _UNSET:
            self.value_value = construct_value(self.base_value)
        return self.value_value

    def tree(self, version: str, build: Callable[[], ValueNode]) -> ValueNode:
        """The JSON tree of the value for this release, built once and moved along."""
        cached = self.trees.get(version)
        if cached is None:
            tree = build()
        elif cached[0] != self.offset:
            tree = shift_tree(cached[1], self.offset - cached[0])
        else:
            return cached[1]
        self.trees[version] = (self.offset, tree)
        return tree

    def moved(self, offset: int, line: int) -> Piece:
        """The same entry placed at `offset`/`line` (this piece's nodes are left as they are)."""
        return Piece(
            self.text,
            offset,
            line,
            self.base_key,
            self.base_value,
            self.base_offset,
            self.base_line,
            self.base_start_mark,
            self.base_end_mark,
            self.size,
            self.key_value,
            self.value_value,
            dict(self.trees),
            self.cache,
        )


def _shift_mark(mark: Any, delta: int, lines: int) -> Any:
    if not delta and not lines:
        return mark
    return type(mark)(
        mark.name, mark.index + delta, mark.line + lines, mark.column, mark.buffer, mark.pointer
    )


def _moved(node: Node, delta: int, lines: int) -> Node:
    if not delta and not lines:
        return node
    if isinstance(node, ScalarNode):
        cls: type[Node] = _MovedScalar
    elif isinstance(node, MappingNode):
        cls = _MovedMapping
    else:
        cls = _MovedSequence
    moved = cls.__new__(cls)
    attributes = dict(node.__dict__)
    del attributes["start_mark"], attributes["end_mark"]
    if cls is not _MovedScalar:
        del attributes["value"]
    attributes["_base"] = node
    attributes["_delta"] = delta
    attributes["_lines"] = lines
    moved.__dict__ = attributes
    return moved


def _moved_mark(name: str) -> Any:
    """A mark of `_base` moved by `_delta` characters and `_lines` lines, made on access."""

    def get(self: Any) -> Any:
        try:
            return self.__dict__[name]
        except KeyError:
            mark = getattr(self._base, name)
            value = self.__dict__[name] = _shift_mark(mark, self._delta, self._lines)
            return value

    def set_(self: Any, value: Any) -> None:
        self.__dict__[name] = value

    return property(get, set_)


class _MovedNode:
    """A node of another placement of the same entry: positions moved on access."""

    _base: Node
    _delta: int
    _lines: int
    start_mark = _moved_mark("start_mark")
    end_mark = _moved_mark("end_mark")


class _MovedScalar(_MovedNode, ScalarNode):
    pass


class _MovedMapping(_MovedNode, MappingNode):
    @property
    def value(self) -> list[tuple[Node, Node]]:
        cached = self.__dict__.get("_value")
        if cached is None:
            delta, lines = self._delta, self._lines
            cached = [
                (_moved(k, delta, lines), _moved(v, delta, lines)) for k, v in self._base.value
            ]
            self.__dict__["_value"] = cached
        return cached


class _MovedSequence(_MovedNode, SequenceNode):
    @property
    def value(self) -> list[Node]:
        cached = self.__dict__.get("_value")
        if cached is None:
            delta, lines = self._delta, self._lines
            cached = [_moved(item, delta, lines) for item in self._base.value]
            self.__dict__["_value"] = cached
        return cached


def shift_tree(node: ValueNode, delta: int) -> ValueNode:
    """The tree with every offset moved by `delta`: wrapped, the pieces made on access."""
    base = node.__dict__.get("_base", node) if isinstance(node, _MovedValueNode) else node
    delta += node._delta if isinstance(node, _MovedValueNode) else 0
    if not delta:
        return base
    moved = _MovedValueNode.__new__(_MovedValueNode)
    moved.__dict__ = {
        "_base": base,
        "_delta": delta,
        "value": base.value,
        "origin": base.origin,
        "meta": base.meta,
    }
    return moved


def base_tree(node: ValueNode) -> ValueNode:
    """The tree a moved tree wraps (itself when it was not moved)."""
    return node._base if isinstance(node, _MovedValueNode) else node


_NESTED_DUPLICATES: WeakKeyDictionary[ValueNode, bool] = WeakKeyDictionary()


def may_have_duplicate_keys(tree: ValueNode) -> bool:
    """False when no object in `tree` repeats a key (VC004 then has nothing to report).
    Below the top level this is computed once per unmoved tree: a moved tree asks it."""
    keys = [entry.key for entry in tree.entries or ()]  # top-level keys may be renamed
    if len(set(keys)) != len(keys):
        return True
    base = base_tree(tree)
    nested = _NESTED_DUPLICATES.get(base)
    if nested is None:
        children = [entry.value for entry in base.entries or ()] + list(base.items or ())
        nested = _NESTED_DUPLICATES[base] = any(map(_has_duplicates, children))
    return nested


def _has_duplicates(node: ValueNode) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.entries is not None:
            keys = [entry.key for entry in current.entries]
            if len(set(keys)) != len(keys):
                return True
            stack.extend(entry.value for entry in current.entries)
        if current.items is not None:
            stack.extend(current.items)
    return False


def _lazy(name: str, make: Any) -> property:
    """An attribute computed from `_base` on first access; assignable like a field."""

    def get(self: Any) -> Any:
        try:
            return self.__dict__[name]
        except KeyError:
            value = self.__dict__[name] = make(self._base, self._delta)
            return value

    def set_(self: Any, value: Any) -> None:
        self.__dict__[name] = value

    return property(get, set_)


def _shift_span(span: tuple[int, int] | None, delta: int) -> tuple[int, int] | None:
    return None if span is None else (span[0] + delta, span[1] + delta)


class _MovedValueNode(ValueNode):
    _base: ValueNode
    _delta: int
    start = _lazy("start", lambda b, d: b.start + d)
    end = _lazy("end", lambda b, d: b.end + d)
    entries = _lazy(
        "entries",
        lambda b, d: None if b.entries is None else [_moved_entry(e, d) for e in b.entries],
    )
    items = _lazy(
        "items", lambda b, d: None if b.items is None else [shift_tree(i, d) for i in b.items]
    )


class _MovedEntry(Entry):
    _base: Entry
    _delta: int
    key_start = _lazy("key_start", lambda b, d: b.key_start + d)
    key_end = _lazy("key_end", lambda b, d: b.key_end + d)
    start = _lazy("start", lambda b, d: b.start + d)
    end = _lazy("end", lambda b, d: b.end + d)
    remove_span = _lazy("remove_span", lambda b, d: _shift_span(b.remove_span, d))
    value = _lazy("value", lambda b, d: shift_tree(b.value, d))


def _moved_entry(entry: Entry, delta: int) -> Entry:
    moved = _MovedEntry.__new__(_MovedEntry)
    moved.__dict__ = {"_base": entry, "_delta": delta, "key": entry.key}
    return moved


class _Cache:
    def __init__(self) -> None:
        self.pieces: dict[str, Piece] = {}
        self.chars = 0
        self.builds = 0
        self.lock = threading.Lock()

    def evict(self) -> None:
        oldest = self.builds - KEEP_BUILDS
        for text, piece in list(self.pieces.items()):
            if piece.last_used < oldest or self.chars > MAX_CACHED_CHARS:
                del self.pieces[text]
                self.chars -= len(text)


_CACHE = _Cache()


#: Anything that may be an anchor: composed alone, a piece cannot see a duplicate anchor in
#: another piece (PyYAML's "found duplicate anchor"), so such documents take the full path.
_MAYBE_ANCHOR = re.compile(r"&\S")


def _compose_piece(text: str, offset: int, line: int) -> Piece | None:
    if _MAYBE_ANCHOR.search(text):
        return None
    documents = _compose_all_libyaml(text)
    if documents is None or len(documents) != 1:
        return None
    root = documents[0]
    if not isinstance(root, MappingNode) or root.flow_style or len(root.value) != 1:
        return None
    key, value = root.value[0]
    if key.tag == MERGE_TAG or _unsafe_tags(root) or _has_alias(root):
        return None
    memo: dict[int, int] = {}
    size = expanded_size(key, memo) + expanded_size(value, memo)
    piece = Piece(text, 0, 0, key, value, 0, 0, root.start_mark, root.end_mark, size)
    return piece.moved(offset, line) if offset or line else piece


def _has_alias(root: Node) -> bool:
    """Whether a node is reached twice (an alias: moved nodes are wrapped per path)."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            return True
        seen.add(id(node))
        if isinstance(node, MappingNode):
            for key, value in node.value:
                stack.append(key)
                stack.append(value)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)
    return False


@dataclass
class Composed:
    parsed: ParsedYaml
    pieces: list[Piece]


def compose(text: str) -> Composed | None:
    """The document composed piece by piece, or None when the full path must do it."""
    if (
        not ENABLED
        or len(text) < MIN_CHARS
        or not libyaml_eligible(text)
        or _NOT_PLAIN.search(text)
    ):
        return None
    starts = [match.start() for match in _KEY_LINE.finditer(text)]
    if not starts or not _only_comments(text[: starts[0]]):
        return None  # content before the first column-0 key (`- item`, indented text)
    starts[0] = 0
    starts.append(len(text))
    pieces: list[Piece] = []
    with _CACHE.lock:
        _CACHE.builds += 1
        build = _CACHE.builds
        used: set[int] = set()
        line = 0
        for start, end in pairwise(starts):
            chunk = text[start:end]
            cached = _CACHE.pieces.get(chunk)
            if cached is None:
                piece = _compose_piece(chunk, start, line)
                if piece is None:
                    return None
                _CACHE.chars += len(chunk)
            elif id(cached) in used or cached.offset != start or cached.line != line:
                piece = cached.moved(start, line)
            else:
                piece = cached
            used.add(id(piece))
            piece.last_used = build
            _CACHE.pieces[chunk] = piece
            pieces.append(piece)
            line += chunk.count("\n")
        _CACHE.evict()
    root = MappingNode(
        "tag:yaml.org,2002:map",
        [(piece.key, piece.value) for piece in pieces],
        pieces[0].start_mark,
        pieces[-1].end_mark,
        flow_style=False,
    )
    return Composed(ParsedYaml(root, [], []), pieces)


def _only_comments(prefix: str) -> bool:
    return all(not line.strip() or line.lstrip().startswith("#") for line in prefix.splitlines())


def root_size(pieces: list[Piece]) -> int:
    return 1 + sum(piece.size for piece in pieces)
