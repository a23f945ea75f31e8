"""Project settings, discovered like ruff's: the nearest settings file above a checked file.

In each folder from the file's own upwards, the first of `vllm-config.toml`,
`.vllm-config.toml` and a `pyproject.toml` with a `[tool.vllm-config]` table is the one
that applies (the nearest wins; files are not merged). The keys:

* `select`, `ignore`, `extend-select`: rule codes or prefixes (`VC1`, `VC301`);
* `per-file-ignores`: `{"glob" = ["VC104"]}`, globs relative to the settings file's folder
  (a glob without `/` matches the file name);
* `vllm-version`, `gpu`, `gpus`, `fail-on`: as the CLI options of the same name;
* `model-dirs`: folders where model checkpoints are looked up, relative to the file;
* `plugins`: the vLLM plugins the deployment loads (`VLLM_PLUGINS`). A catalogued platform
  plugin (`vllm-ascend`, `vllm-ascend@0.23.0`, `tpu-inference`: `vllm.plugins`) is checked
  with what it registers; any other can register tool and reasoning parsers, quantization
  methods, attention backends, KV connectors and config formats, so with one the checks
  that such a name is one of vLLM's own are off;
* `exclude`, `include`: globs of files a directory walk leaves out / takes in besides the
  ones it recognises.

The CLI and the language server read the same files through `settings_for`; a file is read
again when it changes (size or modification time). Command-line options and editor
settings given explicitly override the file. Unknown keys and bad values are `Problem`s with
the file and line, and are left out of what applies.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Any

from vllm_config_lsp.sources.association import glob_matches
from vllm_config_lsp.vllm.plugins import is_catalogued

#: Looked for in each folder, in this order (ruff: `.ruff.toml`, `ruff.toml`, `pyproject.toml`).
FILE_NAMES = ("vllm-config.toml", ".vllm-config.toml", "pyproject.toml")
TABLE = "tool.vllm-config"
SEVERITIES = ("error", "warning", "info")
#: The checks that a name is one of vLLM's built-in ones (a plugin may register more):
#: quantization (VC303), KV cache dtype (VC310), KV connector (VC361), config format
#: (VC352), reasoning parser (VC385, VC506), attention backend (VC410), tool parser (VC505).
PLUGIN_NAME_CHECKS = ("VC303", "VC310", "VC352", "VC361", "VC385", "VC410", "VC505", "VC506")

_CODE = re.compile(r"[A-Z]+[0-9]*")
_MAX_BYTES = 1_000_000


@dataclass(frozen=True)
class Problem:
    """An unknown key or a bad value, where it is written (1-based line)."""

    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


@dataclass(frozen=True)
class ProjectSettings:
    """What one settings file says (an empty one when none applies: `source` None)."""

    source: Path | None = None
    #: Each valid key's value, as written in TOML (lists as tuples).
    values: dict[str, Any] = field(default_factory=dict)
    #: The line each key is written on.
    lines: dict[str, int] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()

    @property
    def folder(self) -> Path | None:
        return None if self.source is None else self.source.parent

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def where(self, key: str) -> str:
        """`FILE:LINE` of a key (for `--show-settings`)."""
        return f"{self.source}:{self.lines.get(key, 1)}"

    def _relative(self, path: Path) -> str | None:
        folder = self.folder
        if folder is None:
            return None
        try:
            return path.resolve().relative_to(folder.resolve()).as_posix()
        except (ValueError, OSError):
            return None

    def per_file_ignores(self, path: Path) -> list[tuple[str, tuple[str, ...]]]:
        """The `per-file-ignores` entries that match `path`."""
        relative = self._relative(path)
        table: dict[str, tuple[str, ...]] = self.values.get("per-file-ignores") or {}
        if relative is None:
            return []
        return [(glob, codes) for glob, codes in table.items() if glob_matches(glob, relative)]

    def ignored(self, path: Path) -> set[str]:
        """`ignore`, the matching `per-file-ignores` and the plugins' name checks."""
        codes = set(self.values.get("ignore") or ())
        for _glob, more in self.per_file_ignores(path):
            codes.update(more)
        if self.uncatalogued_plugins():
            codes.update(PLUGIN_NAME_CHECKS)
        return codes

    def catalogued_plugins(self) -> tuple[str, ...]:
        """The `plugins` entries naming a catalogued platform plugin (checked with its
        catalogue)."""
        return tuple(p for p in self.values.get("plugins") or () if is_catalogued(p))

    def uncatalogued_plugins(self) -> tuple[str, ...]:
        """The other `plugins` entries: what they register is unknown."""
        return tuple(p for p in self.values.get("plugins") or () if not is_catalogued(p))

    def selected(self) -> set[str] | None:
        """`select` with `extend-select` (None: every rule)."""
        select = self.values.get("select")
        if select is None:
            return None
        return {*select, *(self.values.get("extend-select") or ())}

    def _matches(self, key: str, path: Path) -> bool:
        relative = self._relative(path)
        if relative is None:
            return False
        return any(glob_matches(glob, relative) for glob in self.values.get(key) or ())

    def excluded(self, path: Path) -> bool:
        return self._matches("exclude", path)

    def included(self, path: Path) -> bool:
        return self._matches("include", path)

    def model_dirs(self) -> tuple[Path, ...]:
        folder = self.folder
        if folder is None:
            return ()
        return tuple(
            (folder / Path(written).expanduser()) for written in self.values.get("model-dirs", ())
        )


#: Parsed settings files by path, with the (size, mtime) they were read at.
_READ: dict[Path, tuple[tuple[int, int], ProjectSettings | None]] = {}


def settings_for(path: Path, memo: dict[Path, ProjectSettings] | None = None) -> ProjectSettings:
    """The settings of the nearest settings file above `path` (a file or a folder); none
    when the path cannot be looked at (too long, a NUL, a link loop): never raises. `memo`
    (one directory walk's) remembers each folder's answer: a walk asks for every folder of
    a deep tree, and each question would otherwise climb to the root again."""
    try:
        given = path if path.is_dir() else path.parent
        if memo is not None and given in memo:
            return memo[given]
        above = None if memo is None else memo.get(given.parent)
        if above is not None and not given.is_symlink():  # one step below a known folder
            found = _own(given) or above
        else:
            start = path.resolve()
            found = _nearest(start if start.is_dir() else start.parent, memo)
    except (OSError, ValueError, RuntimeError):
        return ProjectSettings()
    if memo is not None:
        memo[given] = found
    return found


def _nearest(folder: Path, memo: dict[Path, ProjectSettings] | None) -> ProjectSettings:
    climbed: list[Path] = []
    found = ProjectSettings()
    candidate = folder
    while True:
        if memo is not None and candidate in memo:
            found = memo[candidate]
            break
        climbed.append(candidate)
        read = _own(candidate)
        if read is not None or candidate.parent == candidate:
            found = read or found
            break
        candidate = candidate.parent
    if memo is not None:
        memo.update(dict.fromkeys(climbed, found))
    return found


def _own(folder: Path) -> ProjectSettings | None:
    """The settings of the settings file in `folder` itself, if it holds one."""
    return next((s for name in FILE_NAMES if (s := _read(folder / name)) is not None), None)


def _read(path: Path) -> ProjectSettings | None:
    """The settings `path` holds; None when there is no such file, or when it is a
    `pyproject.toml` without a `[tool.vllm-config]` table."""
    try:
        stat = path.stat()
    except (OSError, ValueError):
        return None
    if not S_ISREG(stat.st_mode):
        return None
    stamp = (stat.st_size, stat.st_mtime_ns)
    cached = _READ.get(path)
    if cached is not None and cached[0] == stamp:
        return cached[1]
    settings = _parse(path)
    _READ[path] = (stamp, settings)
    return settings


def _parse(path: Path) -> ProjectSettings | None:
    from vllm_config_lsp.sources.safe_read import read_capped

    if sys.version_info >= (3, 11):  # here: a file without a settings file reads no TOML
        import tomllib
    else:  # pragma: no cover - Python 3.10
        import tomli as tomllib
    pyproject = path.name == "pyproject.toml"
    try:
        text = read_capped(path, _MAX_BYTES).decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        if pyproject:
            return None
        return ProjectSettings(path, problems=(Problem(path, 1, f"cannot read: {error}"),))
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        if pyproject and "vllm-config" not in text:
            return None
        at = re.search(r"line (\d+)", str(error))
        line = int(at.group(1)) if at else 1
        return ProjectSettings(path, problems=(Problem(path, line, f"invalid TOML: {error}"),))
    if pyproject:
        table = document.get("tool", {}).get("vllm-config")
        if table is None:
            return None
        prefix = TABLE
    else:
        table, prefix = document, ""
    lines = _Lines(text, prefix)
    if not isinstance(table, dict):
        return ProjectSettings(path, problems=(Problem(path, lines.of(""), "not a table"),))
    return _validate(path, table, lines)


class _Lines:
    """Where a key of the settings table is written (TOML parsers keep no positions):
    its `key =` line or `[table.key]` header, else the table's header, else line 1."""

    def __init__(self, text: str, prefix: str) -> None:
        self.lines = text.splitlines()
        self.prefix = prefix

    def _header(self, name: str) -> int | None:
        wanted = re.compile(r"\s*\[\s*" + r"\s*\.\s*".join(map(_key_pattern, name.split("."))))
        for number, line in enumerate(self.lines, 1):
            if wanted.match(line) and line.strip().endswith("]"):
                return number
        return None

    def of(self, key: str) -> int:
        table = self._header(self.prefix) if self.prefix else 1
        if not key:
            return table or 1
        own = self._header(f"{self.prefix}.{key}" if self.prefix else key)
        if own is not None:
            return own
        assignment = re.compile(r"\s*" + _key_pattern(key) + r"\s*=")
        for number, line in enumerate(self.lines[(table or 1) - 1 :], table or 1):
            if assignment.match(line):
                return number
        return table or 1


def _key_pattern(key: str) -> str:
    return "(?:" + "|".join((re.escape(key), f'"{re.escape(key)}"', f"'{re.escape(key)}'")) + ")"


def _validate(path: Path, table: dict[str, Any], lines: _Lines) -> ProjectSettings:
    values: dict[str, Any] = {}
    at: dict[str, int] = {}
    problems: list[Problem] = []
    for key, value in table.items():
        line = lines.of(key)
        check = _CHECKS.get(key)
        if check is None:
            close = _close(key)
            hint = f" (did you mean {close!r}?)" if close else ""
            problems.append(
                Problem(path, line, f"unknown key {key!r}{hint}; known: {', '.join(_CHECKS)}")
            )
            continue
        checked, error = check(value)
        if error is not None:
            problems.append(Problem(path, line, f"{key}: {error}"))
            continue
        values[key], at[key] = checked, line
    return ProjectSettings(path, values, at, tuple(problems))


def _close(key: str) -> str | None:
    import difflib

    found = difflib.get_close_matches(key, list(_CHECKS), n=1)
    return found[0] if found else None


def _strings(value: Any) -> tuple[tuple[str, ...] | None, str | None]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        return None, f"expected a list of strings, got {value!r}"
    return tuple(value), None


def _codes(value: Any) -> tuple[tuple[str, ...] | None, str | None]:
    from vllm_config_lsp.rules import all_rules

    listed, error = _strings(value)
    if listed is None:
        return None, error
    known = [rule.code for rule in all_rules()]
    codes = []
    for written in listed:
        code = written.strip().upper()
        if not _CODE.fullmatch(code) or not any(k.startswith(code) for k in known):
            return None, f"{written!r} is no rule code or prefix of one (e.g. 'VC104', 'VC3')"
        codes.append(code)
    return tuple(codes), None


def _per_file(value: Any) -> tuple[dict[str, tuple[str, ...]] | None, str | None]:
    if not isinstance(value, dict):
        return None, 'expected a table of globs to codes, e.g. {"deploy/*.yaml" = ["VC104"]}'
    out = {}
    for glob, codes in value.items():
        checked, error = _codes(codes)
        if checked is None:
            return None, f"{glob!r}: {error}"
        out[glob] = checked
    return out, None


def _version(value: Any) -> tuple[str | None, str | None]:
    from vllm_config_lsp.vllm.catalogue import available_versions, nearest_release

    if not isinstance(value, str) or nearest_release(value) is None:
        known = ", ".join(available_versions())
        return None, f"unknown vLLM version {value!r}; known: {known} (any patch of these)"
    return value, None


def _gpu(value: Any) -> tuple[str | None, str | None]:
    from vllm_config_lsp.vllm.hardware import find_gpu, suggestions

    if not isinstance(value, str) or find_gpu(value) is None:
        close = suggestions(value) if isinstance(value, str) else []
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        return None, f"unknown GPU {value!r}{hint}"
    return value, None


def _gpus(value: Any) -> tuple[int | None, str | None]:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        return None, f"expected a positive number of GPUs, got {value!r}"
    return value, None


def _severity(value: Any) -> tuple[str | None, str | None]:
    if value not in SEVERITIES:
        return None, f"expected one of {', '.join(SEVERITIES)}, got {value!r}"
    return str(value), None


_CHECKS: dict[str, Any] = {
    "select": _codes,
    "ignore": _codes,
    "extend-select": _codes,
    "per-file-ignores": _per_file,
    "vllm-version": _version,
    "gpu": _gpu,
    "gpus": _gpus,
    "plugins": _strings,
    "model-dirs": _strings,
    "fail-on": _severity,
    "exclude": _strings,
    "include": _strings,
}
