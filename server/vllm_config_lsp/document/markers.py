"""The `# vllm-config: version=0.33.0, disable=VC104` comment a file marks itself with.

Read before anything is parsed (association, release choice), so it is plain text work on
the first lines, never YAML.
"""

from __future__ import annotations

import re

MARKER = re.compile(r"^\s*#\s*vllm-config\b(?::\s*(?P<options>.*))?", re.MULTILINE)
#: Lines at the top of a file searched for the marker comment.
MARKER_LINES = 10


def marker_options(text: str) -> dict[str, str]:
    """Options of a `# vllm-config: version=0.33.0` comment in the first lines."""
    head = "\n".join(text.splitlines()[:MARKER_LINES])
    match = MARKER.search(head)
    if not match:
        return {}
    options: dict[str, str] = {"marker": "1"}
    for part in re.split(r"[\s,]+", match.group("options") or ""):
        if "=" in part:
            key, value = part.split("=", 1)
            options[key.strip()] = value.strip()
    return options
