"""Shell command lines that break before vLLM sees them (`invocation.Break`).

Three ways a script's command line is not the one its author wrote, each found at the
line where it breaks:

* a line meant to continue the command starts with `\\ ` (` \\ --tensor-parallel-size 2`)
  instead of the line before ending with `\\`: the backslash quotes the space, so the shell
  runs the command above on its own and then this line as a command named
  ` --tensor-parallel-size`, which does not exist;
* a line of flags follows a command line that does not end with `\\` (`docker run …
  IMAGE` and then `--model m \\`): the same, with a command named `--model`;
* a documentation placeholder written bare (`vllm serve <model path>`): `<model` is a
  redirection of the command's input from the file `model` (and a later `>` one of its
  output), and when there is no such file the shell reports it and does not run the
  command at all.

In the first two vLLM starts, without the flags on the lines below (it starts, not as
written: a warning); the repair is unambiguous when the line above ends at the command
(`\\` added there, the stray backslash removed). In the third vLLM never starts (an error)
and what the placeholder stood for is the author's to write.
"""

from __future__ import annotations

import re

from vllm_config_lsp.findings import TextEdit
from vllm_config_lsp.sources.invocation import Break, Invocation

__all__ = ["breaks"]

#: A line that the shell would run as a command named after a flag: `--model m \`,
#: ` \ --port 1` (group 1 the stray backslash, group 2 the flag).
_FLAG_LINE = re.compile(r"[ \t]*(\\ )?[ \t]*(--?[A-Za-z][A-Za-z0-9_.-]*)(?=[ \t=]|\\?\r?$)", re.M)
#: `<model path>`, `<MODEL_PATH>`: a placeholder in angle brackets.
_PLACEHOLDER = re.compile(r"<([A-Za-z_][^<>\n'\"]*)>")
_SHOWN = 60


def breaks(script: str, invocation: Invocation) -> tuple[Break, ...]:
    """Where the command line of `invocation` (offsets into `script`) breaks."""
    last = max([invocation.end, invocation.insert_at or 0, *(w.end for w in invocation.args)])
    line_end = script.find("\n", last)
    line_end = len(script) if line_end == -1 else line_end
    found = [
        found
        for found in (
            _placeholder(script, invocation, line_end),
            _continuation(script, invocation, last, line_end),
        )
        if found is not None
    ]
    return tuple(found)


def _shown(script: str, start: int, end: int) -> str:
    """The command line as one line, shortened."""
    text = " ".join(script[start:end].replace("\\\n", " ").split())
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _placeholder(script: str, invocation: Invocation, line_end: int) -> Break | None:
    """A bare `<…>` on the command line: redirections, not an argument."""
    words = [(word.start, word.end) for word in invocation.args]
    for match in _PLACEHOLDER.finditer(script, invocation.end, line_end):
        at = match.start()
        if any(start <= at < end for start, end in words):
            continue  # quoted, or inside a word: the program receives it
        name = match.group(1).split()[0]
        runs = (
            f"`{match.group()}` is a placeholder the shell reads as redirections: `<{name}` "
            f"makes the command read the file `{name}` as its input, and where there is no "
            "such file the shell reports it and does not run the command: vLLM never starts. "
            "Write the value the placeholder stands for"
        )
        return Break(at, match.end(), runs, fatal=True)
    return None


def _continuation(script: str, invocation: Invocation, last: int, line_end: int) -> Break | None:
    """Lines of flags after the command line's last line, which the shell runs as commands
    of their own."""
    rest = script[last:line_end]
    if rest.rstrip(" \t\r").endswith("\\") or line_end >= len(script):
        return None
    chain: list[tuple[int, int, re.Match[str] | None]] = []  # (start, end, broken)
    at = line_end + 1
    previous_continues = False
    while at < len(script):
        end = script.find("\n", at)
        end = len(script) if end == -1 else end
        match = None if previous_continues else _FLAG_LINE.match(script, at, end)
        if match is None and not previous_continues:
            break
        chain.append((at, end, match))
        previous_continues = script[at:end].rstrip(" \t\r").endswith("\\")
        at = end + 1
    first = next((m for _, _, m in chain if m is not None), None)
    if first is None:
        return None
    flag = first.group(2)
    named = (" " + flag) if first.group(1) else flag
    lines = script.count("\n", 0, chain[0][0]) + 1, script.count("\n", 0, chain[-1][0]) + 1
    where = f"line {lines[0]}" if lines[0] == lines[1] else f"lines {lines[0]}-{lines[1]}"
    command = _shown(script, _statement_start(script, invocation.start), last)
    how = (
        "`\\ ` at the start of a line does not continue the line above (a line continues "
        "only when the one before it ends with `\\`)"
        if first.group(1)
        else f"line {lines[0] - 1} does not end with `\\`"
    )
    runs = (
        f"{how}: the shell runs `{command}` on its own, then this line as a command named "
        f"`{named}`, which does not exist, so vLLM starts without the flags on {where}"
    )
    return Break(
        first.start(2) if not first.group(1) else first.start(1),
        first.end(2),
        runs,
        fatal=False,
        edits=_repair(script, rest, line_end, chain),
    )


def _statement_start(script: str, at: int) -> int:
    """Where the command line holding `at` starts: the first of the lines that continue
    into its line."""
    start = script.rfind("\n", 0, at) + 1
    while start > 0:
        above = script.rfind("\n", 0, start - 1) + 1
        if not script[above : start - 1].rstrip(" \t\r").endswith("\\"):
            break
        start = above
    return start


def _repair(
    script: str, rest: str, line_end: int, chain: list[tuple[int, int, re.Match[str] | None]]
) -> tuple[TextEdit, ...]:
    """`\\` at the end of the line before each broken one, the stray backslash removed;
    nothing when a line above ends in something else than the command (a comment, `&`)."""
    if rest.strip(" \t\r"):
        return ()
    edits: list[TextEdit] = []
    previous_end = line_end
    for _start, end, match in chain:
        if match is not None:
            before = script[script.rfind("\n", 0, previous_end) + 1 : previous_end]
            if previous_end != line_end and "#" in before:
                return ()
            content_end = len(script[:previous_end].rstrip(" \t\r"))
            edits.append(TextEdit(content_end, content_end, " \\"))
            if match.group(1):
                edits.append(TextEdit(match.start(1), match.start(1) + 1, ""))
        previous_end = end
    return tuple(edits)
