"""Which files are vLLM configs, and reading them safely.

A directory walk must not lint every YAML file of a repository (Helm charts, workflows…):
only files the language server would check too are picked (named like vLLM configs, marked
with a `# vllm-config` comment, or whose keys are vLLM flags: `association`). Named files are
always checked. Reading never raises: binary or undecodable files are reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

YAML_SUFFIXES = {".yaml", ".yml"}
SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"}
MARKER = re.compile(r"^\s*#\s*vllm-config\b(?::\s*(?P<options>.*))?", re.MULTILINE)
#: Lines at the top of a file searched for the marker comment.
MARKER_LINES = 10


@dataclass
class ReadResult:
    text: str | None
    error: str | None = None


def read_config(path: Path) -> ReadResult:
    try:
        data = path.read_bytes()
    except OSError as error:
        return ReadResult(None, f"cannot read: {error.strerror or error}")
    if b"\x00" in data[:8192]:
        return ReadResult(None, "binary file (contains NUL bytes); not a YAML config")
    try:
        text = data.decode("utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8")
    except UnicodeDecodeError as error:
        return ReadResult(None, f"not UTF-8 text (byte {error.start}): vLLM reads configs as UTF-8")
    return ReadResult(text)


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


def looks_like_config(path: Path) -> bool:
    """The language server's association rules with default settings (name, marker comment,
    content), so `check DIR` picks exactly the files an editor would check."""
    from .association import DETECTION_BYTES, classify

    if path.suffix.lower() not in YAML_SUFFIXES:
        return False
    try:
        with path.open("rb") as handle:
            head = handle.read(DETECTION_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False
    return classify(path.as_posix(), head) is not None


def discover(paths: list[Path]) -> Iterator[Path]:
    """Named files as given; directories walked in sorted order for stable output."""
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if any(part in SKIP_DIRS for part in child.relative_to(path).parts):
                    continue
                if child.is_file() and looks_like_config(child):
                    yield child
        else:
            yield path
