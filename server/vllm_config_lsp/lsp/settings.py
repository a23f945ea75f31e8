"""The server's settings (section `vllmConfig`), read leniently from whatever the client sends.

Clients deliver settings three ways: `initializationOptions` (often wrapped as
`{"vllmConfig": {…}}` or `{"settings": {…}}`), `workspace/configuration` answers, and
`workspace/didChangeConfiguration` payloads (Neovim pushes them, VS Code sends nothing and
expects a pull). A wrong value is reported and replaced by its default: a typo in a setting
must never stop the server from checking.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vllm_config_lsp.vllm.hardware import Stated, find_gpu, suggestions
from vllm_config_lsp.vllm.model_files import expanded_path

SECTION = "vllmConfig"
#: `severityOverrides` values; "off" drops the code's diagnostics.
LEVELS = ("error", "warning", "information", "hint", "off")
#: Longest `debounceMs` taken: a longer wait is no debounce, and `1e400` (infinity) or a
#: 5,000-digit integer would not survive `int()` or the event loop's timer.
MAX_DEBOUNCE_MS = 10_000
#: `associations.globs`/`exclude`: at most this many patterns, each at most this long.
MAX_GLOBS = 100
MAX_GLOB_CHARS = 1000


@dataclass(frozen=True)
class Associations:
    """`associations.globs` (added to the default ones) and `exclude`, and `detection`
    (content detection on or off), as the client sent them: the session hands them to the
    engine as its `AssociationSettings`."""

    globs: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    detection: bool = True


@dataclass(frozen=True)
class Settings:
    #: Any spelling of a release (`0.10`, `v0.11.0rc1`); None or "auto": decided per file.
    vllm_version: str | None = None
    associations: Associations = field(default_factory=Associations)
    #: Milliseconds to wait after a change before checking; None ("auto", the default):
    #: none, unless the document's last check was slow (`lsp.server.auto_delay`).
    debounce_ms: int | None = None
    severity_overrides: Mapping[str, str] = field(default_factory=dict)
    disabled_codes: frozenset[str] = frozenset()
    #: Folders holding models as `DIR/<org>/<name>/config.json` (`model_files.find_folder`),
    #: as written: `~` and relative paths are resolved by the server (`model_folders`).
    model_dirs: tuple[str, ...] = ()
    #: `gpu` / `gpuCount`: the target of files that say nothing of their hardware.
    gpus: Stated | None = None
    #: `plugins`: the platform plugins the deployments load (`vllm-ascend@0.23.0`).
    plugins: tuple[str, ...] = ()

    @property
    def ignored_codes(self) -> set[str]:
        """Codes whose rules do not run at all (so their suppressions are not "unused")."""
        off = {code for code, level in self.severity_overrides.items() if level == "off"}
        return set(self.disabled_codes) | off


def unwrap(raw: Any) -> Any:
    """The `vllmConfig` object inside the common wrappers, or `raw` itself."""
    for _ in range(2):
        if isinstance(raw, Mapping):
            for key in (SECTION, "settings"):
                if isinstance(raw.get(key), Mapping):
                    raw = raw[key]
                    break
    return raw


def parse(raw: Any, problems: list[str]) -> Settings:
    """Settings from a client payload; every value that cannot be used lands in `problems`."""
    raw = unwrap(raw)
    if raw is None:
        return Settings()
    if not isinstance(raw, Mapping):
        problems.append(f"{SECTION}: expected an object, got {type(raw).__name__}")
        return Settings()
    version = raw.get("vllmVersion")
    if version is not None and not isinstance(version, str):
        problems.append("vllmVersion: expected a string like '0.33.0'")
        version = None
    if isinstance(version, str) and version.strip().lower() not in ("", "auto"):
        from vllm_config_lsp.vllm.catalogue import available_versions, nearest_release

        if nearest_release(version) is None:
            known = ", ".join(available_versions())
            problems.append(
                f"vllmVersion: unknown vLLM version {version!r}, ignored; known releases: "
                f"{known} (any patch of these minors)"
            )
            version = None
    assoc = raw.get("associations")
    if assoc is not None and not isinstance(assoc, Mapping):
        problems.append("associations: expected an object with `globs` and `exclude`")
        assoc = None
    assoc = assoc or {}
    detection = raw.get("detection", True)
    if not isinstance(detection, bool):
        problems.append("detection: expected true or false")
        detection = True
    debounce = raw.get("debounceMs")
    if debounce == "auto":
        debounce = None
    elif debounce is not None and (
        isinstance(debounce, bool)
        or not isinstance(debounce, (int, float))
        or not 0 <= debounce <= MAX_DEBOUNCE_MS  # NaN compares false: refused too
    ):
        problems.append(
            f'debounceMs: expected a number of milliseconds from 0 to {MAX_DEBOUNCE_MS}, or "auto"'
        )
        debounce = None
    overrides: dict[str, str] = {}
    raw_overrides = raw.get("severityOverrides") or {}
    if not isinstance(raw_overrides, Mapping):
        problems.append("severityOverrides: expected an object {CODE: level}")
        raw_overrides = {}
    for code, level in raw_overrides.items():
        if not str(code).strip():  # a blank code is a prefix of every code
            problems.append("severityOverrides: a blank code names no rule; dropped")
        elif isinstance(level, str) and level.lower() in LEVELS:
            overrides[str(code).upper()] = level.lower()
        else:
            problems.append(f"severityOverrides.{code}: expected one of {', '.join(LEVELS)}")
    return Settings(
        vllm_version=version or None,
        associations=Associations(
            globs=_globs(assoc.get("globs"), "associations.globs", problems),
            exclude=_globs(assoc.get("exclude"), "associations.exclude", problems),
            detection=detection,
        ),
        debounce_ms=None if debounce is None else int(debounce),
        severity_overrides=overrides,
        disabled_codes=_codes(raw.get("disabledCodes"), problems),
        model_dirs=tuple(
            d.strip() for d in _strings(raw.get("modelDirs"), "modelDirs", problems) if d.strip()
        ),
        gpus=_gpus(raw.get("gpu"), raw.get("gpuCount"), problems),
        plugins=tuple(p.strip() for p in _strings(raw.get("plugins"), "plugins", problems)),
    )


#: More GPUs per node than any machine has: a count beyond it is a typo.
MAX_GPU_COUNT = 1024


def _gpus(name: Any, count: Any, problems: list[str]) -> Stated | None:
    """`gpu` (a name of the GPU table) and `gpuCount`; an unknown name is reported with
    the closest known ones and ignored."""
    if name is not None and not isinstance(name, str):
        problems.append("gpu: expected a GPU name like 'H100-80GB'")
        name = None
    if isinstance(name, str) and name.strip() and find_gpu(name) is None:
        close = suggestions(name)
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        problems.append(f"gpu: unknown GPU {name!r}, ignored{hint}")
        name = None
    if count is not None and (
        isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_GPU_COUNT
    ):
        problems.append(f"gpuCount: expected a number of GPUs from 1 to {MAX_GPU_COUNT}")
        count = None
    name = name.strip() if isinstance(name, str) and name.strip() else None
    if name is None and count is None:
        return None
    return Stated(name, count, "setting vllmConfig.gpu", "setting vllmConfig.gpuCount")


def model_folders(settings: Settings, root: str | None) -> tuple[Path, ...]:
    """`modelDirs` as folders: `~` expanded, relative ones taken from the workspace root."""
    out = []
    for written in settings.model_dirs:
        folder = expanded_path(written)
        if not folder.is_absolute() and root:
            folder = Path(root) / folder
        out.append(folder)
    return tuple(out)


def _globs(value: Any, name: str, problems: list[str]) -> tuple[str, ...]:
    """Glob lists within MAX_GLOBS patterns of MAX_GLOB_CHARS: each document is matched
    against all of them, in time linear in pattern and path (`sources.globs`)."""
    patterns = _strings(value, name, problems)
    kept = tuple(pattern for pattern in patterns if len(pattern) <= MAX_GLOB_CHARS)
    if len(kept) < len(patterns):
        problems.append(f"{name}: patterns longer than {MAX_GLOB_CHARS} characters are ignored")
    if len(kept) > MAX_GLOBS:
        problems.append(f"{name}: only the first {MAX_GLOBS} patterns are used")
    return kept[:MAX_GLOBS]


def _codes(value: Any, problems: list[str]) -> frozenset[str]:
    """`disabledCodes`; a blank entry, a prefix of every code, would disable every rule."""
    codes = [code.strip().upper() for code in _strings(value, "disabledCodes", problems)]
    if not all(codes):
        problems.append("disabledCodes: a blank code names no rule; dropped")
    return frozenset(code for code in codes if code)


def _strings(value: Any, name: str, problems: list[str]) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return tuple(value)
    problems.append(f"{name}: expected a list of strings")
    return ()
