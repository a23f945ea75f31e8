"""The project settings files (`project.py`) in the editor: the same files `check` reads,
under the editor's explicit settings. `vllmVersion`, `gpu`/`gpuCount` given in the editor
win over the file's; the file's `select`, `ignore`, `per-file-ignores` and `plugins` add to
`disabledCodes`; its `model-dirs` come after `modelDirs`; a file it `exclude`s is not
checked. The server watches the settings files (`GLOBS`) and checks the open documents
below a changed one again; each file's problems are shown once per content."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from vllm_config_lsp.project import FILE_NAMES, ProjectSettings, settings_for
from vllm_config_lsp.vllm.hardware import Stated

if TYPE_CHECKING:
    from vllm_config_lsp.engine import CheckOptions

#: What the client is asked to watch, besides the release files.
GLOBS = tuple(f"**/{name}" for name in FILE_NAMES)


def project_of(path: Path | None) -> ProjectSettings:
    """The settings file that applies to `path` (none for an unsaved buffer)."""
    return ProjectSettings() if path is None else settings_for(path)


def new_problems(project: ProjectSettings, shown: set[tuple[str, tuple[str, ...]]]) -> list[str]:
    """The file's problems, the first time this content of it is read (then in `shown`)."""
    if not project.problems:
        return []
    key = (str(project.source), tuple(str(problem) for problem in project.problems))
    if key in shown:
        return []
    shown.add(key)
    return list(key[1])


def with_project(
    options: CheckOptions, project: ProjectSettings, path: Path | None
) -> CheckOptions:
    """The editor's options with the settings file's under them."""
    if project.source is None or path is None:
        return options
    associations = options.associations
    if associations is not None and project.excluded(path):  # an absolute glob: this file
        associations = replace(associations, exclude=(*associations.exclude, path.as_posix()))
    release = options.release or project.get("vllm-version")
    label = options.release_label
    if not options.release and release:
        label = f"vllm-version in {project.where('vllm-version')}"
    ignored = set(options.ignore or ()) | project.ignored(path)
    select = project.selected()
    plugins = (*options.plugins, *project.catalogued_plugins())
    return replace(
        options,
        release=release,
        release_label=label,
        gpus=project_target(project, options.gpus),
        model_dirs=(*options.model_dirs, *project.model_dirs()),
        select=None if select is None else frozenset(select),
        ignore=frozenset(ignored) or None,
        associations=associations,
        plugins=plugins,
    )


def project_target(project: ProjectSettings, stated: Stated | None) -> Stated | None:
    """The editor's `gpu`/`gpuCount`, else the file's `gpu`/`gpus`."""
    gpu, count = project.get("gpu"), project.get("gpus")
    if stated is not None:
        gpu = stated.gpu if stated.gpu is not None else gpu
        count = stated.count if stated.count is not None else count
    if gpu is None and count is None:
        return None
    where = str(project.source)
    origin = stated.origin if stated is not None and stated.gpu is not None else where
    count_origin = stated.count_origin if stated is not None and stated.count else where
    return Stated(gpu, count, origin, count_origin)


def below(open_paths: dict[str, Path], changed: list[Path]) -> list[str]:
    """The open documents (URI → path) a changed settings file may apply to."""
    folders = [path.parent for path in changed if path.name in FILE_NAMES]
    return [
        uri
        for uri, path in open_paths.items()
        if any(path.is_relative_to(folder) for folder in folders)
    ]
