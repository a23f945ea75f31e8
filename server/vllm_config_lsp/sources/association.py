"""Which documents are vLLM serve configs: by name, by marker comment, or by content.

Editors attach a YAML language server to *every* YAML file (Neovim and Emacs by filetype,
VS Code by language id), so the decision has to be made here, per document, and it has to be
conservative: a Kubernetes manifest or a GitHub workflow must never get vLLM diagnostics.
The order is

1. a `# vllm-config` marker comment in the first lines: the file says so itself, which beats
   every setting (like yaml-language-server's modeline);
2. exclude globs from the settings;
3. include globs (default: the file name contains `vllm`);
4. content detection (can be switched off): a single YAML document whose top level is a
   mapping, at least 75 % of whose keys are `vllm serve` flags, one of them distinctive
   (`port`, `host` or `model` alone appear in any service config).

Pure functions, no LSP: the CLI's directory walk (`files.looks_like_config`) uses the same
rules. Content detection reads top-level keys from the text line by line instead of parsing
YAML, so it is cheap on huge files and works while a document is half-typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

from vllm_config_lsp.document.markers import MARKER, MARKER_LINES
from vllm_config_lsp.sources import globs

YAML_SUFFIXES = {".yaml", ".yml"}

#: Default include globs: the file name contains `vllm` (`serve.vllm.yaml`, `vllm-config.yml`).
DEFAULT_GLOBS: tuple[str, ...] = ("*vllm*.yaml", "*vllm*.yml")
#: Share of top-level keys that must be vLLM flags for content detection.
FLAG_SHARE = 0.75
#: Top-level lines inspected by content detection (a config is a few dozen lines), and how
#: much of a file the CLI's directory walk reads for it.
DETECTION_LINES = 2000
DETECTION_BYTES = 65536
#: Flags whose names are common in unrelated YAML (service configs, Helm values, Ansible
#: vars): they count towards the share but never make a file a vLLM config on their own.
GENERIC_FLAGS = frozenset(
    {
        "api-key",
        "allowed-origins",
        "chat-template",
        "config",
        "convert",
        "download-dir",
        "dtype",
        "grpc",
        "headless",
        "help",
        "hf-token",
        "host",
        "load-format",
        "log-level",
        "middleware",
        "model",
        "port",
        "quantization",
        "revision",
        "root-path",
        "runner",
        "seed",
        "ssl-certfile",
        "ssl-keyfile",
        "tokenizer",
        "uds",
        "uvicorn-log-level",
        "watermark",
    }
)

#: Characters a plain YAML key cannot start with (indicators, quotes, flow punctuation).
_PLAIN_KEY_START = "#'\"{}[],&*!|>%@`?"


class Reason(str, Enum):
    """Why a document is treated as a vLLM config (logged by the server)."""

    MARKER = "marker comment"
    GLOB = "file name"
    CONTENT = "content"
    #: A script, manifest, recipe… with a vLLM command line in it (`sources.hosts`).
    COMMAND_LINE = "vLLM command line"


@dataclass(frozen=True)
class AssociationSettings:
    """`associations.globs` are added to the defaults; `detection` switches content
    detection on or off."""

    globs: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    detection: bool = True

    @property
    def include(self) -> tuple[str, ...]:
        return DEFAULT_GLOBS + self.globs


def path_of_uri(uri: str) -> str:
    """The POSIX path of a `file:` URI; other schemes (`untitled:`) keep their path part."""
    parsed = urlparse(uri)
    path = unquote(parsed.path or parsed.netloc or uri)
    if re.match(r"^/[A-Za-z]:", path):  # file:///C:/x on Windows
        path = path[1:]
    return path.replace("\\", "/")


def classify(
    path: str,
    text: str,
    settings: AssociationSettings = AssociationSettings(),
    *,
    flag_names: frozenset[str],
    language_id: str | None = None,
) -> Reason | None:
    """The reason `text` (at `path`) is a vLLM config, or None when it is not one.
    `flag_names` are what content detection counts as flags (`detection_flag_names` of
    the vLLM layer, passed in so that this layer does not read release data)."""
    name = PurePosixPath(path).name
    is_yaml = PurePosixPath(name).suffix.lower() in YAML_SUFFIXES or language_id == "yaml"
    if not is_yaml:
        return None
    if has_marker(text):
        return Reason.MARKER
    if any(glob_matches(pattern, path) for pattern in settings.exclude):
        return None
    if any(glob_matches(pattern, path) for pattern in settings.include):
        return Reason.GLOB
    if settings.detection and looks_like_vllm_content(text, flag_names):
        return Reason.CONTENT
    return None


def has_marker(text: str) -> bool:
    head = "\n".join(text.splitlines()[:MARKER_LINES])
    return MARKER.search(head) is not None


def glob_matches(pattern: str, path: str) -> bool:
    """A pattern without `/` matches the file name (`*.vllm.yaml`); one with `/` matches the
    path, anchored at any directory unless it starts with `/` (`**` spans directories,
    `{a,b}` alternatives), like editor file associations; in linear time (`globs`)."""
    pattern = pattern.strip().replace("\\", "/")
    if not pattern:
        return False
    path = path.replace("\\", "/")
    if "/" not in pattern:
        return globs.matches(pattern, PurePosixPath(path).name)
    if not pattern.startswith(("/", "**")):
        pattern = "**/" + pattern
    return globs.matches(pattern, path)


def top_level_keys(text: str) -> list[str] | None:
    """Keys at column 0 of a single-document block mapping; None when the document is not
    one (a top-level list, several documents, a flow collection)."""
    keys: list[str] = []
    seen_content = False
    for number, line in enumerate(text.splitlines()):
        if number >= DETECTION_LINES:
            break
        if not line or line[0] in " \t#":
            continue
        if line.startswith("---") and line[3:4] in ("", " ", "\t"):
            if seen_content:
                return None  # a second document: vLLM's `yaml.safe_load` refuses it
            continue
        if line.startswith("...") or line.startswith("%"):
            continue
        if line == "-" or line.startswith(("- ", "-\t", "[", "{")):
            return None
        seen_content = True
        key = _top_key(line)
        if key is not None:
            keys.append(key.strip())
    return keys


def _top_key(line: str) -> str | None:
    """The key a `key: value` line starts with: quoted (`"a b": 1`) or plain (`a:b: 1` has
    the key `a:b`)."""
    if line[0] in "\"'":
        close = line.find(line[0], 1)
        rest = line[close + 1 :].lstrip() if close > 0 else ""
        if rest[:1] == ":" and (len(rest) == 1 or rest[1].isspace()):
            return line[1:close]
        return None
    found = split_key(line, _PLAIN_KEY_START, colons_in_key=True)
    return found[0] if found is not None else None


def split_key(line: str, excluded: str, *, colons_in_key: bool = False) -> tuple[str, int] | None:
    """(key, index after its colon) of a line that starts with a YAML key, or None. The key
    starts with neither whitespace nor a character of `excluded`, no `#` comes before its
    colon, and the spaces before the colon are not part of it; with `colons_in_key` the
    colon is the first one followed by whitespace or the end, else the first one. Linear in
    the line: the `[^:#]*?\\s*:` regexes this replaces were quadratic on a long run of
    spaces (73 s on a 128 KB line)."""
    if not line or line[0].isspace() or line[0] in excluded:
        return None
    comment = line.find("#")
    end = len(line) if comment < 0 else comment
    colon = line.find(":", 1, end)
    while colon >= 0:
        if not colons_in_key or colon + 1 == len(line) or line[colon + 1].isspace():
            return line[:colon].rstrip(), colon + 1
        colon = line.find(":", colon + 1, end)
    return None


def looks_like_vllm_content(text: str, flag_names: frozenset[str]) -> bool:
    keys = top_level_keys(text)
    return keys is not None and has_vllm_keys(keys, flag_names)


def has_vllm_keys(keys: list[str], flag_names: frozenset[str], share: float = FLAG_SHARE) -> bool:
    """At least `share` of the keys are flags, one of them distinctive: what makes a mapping
    vLLM settings, here and for the hosts told by their keys (Triton's model.json)."""
    if not keys:
        return False
    known = [flag for flag in map(_flag_name, keys) if flag in flag_names]
    if len(known) < share * len(keys):
        return False
    return any(flag not in GENERIC_FLAGS for flag in known)


def _flag_name(key: str) -> str:
    """`max_num_seqs` and `compilation-config.mode` name the flags `max-num-seqs` and
    `compilation-config` (vLLM folds `_` into `-` before the first dot)."""
    return key.split(".", 1)[0].replace("_", "-").lstrip("-").lower()
