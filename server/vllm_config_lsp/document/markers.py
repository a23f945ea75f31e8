"""The `# vllm-config: version=0.33.0, disable=VC104` comment a file marks itself with.

Read before anything is parsed (association, release choice), so it is plain text work on
the first lines, never YAML.
"""

from __future__ import annotations

import bisect
import re

MARKER = re.compile(r"^\s*#\s*vllm-config\b(?::\s*(?P<options>.*))?", re.MULTILINE)
#: Lines at the top of a file searched for the marker comment.
MARKER_LINES = 10


#: One `key=value` of the options (they are separated by blanks or commas).
_PART = re.compile(r"[^\s,]+")


def marker_options(text: str) -> dict[str, str]:
    """Options of a `# vllm-config: version=0.33.0` comment in the first lines."""
    spans = marker_spans(text)
    if not spans:
        return {}
    return {key: value for key, (value, _start, _end) in spans.items()}


def marker_spans(text: str) -> dict[str, tuple[str, int, int]]:
    """The marker's options with the offsets of each value (`gpu=H100-80GB`: where a hover
    or a warning about the name goes); `marker` stands for the comment itself. The first
    lines are those `str.splitlines` sees (a lone CR or U+2028 ends one too, as in YAML)."""
    lines = text.splitlines(keepends=True)[:MARKER_LINES]
    contents = [line.splitlines()[0] if line.splitlines() else "" for line in lines]
    head = "\n".join(contents)
    #: Where each line starts in `head` and in `text`.
    starts_head, starts_text = [], []
    at_head = at_text = 0
    for line, content in zip(lines, contents, strict=True):
        starts_head.append(at_head)
        starts_text.append(at_text)
        at_head += len(content) + 1
        at_text += len(line)

    def original(offset: int) -> int:
        index = bisect.bisect_right(starts_head, offset) - 1
        return starts_text[index] + offset - starts_head[index] if index >= 0 else offset

    match = MARKER.search(head)
    if not match:
        return {}
    spans = {"marker": ("1", original(match.start()), original(match.end()))}
    if match.group("options") is None:
        return spans
    offset = match.start("options")
    for part in _PART.finditer(match.group("options")):
        key, equals, value = part.group().partition("=")
        if equals:
            start = offset + part.start() + len(key) + 1
            spans[key] = (value, original(start), original(start + len(value)))
    return spans
