"""Shared reading of `vllm serve` arguments for the frontend / EngineArgs rule group.

vLLM's serve-level checks (`validate_parsed_serve_args`, `ServeSubcommand.cmd`,
`EngineArgs.create_engine_config`) read the argparse namespace: every flag has a value,
the file's or argparse's default. `Arg` is that value plus where the file wrote it, so a
rule reads like the vLLM code it mirrors and still points at the right line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vllm_config_lsp.findings import Finding, Fix, Severity, TextEdit
from vllm_config_lsp.rules.support import closest, finding, remove_pair_fix
from vllm_config_lsp.sources.yaml_origin import Pair
from vllm_config_lsp.vllm.config_model import ConfigModel


@dataclass
class Arg:
    """One argparse destination: its value and, when the file sets it, where."""

    name: str
    value: Any
    #: The file sets the flag (and its value converted: argparse got that far).
    explicit: bool
    #: The value's span (the key for switches such as `headless: true`).
    where: tuple[int, int]
    pair: Pair | None

    def removal(self, model: ConfigModel, title: str | None = None) -> Fix | None:
        """A fix deleting the flag's line from the file (never safe: it changes intent)."""
        if self.pair is None:
            return None
        return remove_pair_fix(model, self.pair, title or f"Remove `{self.pair.key}`")


class Unparsed(Exception):
    """argparse stops on this flag's value first (VC201/VC111 report it)."""


def arg(model: ConfigModel, name: str) -> Arg:
    """The namespace value vLLM reads for flag `name` (dash spelling). Raises `Unparsed`
    when the file's value does not convert: vLLM stops at argparse then, before any rule
    of this group runs. A flag the release does not have reads as unset (its namespace
    has no such setting, so no branch of vLLM's code takes it)."""
    spec = model.catalogue.flags.get(name)
    if spec is None:
        return Arg(name, None, False, (0, 0), None)
    value = model.flag(name)
    if value is None:
        default = spec.default
        if isinstance(default, dict) and ("factory" in default or "expr" in default):
            default = default.get("value")
        return Arg(name, default, False, (0, 0), None)
    if value.error is not None:
        raise Unparsed(name)
    result = value.value
    if value.use.option_string in spec.negatives:
        # `--no-X` stores False (argparse.BooleanOptionalAction); FlagValue says True.
        result = False
    return Arg(name, result, True, value.value_span(), value.use.token.pair)


def args(model: ConfigModel, *names: str) -> dict[str, Arg] | None:
    """Several flags at once (dest spelling as keys), or None when one did not parse."""
    try:
        return {name.replace("-", "_"): arg(model, name) for name in names}
    except Unparsed:
        return None


def arg_field(model: ConfigModel, key: str, attribute: str, *names: str) -> Any:
    """`args(model, *names)[key].<attribute>`, the rule's own first reading, for its trigger
    (tools/generate_rule_index.py): raises when a flag did not parse, as the rule's
    subscript of None would, so that `Rule.can_fire` leaves the rule to run."""
    found = args(model, *names)
    if found is None:
        raise Unparsed(key)
    return getattr(found[key], attribute)


def first_set(*candidates: Arg) -> Arg:
    """The first argument the file sets (where a finding about a combination points)."""
    for candidate in candidates:
        if candidate.explicit:
            return candidate
    return candidates[0]


def starts_api_server(model: ConfigModel) -> bool | None:
    """Whether `vllm serve` goes on to `setup_server` (and `validate_api_server_args`):
    not in headless mode (`api-server-count` 0 also means headless), not for `--grpc`.
    None when the flags involved did not parse."""
    a = args(model, "headless", "api-server-count", "grpc")
    if a is None:
        return None
    count = a["api_server_count"].value
    if a["headless"].value or a["grpc"].value:
        return False
    return not (isinstance(count, int) and count < 1)


def plugin_set(model: ConfigModel, name: str) -> bool:
    """A parser plugin file is imported (`len(path) > 3`, cli_args.py:608-612): it may
    register more names, so a name outside the built-in set is not known to be wrong."""
    try:
        value = arg(model, name).value
    except Unparsed:
        return True
    return isinstance(value, str) and len(value) > 3


def unknown_parser(
    code: str,
    said: str,
    name: str,
    names: Sequence[str],
    where: tuple[int, int],
    *,
    plugin: str,
    source: str,
    editable: bool = True,
) -> Finding:
    """The error for a parser name the release does not register: vLLM's words (`said`),
    the closest built-in name (a fix when the name is plain YAML text) and the plugin flag
    that could register it."""
    message = said
    fixes = []
    suggestion = closest(name, names, cutoff=0.6)
    if suggestion is not None:
        message += f" Did you mean `{suggestion}`?"
    if suggestion is not None and editable:
        replace = TextEdit(*where, suggestion)
        fixes.append(Fix(f"Replace with `{suggestion}`", (replace,), safe=False, preferred=True))
    message += f" A `{plugin}` can register more names."
    return finding(code, Severity.ERROR, where, message, source=source, fixes=fixes)


def chose_from(kind: str, name: str, names: Sequence[str]) -> str:
    """`validate_api_server_args`' words for a name outside the registry (and those of
    0.11-0.12's StructuredOutputsConfig): `invalid tool call parser: x (chose from { … })`."""
    return f"invalid {kind}: {name} (chose from {{ {','.join(names)} }})."
