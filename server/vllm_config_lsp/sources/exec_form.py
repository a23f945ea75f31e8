"""An exec-form ENTRYPOINT or CMD that is not valid JSON (issue 28 item 9).

Docker reads `ENTRYPOINT ["vllm", "serve", "m"]` as exec form only when the brackets hold
a valid JSON array of strings; anything else is shell form, run as `/bin/sh -c '<the
text>'`. A `.` or `;` for a `,`, a missing comma or single quotes (`['vllm', 'serve']`)
make the shell run a command named `[vllm,`, which does not exist: the container starts,
and vLLM never does. `lenient` reads such a text as the array its author meant (the
strings it holds, in order), with a `Break` that says what Docker runs instead and, when
replacing the separators and quotes gives valid JSON of the same strings, the edits that
do.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from vllm_config_lsp.findings import TextEdit
from vllm_config_lsp.sources.invocation import Break, Word

__all__ = ["decoded_json_string", "lenient"]

#: A JSON-ish string: double-quoted with JSON escapes, or single-quoted.
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'([^\'\\\n"]*)\'')


def lenient(script: str, positions: Sequence[int]) -> tuple[list[Word], Break] | None:
    """The strings of a bracketed text that is not a JSON array of strings, and the
    break; None when it is not such a list (or holds none). Docker's `\\`-newline line
    continuations are removed first, as its parser does before it reads the form."""
    if len(positions) < len(script):
        return None
    kept = [at for at in range(len(script)) if not _continued(script, at)]
    script, positions = "".join(script[at] for at in kept), [positions[at] for at in kept]
    text = script.rstrip()
    if not (text.startswith("[") and text.endswith("]")):
        return None
    strings = list(_STRING.finditer(text, 1, len(text) - 1))
    if not strings:
        return None
    words: list[Word] = []
    edits: list[tuple[int, int, str]] = []  # in script offsets
    cursor = 1
    for index, match in enumerate(strings):
        between = text[cursor : match.start()]
        wanted = "" if index == 0 else ","
        if between.strip() != wanted:
            stray = between.strip()
            if index and len(stray) == 1:  # `.` or `;` for the comma
                at = cursor + between.index(stray)
                edits.append((at, at + 1, ","))
            elif index and not stray:  # a missing comma
                edits.append((cursor, cursor, ","))
            else:
                return None  # more than a separator: not a list of strings
        if match.group(2) is not None:  # 'single': "double"
            edits.extend(
                [(match.start(), match.start() + 1, '"'), (match.end() - 1, match.end(), '"')]
            )
        words.append(_word(match, positions))
        cursor = match.end()
    trailing = text[cursor:-1]
    if trailing.strip() == ",":  # `["vllm", "serve",]`
        at = cursor + trailing.index(",")
        edits.append((at, at + 1, ""))
    elif trailing.strip():
        return None
    fixed = _applied(text, edits)
    try:
        same = json.loads(fixed) == [word.text for word in words]
    except ValueError:
        same = False
    start, end = positions[0], positions[len(text) - 1] + 1
    shown = " ".join(text.split())
    runs = (
        f"not valid JSON, so Docker runs it in shell form, `/bin/sh -c '{shown}'`: the shell "
        f"finds no command `{_first_word(text)}`, and vLLM never starts"
    )
    repair = tuple(_edit(positions, at, to, new) for at, to, new in edits) if same else ()
    return words, Break(start, end, runs, fatal=True, edits=repair)


def _edit(positions: Sequence[int], at: int, to: int, new: str) -> TextEdit:
    """An edit of script offsets `[at, to)` in document offsets."""
    start = positions[at]
    return TextEdit(start, positions[to - 1] + 1 if to > at else start, new)


def _continued(script: str, at: int) -> bool:
    """Whether `script[at]` is part of a `\\`-newline (`\\`-CRLF) line continuation."""
    if script.startswith(("\\\n", "\\\r\n"), at):
        return True
    if script[at] == "\n":
        return script.endswith("\\", 0, at) or script.endswith("\\\r", 0, at)
    return script[at] == "\r" and script.startswith("\r\n", at) and script.endswith("\\", 0, at)


def _word(match: re.Match[str], positions: Sequence[int]) -> Word:
    """The string's value, each character at the document position of what wrote it."""
    body_start = match.start() + 1
    if match.group(2) is not None:
        value = match.group(2)
        spans = [(body_start + i, body_start + i + 1) for i in range(len(value))]
    else:
        value, spans = decoded_json_string(match.group(1), body_start)
    return Word(
        value,
        positions[match.start()],
        positions[match.end() - 1] + 1,
        tuple(positions[a] for a, _ in spans),
        tuple(positions[b - 1] + 1 for _, b in spans),
        quoting="json",
    )


def decoded_json_string(body: str, offset: int) -> tuple[str, list[tuple[int, int]]]:
    """A double-quoted body's value with the span each character was written in (an
    escape that does not decode is kept as written)."""
    chars: list[str] = []
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(body):
        if body[index] == "\\" and index + 1 < len(body):
            width = 6 if body[index + 1] == "u" else 2
            try:
                char = json.loads('"' + body[index : index + width] + '"')
            except ValueError:
                char, width = body[index], 1
            chars.append(char)
            spans.append((offset + index, offset + index + width))
            index += width
            continue
        chars.append(body[index])
        spans.append((offset + index, offset + index + 1))
        index += 1
    return "".join(chars), spans


def _applied(text: str, edits: list[tuple[int, int, str]]) -> str:
    out = text
    for at, to, new in sorted(edits, reverse=True):
        out = out[:at] + new + out[to:]
    return out


def _first_word(text: str) -> str:
    """What `/bin/sh -c` takes for the command name: the text up to the first blank,
    with its quotes removed."""
    first = text.split()[0] if text.split() else text
    return first.replace('"', "").replace("'", "")
