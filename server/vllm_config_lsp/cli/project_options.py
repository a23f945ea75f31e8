"""`check`'s options for one file: the command line over the project settings file
(`project.settings_for`) over the defaults, each with where it came from
(`check --show-settings FILE` prints them)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

from vllm_config_lsp.project import ProjectSettings, settings_for
from vllm_config_lsp.vllm.hardware import Stated

DEFAULT = "default"


@dataclass
class FileOptions:
    """What applies to one checked file, and where each value comes from."""

    settings: ProjectSettings
    select: set[str] | None = None
    ignore: set[str] | None = None
    vllm_version: str | None = None
    fail_on: str = "error"
    target: Stated | None = None
    model_dirs: tuple[Path, ...] = ()
    #: The catalogued platform plugins the settings name (`engine.CheckOptions.plugins`).
    plugins: tuple[str, ...] = ()
    origins: dict[str, str] = field(default_factory=dict)


def options_for(path: Path, args: argparse.Namespace, target: Stated | None) -> FileOptions:
    """The options of `path`: what `args` gives explicitly wins, then the settings file.
    `target` is the `--gpu`/`--gpus` target, already checked."""
    settings = settings_for(path)
    given = FileOptions(settings)
    origins = given.origins

    def origin(key: str, option: str, from_cli: bool) -> str:
        if from_cli:
            return option
        if key in settings.values:
            return settings.where(key)
        return DEFAULT

    file_select = settings.selected()
    given.select = args.select if args.select is not None else file_select
    origins["select"] = origin("select", "--select", args.select is not None)
    ignored = set(args.ignore) if args.ignore is not None else set(settings.get("ignore") or ())
    origins["ignore"] = origin("ignore", "--ignore", args.ignore is not None)
    per_file = settings.per_file_ignores(path)
    for glob, codes in per_file:
        ignored.update(codes)
        origins[f"per-file-ignores {glob!r}"] = settings.where("per-file-ignores")
    if settings.get("plugins"):
        from vllm_config_lsp.project import PLUGIN_NAME_CHECKS

        if settings.uncatalogued_plugins():
            ignored.update(PLUGIN_NAME_CHECKS)
        given.plugins = settings.catalogued_plugins()
        origins["plugins"] = settings.where("plugins")
    given.ignore = ignored or None
    given.vllm_version = args.vllm_version or settings.get("vllm-version")
    origins["vllm-version"] = origin("vllm-version", "--vllm-version", bool(args.vllm_version))
    given.fail_on = args.fail_on or settings.get("fail-on") or "error"
    origins["fail-on"] = origin("fail-on", "--fail-on", args.fail_on is not None)
    gpu = target.gpu if target is not None and target.gpu is not None else settings.get("gpu")
    count = target.count if target is not None and target.count is not None else None
    count = count if count is not None else settings.get("gpus")
    gpu_origin = origin("gpu", "--gpu", target is not None and target.gpu is not None)
    count_origin = origin("gpus", "--gpus", target is not None and target.count is not None)
    origins["gpu"], origins["gpus"] = gpu_origin, count_origin
    if gpu is not None or count is not None:
        given.target = Stated(gpu, count, gpu_origin, count_origin)
    given.model_dirs = settings.model_dirs()
    origins["model-dirs"] = origin("model-dirs", "", False)
    for key in ("exclude", "include"):
        origins[key] = origin(key, "", False)
    return given


def show_settings(path: Path, options: FileOptions) -> str:
    """`check --show-settings FILE`: each option with its value and where it came from."""
    settings = options.settings
    source = settings.source
    lines = [f"settings for {path}", f"  settings file: {source if source else 'none found'}"]
    if source is not None and source.name == "pyproject.toml":
        lines[-1] += " [tool.vllm-config]"
    values: dict[str, object] = {
        "select": sorted(options.select) if options.select is not None else "every rule",
        "ignore": sorted(settings.get("ignore") or ())
        if options.origins["ignore"] != "--ignore"
        else sorted(options.ignore or ()),
        "vllm-version": options.vllm_version or "the file's own choice (marker, venv, image)",
        "fail-on": options.fail_on,
        "gpu": options.target.gpu if options.target and options.target.gpu else None,
        "gpus": options.target.count if options.target and options.target.count else None,
        "model-dirs": [str(folder) for folder in options.model_dirs],
        "exclude": list(settings.get("exclude") or ()),
        "include": list(settings.get("include") or ()),
    }
    for key, value in values.items():
        lines.append(f"  {key} = {_shown(value)}  # {options.origins.get(key, DEFAULT)}")
    for glob, codes in settings.per_file_ignores(path):
        where = options.origins[f"per-file-ignores {glob!r}"]
        lines.append(f"  per-file-ignores {glob!r} = {_shown(list(codes))}  # {where}")
    if "plugins" in options.origins:
        from vllm_config_lsp.project import PLUGIN_NAME_CHECKS

        plugins = list(settings.get("plugins"))
        off = settings.uncatalogued_plugins()
        what = (
            f"name checks off: {', '.join(PLUGIN_NAME_CHECKS)}"
            if off
            else "checked with the plugins' catalogues"
        )
        lines.append(f"  plugins = {_shown(plugins)}  # {options.origins['plugins']}; {what}")
    excluded = settings.excluded(path)
    lines.append(f"  excluded from directory walks: {'yes' if excluded else 'no'}")
    return "\n".join(lines)


def _shown(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return value
    return "[" + ", ".join(map(str, value)) + "]" if isinstance(value, list) else str(value)
