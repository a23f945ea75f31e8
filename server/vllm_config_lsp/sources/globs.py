"""Glob patterns of the association settings, matched in linear time.

A glob translated to a backtracking regex takes exponential time on patterns like
`*a*a*a*a*a*a*a*c` (60 s against a 60-character name), and a repository's
`.vscode/settings.json` can carry one. Here a pattern becomes a position automaton
(Glushkov's: one state per character-consuming part, no empty moves) simulated on bit sets:
every path character costs one AND of the set of states the current ones lead to (memoised
per set) with the states that accept the character. Time is O(len(path) * len(pattern)) at
worst and about O(len(path)) in practice, whatever the pattern.

Syntax, as editors' file associations: `*` any run of characters other than `/`, `?` one
such character, `**` any run, `**/` any run of whole folders (none included), `{a,b}`
alternatives (nested; an unclosed `{` closes at the end; `,` and `}` outside braces are
literal); every other character matches itself, letters in either case (`str.lower`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

#: Character classes of the automaton's states.
_ANY = "\x00any"
_NOT_SLASH = "\x00not-slash"
#: Memo entries kept per pattern: enough for any real path, bounded against a hostile one.
_MEMO = 4096


@dataclass(frozen=True)
class _Part:
    """A piece of the pattern: its nullability, first and last states (bit sets), built
    while the follow sets are filled in."""

    nullable: bool
    first: int
    last: int


@dataclass
class _Automaton:
    #: The class of each state (state 0, the start, has none).
    classes: list[str] = field(default_factory=lambda: [""])
    #: follow[s]: the states reachable from state s in one character.
    follow: list[int] = field(default_factory=lambda: [0])
    accepting: int = 0
    _unions: dict[int, int] = field(default_factory=dict)
    _accepts: dict[str, int] = field(default_factory=dict)

    def state(self, klass: str) -> _Part:
        self.classes.append(klass)
        self.follow.append(0)
        bit = 1 << (len(self.classes) - 1)
        return _Part(False, bit, bit)

    def then(self, left: _Part, right: _Part) -> _Part:
        for state in _states(left.last):
            self.follow[state] |= right.first
        return _Part(
            left.nullable and right.nullable,
            left.first | (right.first if left.nullable else 0),
            right.last | (left.last if right.nullable else 0),
        )

    def repeat(self, part: _Part) -> _Part:
        for state in _states(part.last):
            self.follow[state] |= part.first
        return _Part(True, part.first, part.last)

    def step(self, current: int, char: str) -> int:
        return self._union(current) & self._accepting(char)

    def _union(self, current: int) -> int:
        found = self._unions.get(current)
        if found is None:
            found = 0
            for state in _states(current):
                found |= self.follow[state]
            if len(self._unions) < _MEMO:
                self._unions[current] = found
        return found

    def _accepting(self, char: str) -> int:
        found = self._accepts.get(char)
        if found is None:
            lower = char.lower()
            found = 0
            for state, klass in enumerate(self.classes):
                if klass in (_ANY, lower) or (klass == _NOT_SLASH and char != "/"):
                    found |= 1 << state
            if len(self._accepts) < _MEMO:
                self._accepts[char] = found
        return found


def _states(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def matches(pattern: str, text: str) -> bool:
    """Whether the whole of `text` matches `pattern`."""
    automaton = _compile(pattern)
    current = 1  # the start state
    for char in text:
        current = automaton.step(current, char)
        if not current:
            return False
    return bool(current & automaton.accepting)


@lru_cache(maxsize=256)
def _compile(pattern: str) -> _Automaton:
    automaton = _Automaton()
    root, _ = _sequence(automaton, pattern, 0, 0)
    automaton.follow[0] = root.first
    automaton.accepting = root.last | (1 if root.nullable else 0)
    return automaton


def _sequence(automaton: _Automaton, pattern: str, at: int, depth: int) -> tuple[_Part, int]:
    """The parts from `at` to the end of the pattern, or (inside braces) to the `,` or `}`
    that ends this alternative; returns the part and where reading stopped."""
    built = _Part(True, 0, 0)
    while at < len(pattern):
        char = pattern[at]
        if depth and char in ",}":
            break
        if pattern.startswith("**/", at):
            folders = automaton.then(automaton.repeat(automaton.state(_ANY)), automaton.state("/"))
            part = _Part(True, folders.first, folders.last)
            at += 3
        elif pattern.startswith("**", at):
            part, at = automaton.repeat(automaton.state(_ANY)), at + 2
        elif char == "*":
            part, at = automaton.repeat(automaton.state(_NOT_SLASH)), at + 1
        elif char == "?":
            part, at = automaton.state(_NOT_SLASH), at + 1
        elif char == "{":
            part, at = _alternatives(automaton, pattern, at + 1, depth + 1)
        else:
            part, at = automaton.state(char.lower()), at + 1
        built = automaton.then(built, part)
    return built, at


def _alternatives(automaton: _Automaton, pattern: str, at: int, depth: int) -> tuple[_Part, int]:
    """`a,b}` after a `{`: the union of the alternatives (to the end if never closed)."""
    nullable, first, last = False, 0, 0
    while True:
        part, at = _sequence(automaton, pattern, at, depth)
        nullable, first, last = nullable or part.nullable, first | part.first, last | part.last
        if at >= len(pattern):
            break
        at += 1
        if pattern[at - 1] == "}":
            break
    return _Part(nullable, first, last), at
