"""vLLM starts in TOML files: an argv array (Cerebrium's `entrypoint = ["vllm", "serve", …]`,
a launcher table's `cmd`), or a string that is a command line (a task runner's
`serve = "vllm serve …"`, a `container_command`).

The values come from `tomllib` (`tomli` before Python 3.11), the standard reader; it gives
no positions, so the string tokens are found by a small scanner that follows TOML's string
grammar (basic and literal strings, their multi-line forms, escapes, the line-ending
backslash), with the document span of every decoded character. Where `tomllib` reads the
file, an entry the scanner read differently from it is dropped (the scanner never guesses);
where it does not (a file being typed, a template whose placeholders stand outside quotes,
`sources.templates`), the scanner's reading is used alone: it recovers at the next line, and
a bare word in an array (`{eager_flag}` before `]`) is one unresolved item that may stand for
any number of arguments.

Only a value that holds a start the shared start matcher finds is a start (`sources.argv`,
through `sources.shell`): a TOML file that starts no vLLM gets nothing.

A task runner's task table (pixi's `[tasks]`/`[feature.*.tasks]`, poe's `[tool.poe.tasks]`,
pdm's `[tool.pdm.scripts]`, rye's `[tool.rye.scripts]`, mise's `[tasks.*]`) sets the task's
environment in an `env` table beside its `cmd`/`run`/`shell`: those variables are the
start's environment (`Invocation.environ`), and fill the `$NAME`s of a command string, as
the runner's shell does (`sources.task_env`). anvil-serving's serve-recipe registries are
read as the `docker run` their launcher builds (`sources.serve_recipes`).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field, replace
from typing import Any

from vllm_config_lsp.sources import gpu_claims, serve_recipes, shell, task_env
from vllm_config_lsp.sources.invocation import EnvVar, GpuClaim, Invocation, Word
from vllm_config_lsp.sources.source_map import SourceMap

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

__all__ = ["find_invocations"]

_SOURCE = "toml"
#: What a value that starts vLLM names somewhere (as `sources.shell` looks for).
_STARTERS = ("vllm", "docker", "podman")
_BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}
_ESCAPES["e"] = "\x1b"  # TOML 1.1
_HEX_DIGITS = {"u": 4, "U": 8, "x": 2}
_HEX = frozenset("0123456789abcdefABCDEF")
#: Arrays nest this deep at most in what the scanner reads (a bound on its recursion).
_MAX_DEPTH = 32
#: The keys of a task runner's task table that hold its command.
_COMMAND_KEYS = frozenset(("cmd", "run", "shell"))


@dataclass
class _Entry:
    """A value the scanner read: its key path (array-of-tables indexes included), and a
    string (`word`) or an array (`items`: a string's word, or None for another value)."""

    path: tuple[str | int, ...]
    word: Word | None = None
    items: list[Word | None] = field(default_factory=list)
    is_array: bool = False


def find_invocations(text: str) -> list[Invocation]:
    """Every vLLM start the TOML file's values hold, with document offsets."""
    if not any(starter in text for starter in _STARTERS):
        return []
    try:
        loaded: dict[str, Any] | None = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        loaded = None
    found: list[Invocation] = []
    scanner = _Scanner(text)
    entries = [e for e in scanner.entries() if loaded is None or _agrees(e, loaded)]
    strings = {entry.path: entry.word for entry in entries if entry.word is not None}
    read: frozenset[tuple[str | int, ...]] = frozenset()
    if loaded is not None:
        arrays = {entry.path: entry.items for entry in entries if entry.is_array}
        found, read = serve_recipes.find_invocations(loaded, strings, arrays)
    for entry in entries:
        if entry.path in read:
            continue
        environ = _task_env(entry, loaded, strings, scanner) if loaded is not None else ()
        if entry.is_array and _is_command_list(entry.path):
            for item in entry.items:
                found.extend(_command_line(item, environ) if item is not None else ())
        elif entry.is_array:
            found.extend(replace(i, environ=environ) for i in _argv(entry.items))
        elif entry.word is not None:
            found.extend(_command_line(entry.word, environ))
    if found and loaded is not None:
        claims = _cerebrium_gpus(loaded, scanner)
        for invocation in found:
            invocation.gpus = claims or invocation.gpus
    return sorted(found, key=lambda invocation: invocation.start)


def _command_line(word: Word, environ: tuple[EnvVar, ...]) -> list[Invocation]:
    """The starts a string that is a shell command line holds, the task's environment
    filling its `$NAME`s."""
    if not any(starter in word.text for starter in _STARTERS):
        return []
    to_document = SourceMap.of_word(word)
    fills = task_env.fills(environ, word.text)
    found = []
    for invocation in shell.find_invocations(word.text, source=_SOURCE):
        moved = to_document.invocation(invocation)
        args = [task_env.filled(arg, fills) for arg in moved.args]
        found.append(replace(moved, args=args, environ=(*environ, *moved.environ)))
    return found


def _is_command_list(path: tuple[str | int, ...]) -> bool:
    """An array whose strings are each a command line rather than one argv: a mise task's
    `run = ["…", "…"]` (`mise.toml`'s `[tasks.*]`), a hatch script (`[tool.hatch.envs.*.
    scripts]`, `hatch.toml`'s `[envs.*.scripts]`), a pdm `composite`, a mise or hatch
    command list run one after another."""
    keys = tuple(key for key in path if isinstance(key, str))
    if len(keys) >= 3 and keys[0] == "tasks" and keys[-1] == "run":
        return True
    if keys[:2] == ("tool", "hatch"):
        keys = keys[2:]
    if len(keys) == 4 and keys[0] == "envs" and keys[2] == "scripts":
        return True
    return len(keys) == 5 and keys[:3] == ("tool", "pdm", "scripts") and keys[4] == "composite"


def _task_env(
    entry: _Entry,
    loaded: dict[str, Any],
    strings: dict[tuple[str | int, ...], Word],
    scanner: _Scanner,
) -> tuple[EnvVar, ...]:
    """The `env` table beside a task's command (`{ cmd = "vllm serve …", env = { … } }`),
    as `tomllib` read it, each variable with the spans the scanner found; a value that is
    no string (TOML allows none there) is named without a value."""
    if len(entry.path) < 2 or entry.path[-1] not in _COMMAND_KEYS:
        return ()
    table: Any = loaded
    for key in (*entry.path[:-1], "env"):
        table = table.get(key) if isinstance(table, dict) and isinstance(key, str) else None
    if not isinstance(table, dict):
        return ()
    found = []
    for name, value in table.items():
        path = (*entry.path[:-1], "env", name)
        span = scanner.key_spans.get(path)
        if span is None:
            continue
        word = strings.get(path)
        known = word if isinstance(value, str) and word is not None and word.text == value else None
        found.append(EnvVar(_key_word(name, span, scanner.text), known, "env"))
    return tuple(found)


def _key_word(name: str, span: tuple[int, int], text: str) -> Word:
    """A key's word: a bare key's characters, or a quoted key's inside its quotes."""
    start, end = span
    inner = start + 1 if text[start] in "\"'" else start
    if end - inner < len(name):
        inner = start
    positions = tuple(range(inner, inner + len(name)))
    return Word(name, start, end, positions, tuple(at + 1 for at in positions), quoting="json")


def _cerebrium_gpus(loaded: dict[str, Any], scanner: _Scanner) -> tuple[GpuClaim, ...]:
    """The GPUs a `cerebrium.toml`'s `[cerebrium.hardware]` gives the app's start."""
    cerebrium = loaded.get("cerebrium")
    hardware = cerebrium.get("hardware") if isinstance(cerebrium, dict) else None
    if not isinstance(hardware, dict):
        return ()
    paths = [("cerebrium", "hardware", key) for key in ("compute", "gpu_count")]
    spans = [scanner.spans[path] for path in paths if path in scanner.spans]
    span = (min(s for s, _ in spans), max(e for _, e in spans)) if spans else None
    return gpu_claims.cerebrium(hardware.get("compute"), hardware.get("gpu_count"), span)


#: A `$NAME`/`${NAME}` in an argv item: the launchers that read these files fill them in
#: (PyLet runs a `command` array through the shell with `$PORT` set; pixi's task shell
#: expands them too), so the item is unresolved, as a shell word would be.
_VARIABLE = re.compile(r"\$(?:\{[A-Za-z_][A-Za-z0-9_]*[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)")


def _argv(items: list[Word | None]) -> list[Invocation]:
    """The start an array of strings is, if any; a value that is no string ends what is
    read (an argv of strings is what a launcher takes)."""
    words: list[Word] = []
    for item in items:
        if item is None:
            break
        named = tuple(match.group(0) for match in _VARIABLE.finditer(item.text))
        words.append(replace(item, unresolved=item.unresolved + named) if named else item)
    if not any(any(s in word.text for s in _STARTERS) for word in words):
        return []
    return shell.argv_invocations(words, source=_SOURCE)


def _agrees(entry: _Entry, loaded: dict[str, Any]) -> bool:
    """What `tomllib` read at the entry's key path is what the scanner decoded."""
    value: Any = loaded
    for key in entry.path:
        if isinstance(key, int):
            if not isinstance(value, list) or key >= len(value):
                return False
        elif not isinstance(value, dict) or key not in value:
            return False
        value = value[key]
    if not entry.is_array:
        return entry.word is not None and value == entry.word.text
    if not isinstance(value, list) or len(value) != len(entry.items):
        return False
    return all(
        item is None or item.text == got for item, got in zip(entry.items, value, strict=True)
    )


class _Scanner:
    """TOML's structure as far as the values' paths and strings go; tolerant of errors
    (an unreadable line is skipped to its end)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.found: list[_Entry] = []
        #: How many times each array-of-tables header was seen.
        self.table_counts: dict[tuple[str | int, ...], int] = {}
        #: Where each value of a key (not an array's item) is written.
        self.spans: dict[tuple[str | int, ...], tuple[int, int]] = {}
        #: Where the last part of each key is written.
        self.key_spans: dict[tuple[str | int, ...], tuple[int, int]] = {}
        self._last_part: tuple[int, int] = (0, 0)

    def entries(self) -> list[_Entry]:
        table: tuple[str | int, ...] = ()
        text = self.text
        n = len(text)
        while self.at < n:
            self._blank(newlines=True)
            if self.at >= n:
                break
            if text[self.at] == "[":
                header = self._header()
                if header is not None:
                    table = header
            else:
                self._key_value(table, 0)
            self._to_line_end()
        return self.found

    # -- lexical ---------------------------------------------------------------------

    def _blank(self, *, newlines: bool) -> None:
        text, n = self.text, len(self.text)
        while self.at < n:
            char = text[self.at]
            if char in " \t" or (newlines and char in "\r\n"):
                self.at += 1
            elif char == "#" and newlines:
                end = text.find("\n", self.at)
                self.at = n if end == -1 else end
            elif char == "#":
                return
            else:
                return

    def _to_line_end(self) -> None:
        """Past the rest of the line (what an error left, or a comment)."""
        end = self.text.find("\n", self.at)
        self.at = len(self.text) if end == -1 else end + 1

    def _key(self) -> list[str] | None:
        """A dotted key, each part unquoted; None when none is here."""
        parts: list[str] = []
        while True:
            self._blank(newlines=False)
            start = self.at
            part = self._key_part()
            if part is None:
                return None
            parts.append(part)
            self._last_part = (start, self.at)
            self._blank(newlines=False)
            if self.at < len(self.text) and self.text[self.at] == ".":
                self.at += 1
                continue
            return parts

    def _key_part(self) -> str | None:
        text, at = self.text, self.at
        if at < len(text) and text[at] in "\"'":
            word = self._string()
            return None if word is None else word.text
        end = at
        while end < len(text) and text[end] in _BARE_KEY:
            end += 1
        if end == at:
            return None
        self.at = end
        return text[at:end]

    def _header(self) -> tuple[str | int, ...] | None:
        text = self.text
        double = text.startswith("[[", self.at)
        self.at += 2 if double else 1
        key = self._key()
        if key is None:
            return None
        self._blank(newlines=False)
        close = "]]" if double else "]"
        if not text.startswith(close, self.at):
            return None
        self.at += len(close)
        return self._table_path(key, double=double)

    def _table_path(self, key: list[str], *, double: bool) -> tuple[str | int, ...]:
        """The header's key path as `tomllib` nests it: under an array of tables seen
        before (`[[recipe]]` then `[recipe.serve]`), its latest table; a `[[…]]` header
        opens the next table of its own array."""
        path: list[str | int] = []
        for part in key[:-1]:
            path.append(part)
            count = self.table_counts.get(tuple(path), 0)
            if count:
                path.append(count - 1)
        path.append(key[-1])
        if not double:
            return tuple(path)
        count = self.table_counts.get(tuple(path), 0)
        self.table_counts[tuple(path)] = count + 1
        return (*path, count)

    # -- values ----------------------------------------------------------------------

    def _key_value(self, table: tuple[str | int, ...], depth: int) -> None:
        key = self._key()
        if key is None:
            return
        key_span = self._last_part
        self._blank(newlines=False)
        if self.at >= len(self.text) or self.text[self.at] != "=":
            return
        self.at += 1
        self._blank(newlines=False)
        start, path = self.at, (*table, *key)
        self.key_spans[path] = key_span
        self._value(path, depth)
        self.spans[path] = start, self.at

    def _value(self, path: tuple[str | int, ...], depth: int) -> Word | None:
        """Read the value here; record strings and arrays of `path`; return a string's
        word (None for any other value)."""
        text = self.text
        if self.at >= len(text) or depth > _MAX_DEPTH:
            return None
        char = text[self.at]
        if char in "\"'":
            word = self._string()
            if word is not None and depth == 0:
                self.found.append(_Entry(path, word=word))
            return word
        if char == "[":
            items = self._array(path, depth)
            if items is not None and depth == 0:
                self.found.append(_Entry(path, items=items, is_array=True))
            return None
        if char == "{":
            self._inline_table(path, depth)
            return None
        self._bare()
        return None

    def _bare(self, end: int = -1) -> Word | None:
        """A value that is no string, array or table (a number, a date, `true`), or what a
        template left there (up to `end` when given): its word, unresolved and splat."""
        text, start = self.text, self.at
        if end < 0:
            end = start
            while end < len(text) and text[end] not in ",]}#\r\n \t":
                end += 1
        self.at = end
        if end == start:
            self.at += 1  # a stray character: step over it
            return None
        written = text[start:end]
        return Word(
            written,
            start,
            end,
            tuple(range(start, end)),
            tuple(range(start + 1, end + 1)),
            unresolved=(written,),
            quoting="json",
            splat=True,
        )

    def _array(self, path: tuple[str | int, ...], depth: int) -> list[Word | None] | None:
        text = self.text
        self.at += 1
        items: list[Word | None] = []
        while True:
            self._blank(newlines=True)
            if self.at >= len(text):
                return None
            char = text[self.at]
            if char == "]":
                self.at += 1
                return items
            if char == ",":
                self.at += 1
                continue
            before = self.at
            line_end = text.find("\n", self.at)
            close = text.find("}", self.at, len(text) if line_end < 0 else line_end)
            if char == "{" and close > 0 and "=" not in text[self.at : close]:
                item = self._bare(close + 1)  # `{name}`: a `str.format` field, no table
            elif char in "\"'[{":
                item = self._value((*path, len(items)), depth + 1)
            else:
                item = self._bare()
                if item is not None and _is_toml_scalar(item.text):
                    item = None
            if self.at == before:
                return None
            items.append(item)

    def _inline_table(self, path: tuple[str | int, ...], depth: int) -> None:
        """`{ key = value, … }`: each value with its path (recorded as at the top level)."""
        text = self.text
        self.at += 1
        while True:
            self._blank(newlines=False)
            if self.at >= len(text) or text[self.at] in "\r\n":
                return
            if text[self.at] == "}":
                self.at += 1
                return
            if text[self.at] == ",":
                self.at += 1
                continue
            before = self.at
            key = self._key()
            key_span = self._last_part
            self._blank(newlines=False)
            if key is None or self.at >= len(text) or text[self.at] != "=":
                return
            self.at += 1
            self._blank(newlines=False)
            start, inner = self.at, (*path, *key)
            self.key_spans.setdefault(inner, key_span)
            self._value(inner, depth)
            self.spans.setdefault(inner, (start, self.at))
            if self.at == before:
                return

    def _string(self) -> Word | None:
        """The string token here, decoded, each character mapped to what wrote it."""
        text, start = self.text, self.at
        quote = text[start]
        multi = text.startswith(quote * 3, start)
        at = start + (3 if multi else 1)
        if multi and text.startswith("\r\n", at):
            at += 2
        elif multi and text.startswith("\n", at):
            at += 1
        chars: list[str] = []
        starts: list[int] = []
        ends: list[int] = []
        n = len(text)
        while at < n:
            char = text[at]
            if char == quote and (not multi or text.startswith(quote * 3, at)):
                if multi:  # up to two quotes just before the closing three are content
                    while text.startswith(quote * 4, at):
                        chars.append(quote)
                        starts.append(at)
                        ends.append(at + 1)
                        at += 1
                end = at + (3 if multi else 1)
                self.at = end
                return Word("".join(chars), start, end, tuple(starts), tuple(ends), quoting="json")
            if char in "\r\n" and not multi:
                break
            if char == "\\" and quote == '"':
                at = self._escape(at, multi, chars, starts, ends)
                if at < 0:
                    break
                continue
            chars.append(char)
            starts.append(at)
            ends.append(at + 1)
            at += 1
        self.at = at  # unterminated: no string
        return None

    def _escape(
        self, at: int, multi: bool, chars: list[str], starts: list[int], ends: list[int]
    ) -> int:
        """Decode the escape at `at`; where it ends, or -1 when it is not TOML's."""
        text = self.text
        if at + 1 >= len(text):
            return -1
        kind = text[at + 1]
        if kind in _ESCAPES:
            chars.append(_ESCAPES[kind])
            starts.append(at)
            ends.append(at + 2)
            return at + 2
        if kind in _HEX_DIGITS:
            digits = text[at + 2 : at + 2 + _HEX_DIGITS[kind]]
            if len(digits) != _HEX_DIGITS[kind] or not all(c in _HEX for c in digits):
                return -1
            code = int(digits, 16)
            if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
                return -1
            chars.append(chr(code))
            starts.append(at)
            ends.append(at + 2 + len(digits))
            return at + 2 + len(digits)
        if multi:  # a line-ending backslash: the newline and the blanks after it go
            after = at + 1
            while after < len(text) and text[after] in " \t":
                after += 1
            if after < len(text) and text[after] in "\r\n":
                while after < len(text) and text[after] in " \t\r\n":
                    after += 1
                return after
        return -1


def _is_toml_scalar(written: str) -> bool:
    """A number, a boolean or a date: a value TOML reads (a template's word is none)."""
    try:
        tomllib.loads(f"v = {written}")
    except (tomllib.TOMLDecodeError, RecursionError):
        return False
    return True
