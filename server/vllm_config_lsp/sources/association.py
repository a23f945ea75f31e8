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

A name is no proof (issue 27: a SkyPilot task `serve-vllm.yaml`, a Kubernetes Deployment
`vllm-reasoning.yaml.tpl`, a chart's `templates/_helpers.tpl` named on a command line were
read as `--config` files and got dozens of false errors). Only the marker comment and the
user's own include globs are taken at their word. A name that contains `vllm` (the default
globs), or a file named on the CLI's command line (`named`), makes a document a `--config`
file only when its content could be one (`is_config_mapping`):

* it is YAML: `.yaml`/`.yml` (vLLM's `load_config_file` refuses any other extension), not a
  template of YAML (`.tpl`, `.j2`, `.template`… end the name, so they are not YAML) — a
  TOML file, a Makefile, a Go or Jinja template is never parsed as YAML here;
* its top level is a mapping (`mapping_keys`: a block mapping, several documents of them —
  a config that vLLM refuses, and the loader rules say why —, or a flow mapping): a list, a
  scalar or a template directive at column 0 are no `--config` file;
* none of its keys is a structural key of another format (`STRUCTURAL_KEYS`: Kubernetes'
  `apiVersion`/`kind`/`metadata`, compose's `services`, a workflow's `jobs`, SkyPilot's
  `resources`/`setup`, Baseten's `model_name`, BentoML's `service`, Helm values'
  `replicaCount`… — none of them a vLLM flag or a unique prefix of one in any release,
  which a test holds);
* at least half of its keys are flags of some release (`swap-space` is still a 0.10 config)
  or unique prefixes of one of the default release (argparse takes `tensor-parallel` for
  `--tensor-parallel-size`). Half, not all, and no distinctive flag required (unlike
  content alone): `model: x` with a misspelt second key is a config that vLLM refuses, and
  must be told so. The structural keys, not the share, are what turns away the other
  formats' files, whose keys are almost never flags (measured on the real files in
  `tests/sources/data/not-config/`: at most one key in five; every real config of the
  corpus has at least 86 % flags).

An empty document (or comments only) whose name contains `vllm` is a config being written
(completion needs it); anything else empty holds nothing to check.

Pure functions, no LSP: the CLI's directory walk (`files.looks_like_config`) uses the same
rules. Content detection reads top-level keys from the text line by line instead of parsing
YAML, so it is cheap on huge files and works while a document is half-typed.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from pathlib import PurePosixPath
from urllib.parse import unquote, urlparse

from vllm_config_lsp.document.markers import MARKER, MARKER_LINES
from vllm_config_lsp.sources import globs

YAML_SUFFIXES = {".yaml", ".yml"}
#: Share of keys that must be flags (or unique prefixes of one) in a document whose name
#: says vLLM or that is named on the command line (`is_config_mapping`).
NAMED_FLAG_SHARE = 0.5
#: Top-level keys of other formats' YAML; a mapping with one is never a `--config` file.
#: None is a vLLM flag or a unique prefix of one in any release (`tests/sources/
#: test_not_config.py`): `run` (SkyPilot), a unique prefix of `--runner`, is not here.
STRUCTURAL_KEYS = frozenset(
    {
        # Kubernetes objects, Kustomize, Helm's Chart.yaml and values files
        "apiVersion",
        "kind",
        "metadata",
        "status",
        "appVersion",
        "dependencies",
        "maintainers",
        "patches",
        "configMapGenerator",
        "namePrefix",
        "commonLabels",
        "replicaCount",
        "image",
        "imagePullSecrets",
        "nameOverride",
        "fullnameOverride",
        "serviceAccount",
        "podAnnotations",
        "podLabels",
        "podSecurityContext",
        "securityContext",
        "ingress",
        "nodeSelector",
        "tolerations",
        "affinity",
        "autoscaling",
        "livenessProbe",
        "readinessProbe",
        "volumeMounts",
        "global",
        # compose
        "services",
        "volumes",
        "networks",
        "configs",
        "secrets",
        # GitHub workflows and actions, GitLab CI
        "on",
        "jobs",
        "permissions",
        "concurrency",
        "defaults",
        "run-name",
        "runs",
        "inputs",
        "outputs",
        "branding",
        "author",
        "stages",
        "variables",
        "include",
        "workflow",
        "before_script",
        "after_script",
        # SkyPilot tasks and services, dstack runs
        "name",
        "resources",
        "setup",
        "envs",
        "file_mounts",
        "num_nodes",
        "workdir",
        "service",
        "type",
        "commands",
        "ports",
        "replicas",
        "scaling",
        "spot_policy",
        # Baseten/Truss, BentoML, Ray Serve, pre-commit, mkdocs, OpenAPI
        "model_name",
        "model_metadata",
        "model_class_name",
        "requirements",
        "system_packages",
        "python_version",
        "environment_variables",
        "docker_server",
        "build_commands",
        "base_image",
        "external_package_dirs",
        "model_cache",
        "runtime",
        "build",
        "python",
        "docker",
        "labels",
        "description",
        "applications",
        "http_options",
        "repos",
        "site_name",
        "nav",
        "theme",
        "openapi",
        "swagger",
        "paths",
        "components",
    }
)

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
    #: Named on the CLI's command line, and its content could be a `--config` file.
    NAMED = "named on the command line"


@dataclass(frozen=True)
class AssociationSettings:
    """`associations.globs` are the user's own associations, taken at their word (the
    default globs, `DEFAULT_GLOBS`, need content that could be a config); `detection`
    switches content detection on or off."""

    globs: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    detection: bool = True


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
    named: bool = False,
) -> Reason | None:
    """The reason `text` (at `path`) is a vLLM config, or None when it is not one.
    `flag_names` are what content detection counts as flags (`detection_flag_names` of
    the vLLM layer, passed in so that this layer does not read release data). `named`:
    the user named the file on the CLI's command line (worth what a `vllm` name is)."""
    if not is_yaml_document(path, language_id):
        return None
    if has_marker(text):
        return Reason.MARKER
    if any(glob_matches(pattern, path) for pattern in settings.exclude):
        return None
    if any(glob_matches(pattern, path) for pattern in settings.globs):
        return Reason.GLOB  # the user's own association: taken at its word
    keys = mapping_keys(text)
    if keys is None:
        return None
    if any(glob_matches(pattern, path) for pattern in DEFAULT_GLOBS):
        return Reason.GLOB if not keys or is_config_mapping(keys, flag_names) else None
    if named and keys and is_config_mapping(keys, flag_names):
        return Reason.NAMED
    if settings.detection and looks_like_vllm_content(text, flag_names):
        return Reason.CONTENT  # content alone: one document only
    return None


def is_yaml_document(path: str, language_id: str | None = None) -> bool:
    """A `.yaml`/`.yml` name, or an editor's `yaml` language id on a name that is not a
    template's (`values.yaml.tpl`, `config.yml.j2`: their text is no YAML until rendered)."""
    suffix = PurePosixPath(path).suffix.lower()
    if suffix in YAML_SUFFIXES:
        return True
    return language_id == "yaml" and suffix not in TEMPLATE_SUFFIXES


#: Suffixes of templates (Go, Helm, Jinja, Terraform…), whose text is not YAML as written.
TEMPLATE_SUFFIXES = frozenset(
    {".tpl", ".tmpl", ".gotmpl", ".j2", ".jinja", ".jinja2", ".template", ".tftpl", ".mustache"}
)


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


def top_level_keys(text: str, *, every_document: bool = False) -> list[str] | None:
    """Keys at column 0 of a single-document block mapping; None when the document is not
    one (a top-level list, several documents, a flow collection). `every_document`: the
    keys of every document of a stream of mappings (a `--config` file written as several
    documents is still one, which vLLM refuses: the loader rules say so)."""
    keys: list[str] = []
    seen_content = keyed = False
    for number, line in enumerate(text.splitlines()):
        if number >= DETECTION_LINES:
            break
        if not line or line[0] in " \t#":
            continue
        if line.startswith("---") and line[3:4] in ("", " ", "\t"):
            if seen_content and not every_document:
                return None  # a second document: vLLM's `yaml.safe_load` refuses it
            keyed = False
            continue
        if line.startswith("...") or line.startswith("%"):
            continue
        if line == "-" or line.startswith(("- ", "-\t")):
            if keyed:
                continue  # `key:` then `- item` at column 0: the key's sequence
            return None
        if line.startswith(("[", "{")):
            return None
        seen_content = True
        key = _top_key(line)
        if key is not None:
            keys.append(key.strip())
            keyed = True
    return keys


def mapping_keys(text: str) -> list[str] | None:
    """The top-level keys of a document that could be a `--config` file: a block mapping
    (or a stream of them: `top_level_keys`), or one flow mapping (`{model: m, port: 1}`,
    JSON); None for anything else."""
    keys = top_level_keys(text, every_document=True)
    if keys is not None:
        return keys
    return _flow_mapping_keys(text[:DETECTION_BYTES])


def _flow_mapping_keys(text: str) -> list[str] | None:
    """The keys of a flow mapping that starts the document (after comments and a `---`), by
    one pass over the characters: a key is what comes before a `: ` at depth one, quotes
    taken off. Whatever else the text holds (a second document, a trailing list) is the
    loader's to report."""
    start = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and stripped != "---":
            break
        start += len(line)
    if text[start:].lstrip()[:1] != "{":
        return None
    keys: list[str] = []
    depth, quote, segment, keyed = 0, "", [], False
    for char in text[start:]:
        if quote:
            if char == quote:
                quote = ""
            elif depth == 1 and not keyed:
                segment.append(char)
            continue
        if char in "\"'" and depth == 1 and not keyed and not "".join(segment).strip():
            quote = char
            continue
        if char in "{[":
            depth += 1
            continue
        if char in "}]":
            depth -= 1
            if depth == 0:
                break
            continue
        if depth != 1:
            continue
        if char == ",":
            segment, keyed = [], False
        elif char == ":" and not keyed:
            keys.append("".join(segment).strip())
            keyed = True
        elif not keyed:
            segment.append(char)
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
    return keys is not None and _has_content_keys(keys, flag_names)


def _has_content_keys(keys: list[str], flag_names: frozenset[str]) -> bool:
    """Content alone (no name, no marker): 75 % flags, one distinctive, no other format's
    structural key."""
    return has_vllm_keys(keys, flag_names) and not structural_keys(keys)


def structural_keys(keys: Sequence[str]) -> list[str]:
    """The keys of `keys` that belong to another format (`STRUCTURAL_KEYS`; compose's
    `x-…` extension fields too)."""
    return [key for key in keys if key in STRUCTURAL_KEYS or key.startswith("x-")]


def is_config_mapping(keys: Sequence[str], flag_names: frozenset[str]) -> bool:
    """Whether a mapping with these top-level keys could be a `--config` file: see the
    module docstring (no structural key; at least half flags or unique prefixes of one).
    YAML merge keys (`<<`) bring keys this scan does not see: they count for neither side,
    and a mapping of merge keys alone could be one."""
    if not keys or structural_keys(keys):
        return False
    merged = [key for key in keys if key != "<<"]
    if not merged:
        return True
    keys = merged
    flags = [flag for flag in (_as_flag(key, flag_names) for key in keys) if flag is not None]
    return len(flags) >= NAMED_FLAG_SHARE * len(keys)


def _as_flag(key: str, flag_names: frozenset[str]) -> str | None:
    """The flag a key names: itself, or the one flag it is a prefix of (argparse's
    abbreviations, as vLLM's parser allows them)."""
    flag = _flag_name(key)
    if flag in flag_names:
        return flag
    if len(flag) < 3:
        return None
    ordered = _sorted_names(flag_names)
    at = bisect_left(ordered, flag)
    following = ordered[at : at + 2]
    matches = [name for name in following if name.startswith(flag)]
    return matches[0] if len(matches) == 1 else None


@lru_cache(maxsize=4)
def _sorted_names(flag_names: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(flag_names))


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
