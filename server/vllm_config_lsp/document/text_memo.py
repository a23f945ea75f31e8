"""Memos keyed by document text, bounded by how much text they hold.

The readers remember what they found in a text (a script, a chunk of one, a YAML document)
because a keystroke changes one part of a document and the rest is asked for again. Every
keystroke also makes a new text, so a memo bounded only by its number of entries grows with
the document: `functools.lru_cache(1024)` over a 1.9 MB script held 351 versions of it
(83 MB → 872 MB in an editor session, issue 30). These memos weigh each entry by the length
of the texts in its key and drop the least recently used entries past a budget, so what they
hold is the latest versions of the documents being edited, whatever their size.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import update_wrapper
from typing import Generic, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

#: What an entry weighs besides its texts (the key tuple, the result's own objects).
_ENTRY_WEIGHT = 256
#: Characters of text a memo holds by default: a 2 MB script's latest version and the
#: chunks of it a keystroke did not change, with room for the other open documents. What a
#: reader keeps per character of text (words with per-character offsets) is tens of bytes,
#: so this is a few hundred MB at worst, whatever the number of edits.
DEFAULT_BUDGET = 2_500_000


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class WeighedLru(Generic[K, V]):
    """A least-recently-used store whose entries are weighed by their caller, dropped
    oldest first past `budget` (the newest entry stays, whatever it weighs). Safe to use
    from the lint thread and the event loop at once (hover reads documents too)."""

    def __init__(self, budget: int) -> None:
        self._budget = budget
        self._entries: OrderedDict[K, tuple[int, V]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return None
            self._entries.move_to_end(key)
            return entry[1]

    def put(self, key: K, value: V, weight: int) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._weight -= old[0]
            self._entries[key] = (weight + _ENTRY_WEIGHT, value)
            self._weight += weight + _ENTRY_WEIGHT
            while self._weight > self._budget and len(self._entries) > 1:
                self._weight -= self._entries.popitem(last=False)[1][0]

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._weight = 0

    def held(self) -> int:
        """What the entries kept weigh now (what the budget bounds)."""
        return self._weight


class TextMemo(Generic[P, R]):
    """`function` remembered by its (hashable) arguments in a `WeighedLru` that weighs an
    entry by the length of its string arguments."""

    def __init__(self, function: Callable[P, R], budget: int) -> None:
        self.__wrapped__ = function
        self.store: WeighedLru[Hashable, tuple[R]] = WeighedLru(budget)
        update_wrapper(self, function)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        key: Hashable = (args, tuple(sorted(kwargs.items()))) if kwargs else args
        found = self.store.get(key)
        if found is not None:
            return found[0]
        result = self.__wrapped__(*args, **kwargs)
        self.store.put(key, (result,), sum(len(arg) for arg in args if isinstance(arg, str)))
        return result


def text_memo(budget: int = DEFAULT_BUDGET) -> Callable[[Callable[P, R]], TextMemo[P, R]]:
    """A decorator: `TextMemo(function, budget)`."""

    def decorate(function: Callable[P, R]) -> TextMemo[P, R]:
        return TextMemo(function, budget)

    return decorate
