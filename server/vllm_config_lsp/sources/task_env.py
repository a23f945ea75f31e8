"""The environment a launcher's task sets (SkyPilot `envs:`, dstack `env:`), filled into the
words of the scripts it runs: `$NAME`/`${NAME}` takes the task's value where the value is
plain (no splitting, globbing or further expansion) and the script does not assign the name
itself; every other reference stays unresolved."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from vllm_config_lsp.sources.invocation import EnvVar, Word

__all__ = ["PLAIN_VALUE", "REFERENCE", "filled", "fills", "substituted"]

REFERENCE = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_]\w*)\}|(?P<bare>[A-Za-z_]\w*))")
#: What a filled-in value may hold: no word splitting, globbing or further expansion.
PLAIN_VALUE = re.compile(r"[^\s$`*?\[\]{}'\"\\]+")


def fills(environ: tuple[EnvVar, ...], script: str) -> dict[str, str]:
    """Name → value of each setting of the task the script's words may take: a plain value,
    of a name the script does not assign itself."""
    found: dict[str, str] = {}
    for var in environ:
        name = var.name.text
        value = var.value
        if value is None or not value.resolved or not PLAIN_VALUE.fullmatch(value.text):
            found.pop(name, None)
            continue
        if re.search(rf"(?:^|[\s;&|(]){re.escape(name)}=", script):
            continue
        found[name] = value.text
    return found


def filled(word: Word, fills: dict[str, str]) -> Word:
    """The word with each `$NAME` the task fixes replaced by its value, the value's
    characters mapping to the reference; the rest stays unresolved."""
    if not word.unresolved or not fills:
        return word

    def value(part: str, _at: int) -> str | None:
        reference = REFERENCE.fullmatch(part)
        name = reference and (reference.group("braced") or reference.group("bare"))
        return fills.get(name) if name else None

    return substituted(word, value)


def substituted(word: Word, value_of: Callable[[str, int], str | None]) -> Word:
    """The word with each unresolved part `value_of` gives a value for (given the part's
    text and the document offset of its first character) replaced by that value, whose
    characters all map to the part as written; the other parts stay unresolved."""
    if not word.unresolved or len(word.starts) != len(word.text):
        return word
    text, starts, ends = word.text, list(word.starts), list(word.ends)
    left: list[str] = []
    cursor = 0
    for part in word.unresolved:
        at = text.find(part, cursor)
        value = value_of(part, starts[at]) if at >= 0 else None
        if value is None:
            left.append(part)
            cursor = at + len(part) if at >= 0 else cursor
            continue
        start, end = starts[at], ends[at + len(part) - 1]
        text = text[:at] + value + text[at + len(part) :]
        starts[at : at + len(part)] = [start] * len(value)
        ends[at : at + len(part)] = [end] * len(value)
        cursor = at + len(value)
    if len(left) == len(word.unresolved):
        return word
    return replace(
        word,
        text=text,
        starts=tuple(starts),
        ends=tuple(ends),
        unresolved=tuple(left),
        splat=word.splat and bool(left),
    )
