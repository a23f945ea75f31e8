"""Completion and hover for vLLM's environment variables where a host sets them: a
Kubernetes `env:` list (`- name:` and `value:`), a compose `environment:` (mapping or
list), a Dockerfile `ENV`, a shell `export` (and `NAME=value` before a command).

Completion reads the text around the cursor (what is being typed is rarely parseable);
hover reads the settings the host's source found (`Invocation.environ`). Both use the
catalogue of the command line's release (`schemas/envs-<version>.json`): the variable's
documentation (the comment above it in vllm/envs.py), its default and its parse rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.environ import EnvCatalogue, EnvSpec, load_environ

#: `export NAME`, `export NAME=val`, `ENV NAME`, `ENV A=1 NAME=val`, `NAME=val cmd`.
_SHELL_NAME = re.compile(r"(?:^|[\s;&|])(?:export|ENV)\s+(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*$")
_ASSIGNED = re.compile(r"(?:^|[\s;&|])([A-Za-z_][A-Za-z0-9_]*)=([^\s'\"]*)$")
_K8S_NAME = re.compile(r"^\s*(?:-\s+)?name:\s*['\"]?$")
_K8S_VALUE = re.compile(r"^\s*value:\s*['\"]?$")
_LIST_ITEM = re.compile(r"^\s*-\s+['\"]?$")
_MAPPING_KEY = re.compile(r"^\s*$")
_MAPPING_VALUE = re.compile(r"^\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)['\"]?:\s*['\"]?$")
_NAME_TAIL = re.compile(r"[A-Za-z0-9_]*$")
#: The keys whose entries set variables: Kubernetes/workflow `env:`, compose `environment:`,
#: SkyPilot `envs:`, Ray's `runtime_env.env_vars:`.
_ENV_KEYS = ("env:", "environment:", "envs:", "env_vars:")


def describe(spec: EnvSpec, catalogue: EnvCatalogue) -> str:
    """The hover text of a variable: its documentation, default and parse rule."""
    parts = [f"**{spec.name}** (environment variable of vLLM {catalogue.version})"]
    if spec.doc:
        parts.append(spec.doc)
    parts.append(f"Default: {spec.default_text()}. Parsed as {spec.parse_rule()}.")
    parts.append(
        f"Since vLLM {spec.since}; `{spec.source}`. "
        + catalogue.when_read(spec)[0].upper()
        + catalogue.when_read(spec)[1:]
        + "."
    )
    return "\n\n".join(parts)


def describe_removed(name: str, catalogue: EnvCatalogue) -> str | None:
    removed = catalogue.removed.get(name)
    if removed is None:
        return None
    text = f"**{name}**: not a variable of vLLM {catalogue.version} (last in {removed.last})."
    if removed.flag:
        text += f" Use `{removed.flag}` instead."
    elif removed.note:
        text += f" {removed.note}."
    return text


def hover(models: Sequence[ConfigModel], offset: int) -> tuple[str, tuple[int, int]] | None:
    """The variable whose name (or value) is under the cursor, on any command line's
    environment."""
    for model in models:
        invocation = model.invocation
        catalogue = load_environ(model.version)
        if catalogue is None:
            continue
        for var in invocation.environ:
            span = (var.name.start, var.name.end)
            if var.value is not None and var.value.start <= offset <= var.value.end:
                span = (var.value.start, var.value.end)
            elif not var.name.start <= offset <= var.name.end:
                continue
            spec = catalogue.variables.get(var.name.text)
            if spec is not None:
                return describe(spec, catalogue), span
            removed = describe_removed(var.name.text, catalogue)
            if removed is not None:
                return removed, span
    return None


def in_env_block(text: str, line_start: int) -> bool:
    """Whether the YAML line at `line_start` sits under an `env:`/`environment:` key: the
    nearest line above it that is less indented (as indented, for a `- ` item) names one."""
    line_end = text.find("\n", line_start)
    line = text[line_start : len(text) if line_end == -1 else line_end]
    indent = len(line) - len(line.lstrip(" "))
    item = line.lstrip(" ").startswith("-")
    at = line_start
    while at > 0:
        previous_start = text.rfind("\n", 0, at - 1) + 1
        previous = text[previous_start : at - 1]
        at = previous_start
        stripped = previous.strip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(previous) - len(previous.lstrip(" "))
        if depth < indent or (item and depth == indent and not stripped.startswith("-")):
            return stripped.endswith(_ENV_KEYS)
    return False


def completion_site(text: str, line_start: int, offset: int) -> tuple[str, int, str] | None:
    """What is typed at `offset`: ("name", start, "") for a variable name starting at
    `start`, or ("value", start, NAME) for the value of NAME. None elsewhere."""
    prefix = text[line_start:offset]
    tail = _NAME_TAIL.search(prefix)
    typed = tail.group(0) if tail else ""
    head = prefix[: len(prefix) - len(typed)]
    start = offset - len(typed)
    assigned = _ASSIGNED.search(prefix)
    if assigned is not None and (
        _SHELL_NAME.search(prefix[: assigned.start(1)])
        or prefix.lstrip().startswith(("- ", "-"))
        or prefix[: assigned.start(1)].strip() == ""
    ):
        return "value", offset - len(assigned.group(2)), assigned.group(1)
    if _SHELL_NAME.search(head):
        return "name", start, ""
    name_site = _K8S_NAME.match(head) or _LIST_ITEM.match(head) or _MAPPING_KEY.match(head)
    if name_site and in_env_block(text, line_start):
        return "name", start, ""
    value_typed = re.search(r"[^\s'\"]*$", prefix)
    value_start = offset - len(value_typed.group(0) if value_typed else "")
    head = prefix[: value_start - line_start]
    if _K8S_VALUE.match(head):
        name = _k8s_name_above(text, line_start)
        return ("value", value_start, name) if name else None
    mapped = _MAPPING_VALUE.match(head)
    if mapped is not None and in_env_block(text, line_start):
        return "value", value_start, mapped.group(1)
    return None


def _k8s_name_above(text: str, line_start: int) -> str | None:
    """The `name:` of the env entry a `value:` line belongs to (the line above)."""
    previous_start = text.rfind("\n", 0, max(line_start - 1, 0)) + 1
    match = re.match(r"^\s*-?\s*name:\s*['\"]?([A-Za-z_][A-Za-z0-9_]*)", text[previous_start:])
    return match.group(1) if match else None


def value_choices(spec: EnvSpec) -> list[str]:
    """The values to offer for a variable: its choices, or `0`/`1` for the booleans vLLM
    reads as integers (`true` refuses there)."""
    if spec.choices:
        return list(spec.choices)
    if spec.kind in ("bool_int", "bool_int_or_none", "bool_eq"):
        return ["0", "1"]
    if spec.kind == "bool_in":
        return ["0", "1", "true", "false"]
    return []
