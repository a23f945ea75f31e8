"""Which files are vLLM configs, and reading them safely.

A directory walk must not lint every YAML file of a repository (Helm charts, workflows…):
only files the language server would check too are picked (named like vLLM configs, marked
with a `# vllm-config` comment, or whose keys are vLLM flags: `association`; hosts that
start vLLM and name it; a Triton `model.json` of engine arguments). Named files are always
checked. Reading never raises: binary or undecodable files are reported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from vllm_config_lsp.sources.association import DETECTION_BYTES, YAML_SUFFIXES, classify
from vllm_config_lsp.sources.hosts import KEYED_HOSTS, host_of

SKIP_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"}


@dataclass
class ReadResult:
    text: str | None
    error: str | None = None
    #: The bytes read, which a rewrite compares with the file before replacing it.
    data: bytes = b""


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
    return ReadResult(text, data=data)


def looks_like_config(path: Path, flag_names: frozenset[str]) -> bool:
    """A document that starts vLLM (a script, manifest, recipe… that names vLLM), or the
    language server's association rules for `--config` files with default settings (name,
    marker comment, content), so `check DIR` picks exactly the files an editor would check."""
    try:
        with path.open("rb") as handle:
            head = handle.read(DETECTION_BYTES).decode("utf-8", errors="replace")
    except OSError:
        return False
    host = host_of(path.as_posix(), head, flag_names=flag_names)
    if host is not None:
        return host in KEYED_HOSTS or "vllm" in head.lower()
    if path.suffix.lower() not in YAML_SUFFIXES:
        return False
    return classify(path.as_posix(), head, flag_names=flag_names) is not None


def discover(paths: list[Path], flag_names: frozenset[str]) -> Iterator[Path]:
    """Named files as given; directories walked in sorted order for stable output."""
    for path in paths:
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                if any(part in SKIP_DIRS for part in child.relative_to(path).parts):
                    continue
                if child.is_file() and looks_like_config(child, flag_names):
                    yield child
        else:
            yield path
