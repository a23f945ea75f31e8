"""What `docker compose` fills a compose file's `${VAR}` with: the `.env` file beside it.

Compose interpolates the file from the shell's environment first, then from the `.env`
file of the project directory (the compose file's folder unless `--project-directory` or
`--env-file` says otherwise); a service's `env_file:` is the container's environment and
plays no part. The shell is not known here, so a value the `.env` file gives is what
`docker compose up` runs *when the shell does not set the name*: the compose reader fills
the reference with it, as the shell host fills a `$NAME` the script sets
(`invocation.Fill`, with the `.env` line as its `Place`), and the engine keeps any fix off
the reference. A name the `.env` file does not set stays unresolved, as before.

Both halves transcribe compose-go (github.com/compose-spec/compose-go, commit
e70e961c3a3acebf0800b882f1afb3dbf1fb74a2):

* `dotenv/parser.go`: a statement starts at the first non-space character, a `#` there
  makes the line a comment; `export ` before the name is dropped; the name
  (`[A-Za-z0-9_.\\-\\[\\]]`, letters of any script) ends at `=` or `:` (a name alone on its
  line is inherited from the shell: not known here); an unquoted value runs to the line's
  end, cut at the first ` #` and trimmed on the right; `'…'` is literal and may span
  lines; `"…"` may span lines, `\\"` is a quote, and the escapes `\\n \\r \\t \\a \\b \\f \\v
  \\\\ \\$ \\0NNN` are expanded (`expandEscapes`); unquoted and double-quoted values are
  interpolated (`expandVariables`: the shell first, then the names set above them). A
  malformed file makes compose refuse to run: then no value is used. A UTF-8 BOM is
  skipped (`godotenv.go`).
* `template/template.go`: `$$` is a literal `$`; `$NAME` and `${NAME}` its value;
  `${NAME:-d}` d when unset or empty, `${NAME-d}` when unset; `${NAME:?e}`/`${NAME?e}`
  an error when unset (or empty); `${NAME:+a}` a when set and not empty, `${NAME+a}`
  when set; the operator is the first of these the text holds, and the default or
  alternative is itself interpolated.

Nothing is executed, and only the one file beside the document is read (`safe_read`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from vllm_config_lsp.findings import Place
from vllm_config_lsp.sources.safe_read import read_text

__all__ = ["ENV_FILE", "Setting", "parse", "read", "reads", "reference_end", "resolve"]

#: The file `docker compose` reads beside the compose file for interpolation.
ENV_FILE = ".env"
#: A `.env` file is read up to this size (real ones are a few KB; harbor's is 60 KB).
_MAX_BYTES = 1 << 20
#: compose-go `isSpace`: a blank that is no line break.
_SPACE = "\t\v\f\r \x85\xa0"
_ESCAPE = re.compile(r"\\(?:[abcfnrtv$\"\\]|0[0-7]{0,3})")
_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_NAMED = re.compile(r"[_a-z][_a-z0-9]*", re.IGNORECASE)
#: The operators of a braced reference, in compose-go's order (`getSubstitutionFunctionFor
#: Template` sorts them by where they first occur; a tie keeps this order).
_OPERATORS = (":?", "?", ":-", "-", ":+", "+")


@dataclass(frozen=True)
class Setting:
    """One `NAME=value` of the `.env` file: its value as compose reads it, and where the
    statement is (its first line, from the name to the value's end on that line)."""

    name: str
    value: str
    place: Place


class _Malformed(ValueError):
    """A `.env` file compose refuses to load."""


def read(folder: Path) -> dict[str, Setting]:
    """The settings of `folder/.env` (empty when there is none, it leads out of the folder,
    or compose would refuse it)."""
    path = folder / ENV_FILE
    try:
        if path.resolve().parent != folder.resolve():
            return {}  # a link out of the folder: nothing is read outside it
    except (OSError, RuntimeError):  # a loop of links
        return {}
    text = read_text(path, _MAX_BYTES)
    return parse(text, str(path)) if text is not None else {}


def reads(changed: Path, document: Path) -> bool:
    """Whether a change of `changed` may change what the compose file `document` runs:
    it is the `.env` file beside it."""
    return changed.name == ENV_FILE and changed.parent.resolve() == document.parent.resolve()


def parse(text: str, path: str) -> dict[str, Setting]:
    """compose-go's `parser.parse` of a whole file, with each statement's place; values
    that interpolate a name the file does not set (the shell's, unknown) are left out."""
    try:
        return _Parser(text.removeprefix("\ufeff"), path).settings()
    except _Malformed:
        return {}


class _Parser:
    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.known: dict[str, Setting] = {}

    def settings(self) -> dict[str, Setting]:
        at = 0
        text = self.text
        while True:
            at = self._statement_start(at)
            if at == -1:
                return self.known
            name, name_at, at, inherited = self._name(at)
            if inherited:
                self._forget(name)  # the shell's value, if it has one
                continue
            value, end, at = self._value(at)
            if not name:
                continue  # `=x`: compose sets a variable no reference can name
            if value is None:
                self._forget(name)
                continue
            line_start = text.rfind("\n", 0, name_at) + 1
            line_end = text.find("\n", name_at)
            line_end = len(text) if line_end == -1 else line_end
            line = text.count("\n", 0, name_at)
            place = Place(
                self.path,
                line,
                name_at - line_start,
                min(end, line_end) - line_start,
                text[line_start:line_end].rstrip("\r"),
            )
            self.known[name] = Setting(name, value, place)

    def _forget(self, name: str) -> None:
        """A name set to what only the shell knows: an earlier value no longer holds."""
        self.known.pop(name, None)

    def _statement_start(self, at: int) -> int:
        """`getStatementStart`: the first non-blank character, comment lines skipped."""
        text = self.text
        while True:
            while at < len(text) and text[at].isspace():
                at += 1
            if at >= len(text):
                return -1
            if text[at] != "#":
                return at
            at = text.find("\n", at)
            if at == -1:
                return -1

    def _name(self, at: int) -> tuple[str, int, int, bool]:
        """`locateKeyName`: the name, where it starts, where its value starts, and whether
        it stands alone (inherited)."""
        text = self.text
        export = re.match(r"export\s+", text[at : at + 64])
        if export is not None:
            at += export.end()
            while at < len(text) and text[at] in _SPACE:
                at += 1
        begin = at
        index = at
        while index < len(text):
            char = text[index]
            if char in "=:\n":
                name = text[begin:index].rstrip()
                if " " in name:
                    raise _Malformed(name)  # "key cannot contain a space"
                value_at = index + 1
                while value_at < len(text) and text[value_at] in _SPACE:
                    value_at += 1
                return name, begin, value_at, char == "\n"
            if not (char in _SPACE or char in "_.-[]" or char.isalnum()):
                raise _Malformed(char)
            index += 1
        return "", begin, begin, False  # no `=` before the end: the text is the value of ""

    def _value(self, at: int) -> tuple[str | None, int, int]:
        """`extractVarValue`: the value (None when it reads the shell), where it ends, and
        where the next statement may start."""
        text = self.text
        quote = text[at] if at < len(text) and text[at] in "'\"" else None
        if quote is None:
            end = text.find("\n", at)
            end = len(text) if end == -1 else end
            raw = text[at:end]
            comment = raw.find(" #")
            if comment != -1:
                raw = raw[:comment]
            raw = raw.rstrip()
            return self._expand(raw), at + len(raw), end
        chars: list[str] = []
        escaped = False
        for index in range(at + 1, len(text)):
            char = text[index]
            if char != quote:
                if not escaped and char == "\\":
                    escaped = True
                    continue
                if escaped:
                    escaped = False
                    chars.append("\\")
                chars.append(char)
                continue
            if escaped:
                escaped = False
                chars.append(char)
                continue
            value = "".join(chars)
            if quote == '"':
                return self._expand(_ESCAPE.sub(_unescape, value)), index + 1, index + 1
            return value, index + 1, index + 1
        raise _Malformed("unterminated quoted value")

    def _expand(self, raw: str) -> str | None:
        return expand(raw, self.known)


def _unescape(match: re.Match[str]) -> str:
    """compose-go `expandEscapes`: `\\$` stays a literal `$` for the interpolation after it
    (written `$$`), `\\0NNN` is octal."""
    escape = match.group()[1:]
    if escape == "$":
        return "$$"
    if escape.startswith("0"):
        return chr(int(escape[1:] or "0", 8))
    return _ESCAPES.get(escape, escape)


# -- template.go --------------------------------------------------------------------------


def reference_end(text: str, at: int) -> int:
    """End of the reference starting at `text[at] == "$"` (not `$$`), or -1: `${…}` up to
    its closing brace (`getFirstBraceClosingIndex`), `$NAME` over `[_A-Za-z][_A-Za-z0-9]*`."""
    n = len(text)
    if at + 1 < n and text[at + 1] == "{":
        depth = 0
        index = at + 1
        while index < n:
            if text[index] == "{":
                depth += 1
            elif text[index] == "}":
                depth -= 1
                if depth == 0:
                    return index + 1
            index += 1
        return -1
    match = _NAMED.match(text, at + 1)
    return match.end() if match is not None else -1


def expand(
    text: str, settings: Mapping[str, Setting], used: list[Setting] | None = None
) -> str | None:
    """`template.Substitute` of a whole string with the `.env` settings (`$$` is `$`);
    None when a reference's value is not known without the shell. The settings read are
    appended to `used`."""
    if "$" not in text:
        return text
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "$":
            out.append(char)
            index += 1
            continue
        if text.startswith("$$", index):
            out.append("$")
            index += 2
            continue
        end = reference_end(text, index)
        if end == -1:
            return None  # compose: "Invalid template"
        value = resolve(text[index:end], settings, used)
        if value is None:
            return None
        out.append(value)
        index = end
    return "".join(out)


def resolve(
    reference: str, settings: Mapping[str, Setting], used: list[Setting] | None = None
) -> str | None:
    """What compose substitutes for one reference (`$NAME`, `${NAME…}`) when the shell
    does not set the names it reads; None when that depends on a name the `.env` file does
    not set, or compose would refuse it (`${NAME:?e}` unset or empty). The settings read
    are appended to `used`."""
    if not reference.startswith("${"):
        return _value(reference[1:], settings, used)
    body = reference[2:-1]
    found = [(body.find(op), rank, op) for rank, op in enumerate(_OPERATORS) if op in body]
    if not found:
        return _value(body, settings, used) if _NAMED.fullmatch(body) else None
    _, _, operator = min(found)
    name, _, argument = body.partition(operator)
    if not _NAMED.fullmatch(name):
        return None
    setting = settings.get(name)
    if setting is None:
        return None  # unset here: the shell may set it
    value = setting.value
    if used is not None:
        used.append(setting)
    empty = value == ""
    if operator in (":?", "?"):
        return None if operator == ":?" and empty else value
    if operator in (":-", "-"):
        return expand(argument, settings, used) if operator == ":-" and empty else value
    return "" if operator == ":+" and empty else expand(argument, settings, used)


def _value(name: str, settings: Mapping[str, Setting], used: list[Setting] | None) -> str | None:
    setting = settings.get(name)
    if setting is None:
        return None
    if used is not None:
        used.append(setting)
    return setting.value
