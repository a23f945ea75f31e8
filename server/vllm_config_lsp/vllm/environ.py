"""vLLM's environment variables for one release, read from `schemas/envs-<version>.json`
(generated from the wheel's `vllm/envs.py` by tools/generate_env_catalogue.py), and how
vLLM parses a value of each: what `environment_variables[NAME]()` raises on it.

vLLM reads `envs.NAME` lazily, through the getter; from the release whose engine core
calls `enable_envs_cache()` at start (`read_all_at_start`), every getter runs on every
start, so a value a getter refuses stops vLLM whichever feature uses it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from vllm_config_lsp.vllm.catalogue import available_versions, nearest_release, schema_dir

#: `urllib3.util.parse_url(port).scheme` is set: what `get_vllm_port` calls a URI.
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")

#: How each parse kind reads a value, for hovers and messages.
KIND_WORDS = {
    "str": "a string, as written",
    "str_lower": "a string, lower-cased",
    "path": "a path (`~` expanded)",
    "int": "`int(value)`: an integer, anything else refuses to start",
    "float": "`float(value)`: a number, anything else refuses to start",
    "bool_int": "`bool(int(value))`: `0` or `1` (an integer); `true`/`false` refuse to start",
    "bool_int_or_none": "`bool(int(value))` when set: `0` or `1`; `true`/`false` refuse",
    "int_or_none": "`int(value)` when set: an integer",
    "bool_in": "true when lower-cased it is one of {values}; anything else is false",
    "bool_eq": "true only when it is exactly `{value}`; anything else is false",
    "bool_ne": "false only when it is exactly `{value}`; anything else is true",
    "bool_nonempty": "true when set to anything non-empty",
    "choices": "one of {choices}{case}",
    "list_choices": "comma-separated, each one of {choices}{case}",
    "port": "an integer port (a `tcp://…` URI, as Kubernetes service links set, refuses)",
    "computed": "computed from the value by code the catalogue does not judge",
}


@dataclass(frozen=True)
class EnvSpec:
    name: str
    kind: str
    default: Any
    doc: str
    source: str
    since: str
    choices: tuple[str, ...] | None = None
    case_sensitive: bool = True
    read_in: tuple[str, ...] = ()
    extra: tuple[tuple[str, Any], ...] = ()

    def parse_rule(self) -> str:
        """The parse rule in words."""
        extra = dict(self.extra)
        words = KIND_WORDS.get(self.kind, self.kind)
        choices = ", ".join(f"`{c}`" for c in self.choices or ())
        return words.format(
            values=", ".join(f"`{v}`" for v in extra.get("true_values", ())),
            value=extra.get("true_value", extra.get("false_value", "")),
            choices=choices or "the values computed at run time",
            case="" if self.case_sensitive else " (any case)",
        )

    def default_text(self) -> str:
        if isinstance(self.default, dict) and "expression" in self.default:
            return f"`{self.default['expression']}`"
        if self.default is None:
            return "unset"
        return f"`{self.default}`" if self.default != "" else '`""` (empty)'

    def problem(self, value: str) -> str | None:
        """vLLM's error when its getter reads `value`, or None when it accepts it."""
        if self.kind in ("int", "bool_int", "int_or_none", "bool_int_or_none"):
            if not _is_int(value):
                return f"invalid literal for int() with base 10: {value!r}"
            return None
        if self.kind == "float":
            try:
                float(value)
            except ValueError:
                return f"could not convert string to float: {value!r}"
            return None
        if self.kind == "port":
            if _is_int(value):
                return None
            if _SCHEME.match(value):
                return (
                    f"VLLM_PORT {value!r} appears to be a URI. This may be caused by a "
                    "Kubernetes service discovery issue,check the warning in: "
                    "https://docs.vllm.ai/en/latest/configuration/env_vars.html"
                )
            return f"VLLM_PORT {value!r} must be a valid integer"
        if self.kind == "choices" and self.choices is not None:
            check = value if self.case_sensitive else value.lower()
            allowed = self.choices if self.case_sensitive else [c.lower() for c in self.choices]
            if check not in allowed:
                return (
                    f"Invalid value {value!r} for {self.name}. Valid options: {list(self.choices)}."
                )
            return None
        if self.kind == "list_choices" and self.choices is not None:
            allowed = self.choices if self.case_sensitive else [c.lower() for c in self.choices]
            for item in (v.strip() for v in value.split(",")):
                if item and (item if self.case_sensitive else item.lower()) not in allowed:
                    return f"Invalid value {item!r} in {self.name}. {self._options()}"
        return None

    def _options(self) -> str:
        return f"Valid options: {list(self.choices or ())}."

    def read_as(self, value: str) -> bool | None:
        """What a boolean that never refuses makes of `value` (None: not such a kind)."""
        extra = dict(self.extra)
        if self.kind == "bool_in":
            text = value.strip().lower() if extra.get("lowered") else value
            return text in extra.get("true_values", ())
        if self.kind == "bool_eq":
            text = value.lower() if extra.get("lowered") else value
            return text == extra.get("true_value")
        return None


def as_int(value: str) -> int | None:
    """Python's `int(value)`, which every integer getter of `vllm/envs.py` calls (`" 1 "`,
    `+1`, `1_000` are accepted), or None where it raises (`²` is a digit to `str.isdigit`,
    not to `int`)."""
    if len(value) > 4000:
        return None
    try:
        return int(value)
    except ValueError:
        return None


def _is_int(value: str) -> bool:
    return as_int(value) is not None


@dataclass(frozen=True)
class Removed:
    name: str
    last: str
    flag: str | None
    note: str | None
    source: str | None
    #: The parse kind it had in its last release (how its value maps onto the flag).
    kind: str = "str"

    def flag_value(self, value: str) -> str | None:
        """The replacing flag's value for the variable's `value` (None: no mapping)."""
        if self.kind in ("bool_int", "bool_int_or_none"):
            number = as_int(value)
            if number is None:
                return None
            return "true" if number else "false"
        if self.kind in ("bool_in", "bool_eq"):
            return "true" if value.strip().lower() in ("1", "true") else "false"
        if self.kind in ("str", "choices", "str_lower", "int", "float"):
            return value
        return None


@dataclass(frozen=True)
class EnvCatalogue:
    version: str
    variables: dict[str, EnvSpec]
    removed: dict[str, Removed]
    #: `vllm/platforms/interface.py:N`, where an unknown `VLLM_*` name is logged (None:
    #: the release does not check names).
    validate_environ: str | None
    read_all_at_start: bool
    read_all_site: str | None

    def when_read(self, spec: EnvSpec) -> str:
        """When vLLM reads the variable, for a message."""
        if self.read_all_at_start and self.read_all_site:
            return f"every start reads it: `enable_envs_cache()`, {self.read_all_site}"
        where = ", ".join(f"`{path}`" for path in spec.read_in[:3])
        return f"vLLM reads it when the code that uses it runs ({where or 'envs.py'})"


@cache
def load_environ(version: str) -> EnvCatalogue | None:
    """The environment catalogue of `version` (its minor's generated release), or None
    when none was generated for it."""
    if version not in available_versions():
        mapped = nearest_release(version)
        if mapped is None:
            return None
        version = mapped
    path = schema_dir() / f"envs-{version}.json"
    if not path.is_file():
        return None
    with path.open(encoding="utf-8") as handle:
        data = json.load(handle)
    variables = {
        name: EnvSpec(
            name=name,
            kind=entry["kind"],
            default=entry.get("default"),
            doc=entry.get("doc", ""),
            source=entry.get("source", ""),
            since=entry.get("since", version),
            choices=tuple(entry["choices"]) if entry.get("choices") is not None else None,
            case_sensitive=entry.get("case_sensitive", True),
            read_in=tuple(entry.get("read_in", ())),
            extra=tuple(
                (k, tuple(v) if isinstance(v, list) else v)
                for k, v in entry.items()
                if k in ("true_values", "true_value", "false_value", "lowered")
            ),
        )
        for name, entry in data["variables"].items()
    }
    removed = {
        name: Removed(
            name, e["last"], e.get("flag"), e.get("note"), e.get("source"), e.get("kind", "str")
        )
        for name, e in data.get("removed", {}).items()
    }
    return EnvCatalogue(
        version,
        variables,
        removed,
        data.get("validate_environ"),
        bool(data.get("read_all_at_start")),
        data.get("read_all_site"),
    )
