"""vLLM's flags, config classes and enums for one release, read from `schemas/`.

The catalogues are generated from vLLM's wheels (tools/generate_schemas.py) into a compact
store: one small `catalogue-<version>.json` per release naming shared definitions in
`shared-definitions.json` by hash (`schema_store`, docs/schema-format.md). Loading is lazy
and cached per release because the language server usually needs one or two of them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import Any

from vllm_config_lsp.sources.config_file import LoaderSpec
from vllm_config_lsp.vllm import schema_store

_PACKAGED = Path(__file__).parents[1] / "schemas"
_CHECKOUT = Path(__file__).resolve().parents[3] / "schemas"


def schema_dir() -> Path:
    """Installed wheels carry the schemas as package data; a checkout uses the repo copy."""
    return _PACKAGED if _PACKAGED.is_dir() else _CHECKOUT


def catalogue_path(version: str) -> Path:
    return schema_dir() / f"catalogue-{version}.json"


@cache
def available_versions() -> list[str]:
    """Releases with a generated catalogue, oldest first (one per vLLM minor release)."""
    found = []
    for path in schema_dir().glob("catalogue-*.json"):
        match = re.fullmatch(r"catalogue-(.+)\.json", path.name)
        if match:
            found.append(match.group(1))
    return sorted(found, key=version_key)


@lru_cache(maxsize=1024)
def version_key(version: str) -> tuple[int, ...]:
    """`0.6.6.post1` → (0, 6, 6, 1): numeric order of release strings."""
    return tuple(int(part) for part in re.findall(r"\d+", version))


VERSION_RE = re.compile(r"\bv?(\d+\.\d+)((?:\.\d+)*(?:\.?post\d+|rc\d+|\.dev\d+)?)\b")
#: Longest version string read (`0.10.1.1.dev123+g0123abcd.cu128` is 32): versions come from
#: files and settings, and a 5,000-digit one would make `int` raise (Python's digit limit).
MAX_VERSION_CHARS = 64


def minor_of(version: str) -> tuple[int, int] | None:
    """(major, minor) of a version string; None for anything that is not one, including a
    string longer than MAX_VERSION_CHARS."""
    if len(version) > MAX_VERSION_CHARS:
        return None
    match = VERSION_RE.search(version)
    if not match:
        return None
    major, minor = match.group(1).split(".")
    return int(major), int(minor)


def nearest_release(version: str, *, clamp: bool = False) -> str | None:
    """The generated release of `version`'s minor (`0.10.1` → `0.10.2`).

    Without `clamp`, a minor with no catalogue (before 0.6, which had no `--config`, or
    newer than the newest generated) gives None; with it, the closest end is used.
    """
    wanted = minor_of(version)
    releases = available_versions()
    if wanted is None or not releases:
        return None
    by_minor = {minor_of(r): r for r in releases}
    if wanted in by_minor:
        return by_minor[wanted]
    if not clamp:
        return None
    oldest, newest = releases[0], releases[-1]
    return oldest if wanted < (minor_of(oldest) or (0, 0)) else newest


#: The newest generated release: what a file is checked against when nothing says otherwise.
DEFAULT_VERSION = available_versions()[-1] if available_versions() else "0.33.0"


@dataclass(frozen=True)
class FlagSpec:
    """One argparse option of `vllm serve`, as `_compute_kwargs`/`add_cli_args` built it."""

    name: str  # dash spelling, no leading dashes
    options: tuple[str, ...]
    dest: str
    field: str | None
    action: str
    nargs: str | int | None
    parse: str
    optional: bool
    choices: tuple[Any, ...] | None
    suggested: tuple[Any, ...] | None
    default: Any
    help: str
    deprecated: str | None
    negatives: tuple[str, ...]
    source: str | None
    validates_as: str | None
    positional: bool
    #: The `type=` function's source text where vLLM wrote its own (`parse == "custom"`).
    parse_source: str | None = None
    #: `Class.parameter` of each config class EngineArgs builds with this flag's value
    #: (`--shutdown-timeout` → `VllmConfig.shutdown_timeout`): pydantic validates it there.
    passed_to: tuple[str, ...] = ()
    #: Choices computed from the platform (`choices_dynamic`, `suggested` holding the static
    #: part): the device type of every platform in the wheel, one of which is the running one.
    platform_choices: tuple[Any, ...] | None = None
    #: vLLM's `parse_type` wraps the `type=` callable and words its errors ("Value X cannot
    #: be converted to …"); a bare `json.loads` gets argparse's "invalid loads value: 'X'".
    wrapped: bool = True

    @property
    def takes_value(self) -> bool:
        return self.action not in ("store_true", "store_false", "store_const", "boolean_optional")

    @property
    def dataclass_name(self) -> str | None:
        """Class validated at parse time (`dataclass:X`) or later (`validates_as`)."""
        if self.parse.startswith("dataclass:"):
            return self.parse.split(":", 1)[1]
        return self.validates_as

    @property
    def is_json(self) -> bool:
        return self.parse in ("json", "dict_or_str") or self.parse.startswith("dataclass:")


@dataclass(frozen=True)
class FieldSpec:
    name: str
    annotation: str
    type: dict[str, Any]
    default: Any
    required: bool
    init: bool
    constraints: dict[str, Any]
    doc: str
    source: str | None
    #: A `mode="before"` validator reshapes the input first (vLLM accepts e.g. enum names
    #: in any case), so the declared type says little about what the file may hold.
    before_validator: str | None = None
    #: A `mode="wrap"` validator returns None unvalidated (vLLM's `_skip_none_validation`,
    #: for fields `__post_init__` fills in): null passes whatever the declared type.
    none_validator: str | None = None
    #: What the before validator hands on unchanged: `{"unless": [type names]}` (inputs of
    #: other types reach the declared type as they are), `"str"`: a lambda that reshapes
    #: strings first. None: unknown, strings are left alone.
    before_passes: dict[str, Any] | None = None

    @property
    def before_keeps_text(self) -> bool:
        """The before validator hands a text on untouched (it reshapes other inputs, or only
        raises): the declared type judges a text as written."""
        passes = self.before_passes
        return passes is not None and "str" not in (passes.get("unless") or ())


@dataclass(frozen=True)
class ClassSpec:
    name: str
    source: str | None
    doc: str
    #: pydantic's `extra` for the release: `forbid` (an unknown key stops the start),
    #: `ignore` (it is dropped silently) or `allow` (it is kept).
    extra: str
    fields: dict[str, FieldSpec]


@dataclass(frozen=True)
class ValueSet:
    """Built-in values vLLM checks by hand (`x-vllm.value_sets`). `open`: plugins can add
    members at runtime (a `register_*` hook), so a value outside `values` may still work."""

    name: str
    values: tuple[Any, ...]
    source: str | None
    open: bool

    def __contains__(self, value: object) -> bool:
        return value in self.values


@dataclass(frozen=True)
class CheckSite:
    """One check an imperative rule transcribes, as it stands in this release
    (`x-vllm.checks`): its `file:line` here, and its message where this release's words
    differ from those of the release the rule transcribes (`{expression}` for a value)."""

    source: str
    message: str | None


class Catalogue:
    """Everything the engine knows about one vLLM release."""

    def __init__(self, version: str, data: dict[str, Any]) -> None:
        self.version = version
        self._data = data

    @cached_property
    def loader(self) -> LoaderSpec:
        raw = self._data.get("loader") or {}
        default = LoaderSpec()
        return LoaderSpec(
            list=raw.get("list", default.list),
            dict=raw.get("dict", default.dict),
            dotted_keys=bool(raw.get("dotted_keys", default.dotted_keys)),
            key_fold=raw.get("key_fold", default.key_fold),
            dotted_human_numbers=bool(
                raw.get("dotted_human_numbers", default.dotted_human_numbers)
            ),
            dotted_append=bool(raw.get("dotted_append", default.dotted_append)),
            json_human_numbers=bool(raw.get("json_human_numbers", default.json_human_numbers)),
            o_level=raw.get("o_level", default.o_level),
            o_dotted=raw.get("o_dotted", default.o_dotted),
            source=raw.get("source"),
        )

    @cached_property
    def flags(self) -> dict[str, FlagSpec]:
        return self.flag_specs(self._data["flags"])

    @staticmethod
    def flag_specs(raws: dict[str, Any]) -> dict[str, FlagSpec]:
        """name → FlagSpec of raw catalogue entries (vLLM's, or a plugin's serve flags)."""
        out: dict[str, FlagSpec] = {}
        for name, raw in raws.items():
            out[name] = FlagSpec(
                name=name,
                options=tuple(raw.get("options") or ()),
                dest=raw.get("dest") or name.replace("-", "_"),
                field=raw.get("field"),
                action=raw.get("action") or "store",
                nargs=raw.get("nargs"),
                parse=raw.get("parse") or "str",
                optional=bool(raw.get("optional")),
                choices=tuple(raw["choices"]) if raw.get("choices") is not None else None,
                suggested=tuple(raw["suggested"]) if raw.get("suggested") else None,
                default=raw.get("default"),
                help=raw.get("help") or "",
                deprecated=raw.get("deprecated"),
                negatives=tuple(raw.get("negatives") or ()),
                source=raw.get("source"),
                validates_as=raw.get("validates_as"),
                positional=bool(raw.get("positional")),
                parse_source=raw.get("parse_source"),
                passed_to=tuple(raw.get("passed_to") or ()),
                platform_choices=(
                    tuple(raw["platform_choices"]) if raw.get("platform_choices") else None
                ),
                wrapped=raw.get("wrapped", True) is not False,
            )
        return out

    @cached_property
    def flags_by_class(self) -> dict[str, tuple[FlagSpec, ...]]:
        """`dataclass_name` → the flags validated as that class, in catalogue order
        (`ConfigModel.setting` runs for many rules on every keystroke)."""
        out: dict[str, list[FlagSpec]] = {}
        for spec in self.flags.values():
            name = spec.dataclass_name
            if name is not None:
                out.setdefault(name, []).append(spec)
        return {name: tuple(specs) for name, specs in out.items()}

    @cached_property
    def flags_by_field(self) -> dict[str, tuple[FlagSpec, ...]]:
        """`Class.field` → the plain flags filling it, in catalogue order."""
        out: dict[str, list[FlagSpec]] = {}
        for spec in self.flags.values():
            if spec.field is not None:
                out.setdefault(spec.field, []).append(spec)
        return {name: tuple(specs) for name, specs in out.items()}

    @cached_property
    def option_index(self) -> dict[str, FlagSpec]:
        """Every option string (incl. negatives like `--no-x`) → the flag it belongs to."""
        index: dict[str, FlagSpec] = {}
        for spec in self.flags.values():
            if spec.positional:
                continue
            for option in (*spec.options, *spec.negatives):
                index[option] = spec
        return index

    @cached_property
    def classes(self) -> dict[str, ClassSpec]:
        out: dict[str, ClassSpec] = {}
        for name, raw in self._data["classes"].items():
            fields = {
                fname: FieldSpec(
                    name=fname,
                    annotation=f.get("annotation") or "",
                    type=f.get("type") or {"kind": "unknown", "text": ""},
                    default=f.get("default"),
                    required=bool(f.get("required")),
                    init=f.get("init", True) is not False,
                    constraints=f.get("constraints") or {},
                    doc=f.get("doc") or "",
                    source=f.get("source"),
                    before_validator=f.get("before_validator"),
                    none_validator=f.get("none_validator"),
                    before_passes=f.get("before_passes"),
                )
                for fname, f in raw.get("fields", {}).items()
            }
            out[name] = ClassSpec(
                name=name,
                source=raw.get("source"),
                doc=raw.get("doc") or "",
                extra=raw.get("extra") or "forbid",
                fields=fields,
            )
        return out

    @cached_property
    def enums(self) -> dict[str, dict[str, Any]]:
        return {name: dict(raw.get("members") or {}) for name, raw in self._data["enums"].items()}

    @cached_property
    def value_sets(self) -> dict[str, ValueSet]:
        """name → `ValueSet` (empty for schemas generated before value sets existed)."""
        return {
            name: ValueSet(
                name=name,
                values=tuple(raw.get("values") or ()),
                source=raw.get("source"),
                open=bool(raw.get("open")),
            )
            for name, raw in (self._data.get("value_sets") or {}).items()
        }

    @cached_property
    def checks(self) -> dict[str, dict[str, CheckSite]]:
        """Rule code → {a `file:line` the rule cites → that check here}: only the rules with
        checks this release has (none for schemas generated before checks were read)."""
        return {
            code: {
                cited: CheckSite(raw["source"], raw.get("message")) for cited, raw in sites.items()
            }
            for code, sites in (self._data.get("checks") or {}).items()
        }


@cache
def _shared_definitions() -> schema_store.Shared:
    with (schema_dir() / "shared-definitions.json").open(encoding="utf-8") as handle:
        data: schema_store.Shared = json.load(handle)
    return data


def load_catalogue(version: str = DEFAULT_VERSION) -> Catalogue:
    """The catalogue of `version`; a patch or minor spelling (`0.10.1`, `0.10`) loads the
    generated release of that minor (`versions.nearest_release`)."""
    if version not in available_versions():
        mapped = nearest_release(version)
        if mapped is None:
            raise ValueError(f"no catalogue for vLLM {version!r}")
        version = mapped
    return _load(version)


#: The newest release's catalogue joined with its shared definitions, pre-built
#: (`tools/generate_prebuilt_catalogue.py`): parsing all of `shared-definitions.json` for it
#: was most of a first check's JSON reading (1.9 MB for every release's definitions; the
#: joined release is 0.6 MB and reads in a fifth of the time).
PREBUILT_FILE = "prebuilt-catalogue.json"


def prebuilt_inputs(version: str) -> list[int]:
    """What the pre-built catalogue was joined from, as the sizes of its two input files:
    a file that does not match them is not used (tests/vllm/test_prebuilt_catalogue.py
    checks the committed one is exactly the join)."""
    folder = schema_dir()
    return [
        catalogue_path(version).stat().st_size,
        (folder / "shared-definitions.json").stat().st_size,
    ]


def _prebuilt(version: str) -> dict[str, Any] | None:
    try:
        with (schema_dir() / PREBUILT_FILE).open(encoding="utf-8") as handle:
            built = json.load(handle)
        if built.get("version") != version or built.get("inputs") != prebuilt_inputs(version):
            return None
    except (OSError, ValueError, AttributeError):
        return None
    data: dict[str, Any] = built["x-vllm"]
    return data


def joined(version: str) -> dict[str, Any]:
    """The release's `x-vllm` object from its entry and the shared definitions."""
    with catalogue_path(version).open(encoding="utf-8") as handle:
        entry = json.load(handle)
    return schema_store.join(entry, _shared_definitions())


@cache
def _load(version: str) -> Catalogue:
    data = _prebuilt(version) if version == DEFAULT_VERSION else None
    return Catalogue(version, data if data is not None else joined(version))


class DetectionNames(frozenset[str]):
    """The default release's flag names and boolean negatives (what iterating gives, and
    what unique prefixes are told against), where `in` also knows every other release's
    flag names: a config written for an older release (`swap-space`, `rope-scaling`,
    `task`) is still a config. The other releases' catalogues (about 30 ms to read) are
    read only when a name is not the default release's."""

    def __contains__(self, name: object) -> bool:
        return frozenset.__contains__(self, name) or name in _every_release_flag_names()


@cache
def _every_release_flag_names() -> frozenset[str]:
    names: set[str] = set()
    for version in available_versions():
        with catalogue_path(version).open(encoding="utf-8") as handle:
            names.update(json.load(handle)["flags"])  # keyed by flag name
    # the positional (`model_tag`) and `--help`, `--version` are no settings
    return frozenset(name for name in names if len(name) > 2 and "_" not in name) - {"help"}


@cache
def detection_flag_names() -> frozenset[str]:
    """Flag names and boolean negatives of the default release, for recognising a config by
    its keys (`DetectionNames`: membership also knows the other releases' names); names
    barely change between releases, and detection must not depend on which version a file
    will be checked with."""
    catalogue = load_catalogue()
    names = set()
    for spec in catalogue.flags.values():
        if spec.positional or spec.action in ("help", "version"):
            continue
        names.add(spec.name)
        names.update(option.lstrip("-") for option in (*spec.options, *spec.negatives))
    return DetectionNames(name for name in names if len(name) > 2)
