"""Memos keyed by document text, all in one store bounded by the bytes they hold.

The readers remember what they found in a text (a script, a chunk of one, a YAML document)
because a keystroke changes one part of a document and the rest is asked for again; the
engine remembers each command line's findings (`engine._CHECKED`). Every keystroke also
makes a new text, so a memo bounded only by its number of entries grows with the document:
`functools.lru_cache(1024)` over a 1.9 MB script held 351 versions of it (83 MB → 872 MB
in an editor session, issue 30).

Every memo of the process keeps its entries in one least-recently-used store (`Memo` is one
memo's view of it), so one budget bounds them all together and what is dropped first is
what no recent check asked for: the older versions of the documents being edited. An
entry weighs what it holds, as measured: its key's texts and its result walked object by
object (`weigh`). Weighing by the key's length alone, as before, counted a shell chunk's
words at 1 byte per character where tracemalloc measures 97 to 171 (each word keeps an
offset per character, issue 30).
"""

from __future__ import annotations

import gc
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import update_wrapper
from typing import Generic, ParamSpec, TypeVar, cast

P = ParamSpec("P")
R = TypeVar("R")

#: What an entry weighs besides what `weigh` counts (its place in the store, its key tuple).
_ENTRY_WEIGHT = 256
#: Bytes every memo of the process holds together, as `weigh` measures them: the latest
#: version of a 2 MB script (about 250 bytes per character of a long script: its chunks'
#: words, moved copies of them and its environment; `benchmarks/hardening.md`) with room for
#: the other open documents. Past it the oldest entries go, whatever the number of edits.
BUDGET = 512_000_000
#: Objects shared by every result, never held by a memo alone (classes, modules, code).
_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.CodeType)


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class WeighedLru(Generic[K, V]):
    """A least-recently-used store whose entries are weighed by their caller, dropped
    oldest first past `budget` (the newest entry stays, whatever it weighs). Safe to use
    from the lint threads and the event loop at once (hover reads documents too).

    Within `versions_of(document)` (the language server's check of one version of a
    document) every entry read or written is marked as that version's; when the check
    ends, the entries an earlier version of the document used and this one did not are
    dropped: what is kept of a document edited 100 times is its latest version's."""

    def __init__(self, budget: int) -> None:
        self._budget = budget
        #: Each entry's weight, value and the (document, version) that used it last.
        self._entries: OrderedDict[K, tuple[int, V, tuple[str, int] | None]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self._versions: dict[str, int] = {}
        self._current: ContextVar[tuple[str, int] | None] = ContextVar("version", default=None)

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            used = self._current.get()
            if used is not None:
                self._entries[key] = (entry[0], entry[1], used)
            return entry[1]

    def put(self, key: K, value: V, weight: int) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[0]
            self._entries[key] = (weight + _ENTRY_WEIGHT, value, self._current.get())
            self._weight += weight + _ENTRY_WEIGHT
            while self._weight > self._budget and len(self._entries) > 1:
                self._weight -= self._entries.popitem(last=False)[1][0]

    @contextmanager
    def versions_of(self, document: str) -> Iterator[None]:
        """Mark what is used in the block as the latest version of `document`'s; then drop
        what only its earlier versions used."""
        with self._lock:
            version = self._versions.get(document, 0) + 1
            self._versions[document] = version
        token = self._current.set((document, version))
        try:
            yield
        finally:
            self._current.reset(token)
            self._drop(
                lambda _key, used: used is not None and used[0] == document and used[1] < version
            )

    def forget(self, document: str) -> None:
        """Drop what `document` used last (it was closed)."""
        with self._lock:
            self._versions.pop(document, None)
        self._drop(lambda _key, used: used is not None and used[0] == document)

    def drop(self, which: Callable[[K], bool]) -> None:
        """Drop the entries whose key `which` picks."""
        self._drop(lambda key, _used: which(key))

    def _drop(self, which: Callable[[K, tuple[str, int] | None], bool]) -> None:
        with self._lock:
            for key in [key for key, entry in self._entries.items() if which(key, entry[2])]:
                self._weight -= self._entries.pop(key)[0]

    def held(self, which: Callable[[K], bool] = lambda _key: True) -> int:
        """What the entries `which` picks weigh now (all of them: what the budget bounds)."""
        with self._lock:
            return sum(entry[0] for key, entry in self._entries.items() if which(key))


#: The one store of every memo, keyed by (the memo, its key).
STORE: WeighedLru[tuple[object, Hashable], object] = WeighedLru(BUDGET)


class Memo(Generic[K, V]):
    """One memo's entries in `STORE`: bounded with every other memo's, dropped by itself
    when what it was computed from changes (`clear`)."""

    def get(self, key: K) -> V | None:
        return cast("V | None", STORE.get((self, key)))

    def put(self, key: K, value: V, weight: int) -> None:
        STORE.put((self, key), value, weight)

    def clear(self) -> None:
        STORE.drop(lambda key: key[0] is self)

    def held(self) -> int:
        return STORE.held(lambda key: key[0] is self)


def weigh(value: object) -> int:
    """The bytes `value` holds (as `sys.getsizeof` counts them), each object it reaches
    counted once. An object with a `memo_weight()` method says its own weight instead of
    being walked (a word: its offsets per character are most of a reader's result, and
    walking them cost 5x the walk). About 3 µs per object walked."""
    seen: set[int] = set()
    stack = [value]
    total = 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, _SHARED):
            continue
        seen.add(id(item))
        own = getattr(type(item), "memo_weight", None)
        if own is not None:
            total += own(item)
            continue
        total += sys.getsizeof(item)
        if not isinstance(item, (str, bytes, int, float)):
            stack.extend(gc.get_referents(item))
    return total


class TextMemo(Generic[P, R]):
    """`function` remembered by its (hashable) arguments in `STORE`, an entry weighed by
    its string arguments and its result (`weigh`)."""

    def __init__(self, function: Callable[P, R]) -> None:
        self.__wrapped__ = function
        self.store: Memo[Hashable, tuple[R]] = Memo()
        update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = self.store.get(key)
        if found is not None:
            return found[0]
        result = self.__wrapped__(*args, **kwargs)
        texts = sum(sys.getsizeof(arg) for arg in args if isinstance(arg, str))
        self.store.put(key, (result,), texts + weigh(result))
        return result


def text_memo(function: Callable[P, R]) -> TextMemo[P, R]:
    """A decorator: `TextMemo(function)`."""
    return TextMemo(function)
