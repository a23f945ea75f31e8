"""Finding messages and fix titles as plain text, for the places editors show them verbatim.

The rules write Markdown code spans (`tensor-parallel-size`): hover renders them, and a
terminal reader takes backticks as the usual quoting of code (ruff, rustc and mypy print
them too), so the engine and the CLI keep them. A diagnostic's message and a code action's
title are plain strings in LSP (VS Code shows the backticks literally), so they are quoted
the way vLLM's own messages quote names: 'x', or "x" when x holds a single quote, and x
as is when it is quoted already.
"""

from __future__ import annotations

import re

_CODE_SPAN = re.compile(r"`([^`\n]+)`")


def _quoted(match: re.Match[str]) -> str:
    inner = match.group(1)
    if len(inner) >= 2 and inner[0] == inner[-1] and inner[0] in "'\"":
        return inner
    if "'" not in inner:
        return f"'{inner}'"
    if '"' not in inner:
        return f'"{inner}"'
    return inner


def plain(markdown: str) -> str:
    """`a` → 'a' for every code span; other text is left as it is."""
    return _CODE_SPAN.sub(_quoted, markdown)
