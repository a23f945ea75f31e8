"""When each flag and config field existed, derived from the per-release catalogues.

A key that the chosen release refuses is far easier to fix when the message says *why*:
"removed in vLLM 0.20" (the file was written for an older release) or "added in vLLM 0.31"
(the file was written for a newer one). Both facts come from the generated catalogues of
every minor release (`available_versions`), so they never go stale. What the data cannot
say — what to write instead when the replacement has another shape (`rope-scaling` →
`hf-overrides`) — is the short hand-written `ADVICE` table; a drop-in rename there
(`rename_to`) is what the safe fixes and `migrate` apply.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from vllm_config_lsp.vllm.catalogue import (
    DEFAULT_VERSION,
    available_versions,
    catalogue_path,
    schema_dir,
    version_key,
)
from vllm_config_lsp.vllm.catalogue import _shared_definitions as shared_definitions


@dataclass(frozen=True)
class Advice:
    """What to do about a flag/field that is gone; `rename_to` only for a drop-in rename
    (same value meaning), which may be applied without asking."""

    text: str
    rename_to: str | None = None
    #: The names that together replace it, each taking the same value (a split).
    split_into: tuple[str, ...] = ()

    @property
    def delete(self) -> bool:
        """The advice is to drop the key (its feature is gone): `migrate` may do that."""
        return self.text.endswith("delete it")


@dataclass(frozen=True)
class Change:
    """A flag or field absent from the chosen release but present in another."""

    name: str
    kind: str  # "removed" (older releases had it) | "added" (only newer releases have it)
    release: str  # first release without it ("removed") / with it ("added")
    message: str
    #: A drop-in replacement that exists in the chosen release (safe to apply).
    rename_to: str | None = None
    #: vLLM's own deprecation text from the last release that had it, if any.
    deprecation: str | None = None
    #: The one replacement that deprecation text names, when it exists in the chosen
    #: release; a suggestion only (the value's meaning may differ, e.g. enable/disable).
    suggested: str | None = None
    #: The names that replace it together with the same value, all in the chosen release.
    split_into: tuple[str, ...] = ()


ADVICE: dict[str, Advice] = {
    "swap-space": Advice("CPU swap space for preemption is gone; delete it"),
    "task": Advice(
        "--task is not a vllm serve option. For embedding, reranking, or reward models, "
        "use --runner pooling. To adapt a generative model for pooling, also use "
        "--convert embed, --convert classify, or --convert reward."
    ),
    "rope-scaling": Advice("set it through `hf-overrides: {rope_scaling: …}`"),
    "rope-theta": Advice("set it through `hf-overrides: {rope_theta: …}`"),
    "guided-decoding-backend": Advice("use `structured-outputs-config: {backend: …}`"),
    "cuda-graph-sizes": Advice("use `cudagraph-capture-sizes`", "cudagraph-capture-sizes"),
    "num-scheduler-steps": Advice("multi-step scheduling went with the V0 engine; delete it"),
    "speculative-model": Advice("use `speculative-config: {model: …, num_speculative_tokens: …}`"),
    "num-speculative-tokens": Advice("use `speculative-config: {num_speculative_tokens: …}`"),
    "use-v2-block-manager": Advice("went with the V0 engine; delete it"),
    "enable-reasoning": Advice("setting `reasoning-parser` enables reasoning; delete it"),
    "max-seq-len-to-capture": Advice("CUDA graph sizes are set with `max-cudagraph-capture-size`"),
    "num-redundant-experts": Advice("use `eplb-config: {num_redundant_experts: …}`"),
    "override-pooler-config": Advice("use `pooler-config`", "pooler-config"),
    "disable-mm-preprocessor-cache": Advice("use `mm-processor-cache-gb: 0`"),
    "device": Advice("vLLM detects the platform; delete it"),
    "preemption-mode": Advice("went with the V0 engine; delete it"),
    "CompilationConfig.level": Advice("`level` was renamed `mode`", "mode"),
    "CompilationConfig.use_inductor": Advice("use `backend: eager` or `backend: inductor`"),
    "CompilationConfig.use_cudagraph": Advice("use `cudagraph_mode` (e.g. `NONE`)"),
    "CompilationConfig.full_cuda_graph": Advice("use `cudagraph_mode: FULL_AND_PIECEWISE`"),
    "PassConfig.enable_fusion": Advice(
        "split into `fuse_norm_quant` and `fuse_act_quant`",
        split_into=("fuse_norm_quant", "fuse_act_quant"),
    ),
    "PassConfig.enable_attn_fusion": Advice("renamed `fuse_attn_quant`", "fuse_attn_quant"),
    "PassConfig.enable_noop": Advice("renamed `eliminate_noops`", "eliminate_noops"),
    "PassConfig.enable_fi_allreduce_fusion": Advice(
        "renamed `fuse_allreduce_rms`", "fuse_allreduce_rms"
    ),
    "PassConfig.enable_sequence_parallelism": Advice("renamed `enable_sp`", "enable_sp"),
    "PassConfig.enable_async_tp": Advice("renamed `fuse_gemm_comms`", "fuse_gemm_comms"),
}


@dataclass(frozen=True)
class _Presence:
    releases: frozenset[str]
    #: release → vLLM's deprecation text there (only releases that deprecate it).
    deprecated: dict[str, str]


#: The timeline, pre-built from the catalogues (`tools/generate_flag_history.py`): reading
#: 28 catalogues and the shared definitions took ~30 ms of a first check.
HISTORY_FILE = "flag-history.json"


class _Table:
    """Names → `_Presence`, each made from its pre-built form when first asked for (a check
    asks about a few dozen names of ~2,000)."""

    def __init__(self, releases: list[str], section: dict[str, list[Any]]) -> None:
        self._releases = releases
        self._section = section
        self._made: dict[str, _Presence | None] = {}

    def get(self, name: str) -> _Presence | None:
        try:
            return self._made[name]
        except KeyError:
            pass
        raw = self._section.get(name)
        presence = None
        if raw is not None:
            mask, deprecated = raw
            releases = self._releases
            presence = _Presence(
                frozenset(r for bit, r in enumerate(releases) if mask >> bit & 1),
                {releases[int(index)]: text for index, text in deprecated.items()},
            )
        self._made[name] = presence
        return presence

    def materialised(self) -> dict[str, _Presence]:
        """Every name's presence (tests compare timelines with it)."""
        return {name: presence for name in self._section if (presence := self.get(name))}


@cache
def _timeline() -> tuple[_Table, _Table]:
    """(flag option names without `--`, `Class.field`) → where they exist: the pre-built
    `schemas/flag-history.json` when it was built from the catalogues present (the releases it
    names are those of `available_versions`), else read from the catalogues."""
    try:
        with (schema_dir() / HISTORY_FILE).open(encoding="utf-8") as handle:
            built = json.load(handle)
    except (OSError, ValueError):
        built = None
    if not isinstance(built, dict) or built.get("releases") != available_versions():
        built = history_data()
    releases = built["releases"]
    return _Table(releases, built["flags"]), _Table(releases, built["fields"])


def history_data() -> dict[str, Any]:
    """The timeline in its pre-built form, read from the catalogues: per name, a bit mask of
    the releases (oldest first) that have it and vLLM's deprecation texts by release index.
    Read from the store's entries directly: only names and the deprecation texts are needed,
    so the releases are not materialised as catalogues."""
    shared = shared_definitions()
    releases = available_versions()
    flags: dict[str, tuple[set[str], dict[str, str]]] = {}
    fields: dict[str, tuple[set[str], dict[str, str]]] = {}
    for release in releases:
        with catalogue_path(release).open(encoding="utf-8") as handle:
            entry = json.load(handle)
        for ref in entry["flags"].values():
            spec = shared[ref[0]]
            if spec.get("positional"):
                continue
            for option in [*spec.get("options", ()), *spec.get("negatives", ())]:
                if option.startswith("--"):
                    _mark(flags, option[2:], release, spec.get("deprecated"))
        for class_name, cls in entry["classes"].items():
            for field, ref in cls["fields"].items():
                _mark(fields, f"{class_name}.{field}", release, shared[ref[0]].get("deprecated"))
    index = {release: i for i, release in enumerate(releases)}

    def section(table: dict[str, tuple[set[str], dict[str, str]]]) -> dict[str, list[Any]]:
        return {
            name: [
                sum(1 << index[r] for r in present),
                {str(index[r]): texts[r] for r in sorted(texts, key=index.__getitem__)},
            ]
            for name, (present, texts) in sorted(table.items())
        }

    return {"releases": releases, "flags": section(flags), "fields": section(fields)}


def _mark(
    table: dict[str, tuple[set[str], dict[str, str]]],
    name: str,
    release: str,
    deprecated: str | None,
) -> None:
    releases, texts = table.setdefault(name, (set(), {}))
    releases.add(release)
    if deprecated:
        texts[release] = deprecated


def minor(release: str) -> str:
    """`0.20.2` → `0.20`: one catalogue per minor, so changes are known per minor."""
    return ".".join(release.split(".")[:2])


def _change(name: str, key: str, table: _Table, release: str) -> Change | None:
    """`key` is `name` for flags and `Class.name` for fields; replacements are looked up
    beside it in the same table and must exist in `release`."""
    presence = table.get(key)
    if presence is None or release in presence.releases:
        return None
    prefix = key[: len(key) - len(name)]

    def exists(other: str) -> bool:
        found = table.get(prefix + other)
        return found is not None and release in found.releases

    order = available_versions()
    if release not in order:
        return None
    here = version_key(release)
    earlier = sorted((r for r in presence.releases if version_key(r) < here), key=version_key)
    later = sorted((r for r in presence.releases if version_key(r) > here), key=version_key)
    advice = ADVICE.get(key)
    if earlier:
        last = earlier[-1]
        gone = order[order.index(last) + 1]
        deprecation = presence.deprecated.get(last)
        message = f"removed in vLLM {minor(gone)}"
        if advice is not None:
            message += f"; {advice.text}"
        elif deprecation and deprecation.strip().lower() != "deprecated":
            message += f" (vLLM {minor(last)} said: {deprecation})"
        elif deprecation:
            message += f" (deprecated in {minor(last)}" + (")" if later else ", its last release)")
        elif not later:
            message += f" (last in {minor(last)})"
        if later:  # a key that came back (`disable-log-requests`: gone in 0.17-0.32 only)
            message += f"; vLLM {minor(later[0])} accepts it again"
        rename = advice.rename_to if advice is not None else None
        if rename is not None and not exists(rename):
            rename = None
        split = advice.split_into if advice is not None else ()
        if not all(map(exists, split)):
            split = ()
        suggested = None
        if deprecation and advice is None:
            named = _named(deprecation) - {name}
            alive = {n for n in named if exists(n)}
            suggested = alive.pop() if len(alive) == 1 else None
        return Change(name, "removed", gone, message, rename, deprecation, suggested, split)
    first = later[0]
    message = f"added in vLLM {minor(first)}; this file is checked against vLLM {release}"
    old = _older_name(name, prefix, table, release)
    if old is not None:
        # The key is the new name of one this release has: rename it back (drop-in).
        message = (
            f"added in vLLM {minor(first)} as the new name of `{old}`; this file is checked "
            f"against vLLM {release}, which calls it `{old}`"
        )
    return Change(name, "added", first, message, rename_to=old)


def _older_name(name: str, prefix: str, table: _Table, release: str) -> str | None:
    """The old name of `name` (a drop-in rename in `ADVICE`) when `release` has it."""
    for key, advice in ADVICE.items():
        if advice.rename_to != name or not key.startswith(prefix):
            continue
        old = key[len(prefix) :]
        found = table.get(key)
        if "." not in old and found is not None and release in found.releases:
            return old
    return None


def removed_flag(name: str, release: str = DEFAULT_VERSION) -> Change | None:
    """History of option `--name` relative to `release` (None if it exists there or never
    existed in any generated release)."""
    flags, _ = _timeline()
    return _change(name, name, flags, release)


def removed_field(class_name: str, field: str, release: str = DEFAULT_VERSION) -> Change | None:
    _, fields = _timeline()
    return _change(field, f"{class_name}.{field}", fields, release)


def newer_change_flag(name: str, release: str) -> Change | None:
    """The first removal of `--name` in a release newer than `release` (upgrade hazards)."""
    flags, _ = _timeline()
    return _next_removal(name, name, flags, release)


def newer_change_field(class_name: str, field: str, release: str) -> Change | None:
    _, fields = _timeline()
    return _next_removal(field, f"{class_name}.{field}", fields, release)


def _next_removal(name: str, key: str, table: _Table, release: str) -> Change | None:
    presence = table.get(key)
    if presence is None or release not in presence.releases:
        return None
    here = version_key(release)
    for newer in available_versions():
        if version_key(newer) > here and newer not in presence.releases:
            return _change(name, key, table, newer)
    return None


def refusing_flag(name: str, release: str) -> list[str]:
    """The known releases newer than `release` that refuse `--name`, which `release` has
    (empty otherwise): a key can come back (`disable-log-requests` is gone in 0.17-0.32)."""
    flags, _ = _timeline()
    return _refusing(flags.get(name), release)


def refusing_field(class_name: str, field: str, release: str) -> list[str]:
    _, fields = _timeline()
    return _refusing(fields.get(f"{class_name}.{field}"), release)


def _refusing(presence: _Presence | None, release: str) -> list[str]:
    if presence is None or release not in presence.releases:
        return []
    here = version_key(release)
    return [
        newer
        for newer in available_versions()
        if version_key(newer) > here and newer not in presence.releases
    ]


def release_spans(releases: list[str]) -> str:
    """`["0.17.1", …, "0.32.0"]` → "vLLM 0.17 to 0.32": runs of consecutive known releases
    by minor, the newest known one named as such (later releases are not known yet)."""
    order = available_versions()
    runs: list[list[str]] = []
    for release in sorted(releases, key=order.index):
        if runs and order.index(runs[-1][-1]) + 1 == order.index(release):
            runs[-1].append(release)
        else:
            runs.append([release])
    parts = []
    for run in runs:
        span = minor(run[0]) if len(run) == 1 else f"{minor(run[0])} to {minor(run[-1])}"
        parts.append(span + (" (the newest known)" if run[-1] == order[-1] else ""))
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else "".join(parts)
    return f"vLLM {listed}"


def _named(text: str) -> set[str]:
    """Options (`--x`, without dashes) and identifiers (`` `x` `` or a bare snake_case
    word after "use") that a deprecation text names."""
    found = re.findall(
        r"--([a-z0-9][a-z0-9-]*)|`([A-Za-z_][\w-]*)`|[Uu]se ([a-z_][a-z0-9_]*)", text
    )
    return {a or b or c for a, b, c in found}


@dataclass(frozen=True)
class Rename:
    """An old name the chosen release still accepts although its new name exists there."""

    old: str
    new: str
    since: str  # minor of the first release with the new name
    #: Minor of the first newer release without the old name (None: none known yet).
    removed: str | None
    #: vLLM's deprecation text for the old name in the chosen release, if any.
    deprecation: str | None


def _rename(name: str, key: str, table: _Table, release: str) -> Rename | None:
    advice = ADVICE.get(key)
    if advice is None or advice.rename_to is None:
        return None
    prefix = key[: len(key) - len(name)]
    old, new = table.get(key), table.get(prefix + advice.rename_to)
    if old is None or new is None or release not in old.releases or release not in new.releases:
        return None
    since = min(new.releases, key=version_key)
    removal = _next_removal(name, key, table, release)
    return Rename(
        name,
        advice.rename_to,
        minor(since),
        minor(removal.release) if removal is not None else None,
        old.deprecated.get(release),
    )


def renamed_flag(name: str, release: str) -> Rename | None:
    """`--name` exists in `release` beside the name it was renamed to."""
    flags, _ = _timeline()
    return _rename(name, name, flags, release)


def renamed_field(class_name: str, field: str, release: str) -> Rename | None:
    _, fields = _timeline()
    return _rename(field, f"{class_name}.{field}", fields, release)


def deprecated_field(class_name: str, field: str, release: str) -> str | None:
    """vLLM's `deprecated` text of a config field in `release` (None: not deprecated there)."""
    _, fields = _timeline()
    presence = fields.get(f"{class_name}.{field}")
    return presence.deprecated.get(release) if presence is not None else None


def is_bare(deprecation: str) -> bool:
    """vLLM said only "deprecated" (argparse's `deprecated=True`): no reason, no advice."""
    return deprecation.strip().rstrip(".").lower() == "deprecated"


def named_replacement(deprecation: str, name: str, exists: set[str]) -> str | None:
    """The one name (other than `name`) that a deprecation text points to, if it is in
    `exists`: a suggestion, since the value's meaning may differ."""
    alive = {n for n in _named(deprecation) - {name} if n in exists}
    return alive.pop() if len(alive) == 1 else None


@cache
def _loaders() -> dict[str, dict[str, object]]:
    """release → its `x-vllm.loader` facts, read from the store without joining it."""
    out = {}
    for release in available_versions():
        with catalogue_path(release).open(encoding="utf-8") as handle:
            out[release] = json.load(handle).get("loader") or {}
    return out


def loader_since(fact: str, value: object, release: str) -> str | None:
    """Minor of the first release newer than `release` whose loader has `fact == value`
    (e.g. YAML mappings passed as JSON: `dict == "json"`, from 0.16)."""
    here = version_key(release)
    for newer, facts in _loaders().items():
        if version_key(newer) > here and facts.get(fact) == value:
            return minor(newer)
    return None
