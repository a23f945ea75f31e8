"""The `# vllm-config: version=0.33.0, disable=VC104` comment a file marks itself with.

Read before anything is parsed (association, release choice), so it is plain text work on
the first lines, never YAML.
"""

from __future__ import annotations

import re

MARKER = re.compile(r"^\s*#\s*vllm-config\b(?::\s*(?P<options>.*))?", re.MULTILINE)
#: Lines at the top of a file searched for the marker comment.
MARKER_LINES = 10


_OPTION = re.compile(r"([^\s,=]+)=([^\s,]*)")


def marker_options(text: str) -> dict[str, str]:
    """Options of a `# vllm-config: version=0.33.0` comment in the first lines."""
    spans = marker_spans(text)
    if not spans:
        return {}
    return {key: value for key, (value, _start, _end) in spans.items()}


def marker_spans(text: str) -> dict[str, tuple[str, int, int]]:
    """The marker's options with the offsets of each value (`gpu=H100-80GB`: where a hover
    or a warning about the name goes); `marker` stands for the comment itself."""
    head_end = 0
    for _ in range(MARKER_LINES):
        newline = text.find("\n", head_end)
        if newline == -1:
            head_end = len(text)
            break
        head_end = newline + 1
    match = MARKER.search(text, 0, head_end)
    if not match:
        return {}
    spans: dict[str, tuple[str, int, int]] = {"marker": ("1", match.start(), match.end())}
    if match.group("options") is None:
        return spans
    offset = match.start("options")
    for option in _OPTION.finditer(match.group("options")):
        spans[option.group(1)] = (option.group(2), offset + option.start(2), offset + option.end(2))
    return spans
