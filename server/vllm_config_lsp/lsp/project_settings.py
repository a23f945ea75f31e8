"""The project settings files (`project.py`) in the editor: the same files `check` reads,
under the editor's explicit settings. `vllmVersion`, `gpu`/`gpuCount` given in the editor
win over the file's; the file's `select`, `ignore`, `per-file-ignores` and `plugins` add to
`disabledCodes`; its `model-dirs` come after `modelDirs`; a file it `exclude`s is not
checked. The server watches the settings files (`GLOBS`) and checks the open documents
below a changed one again; each file's problems are shown once per content."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from vllm_config_lsp.project import FILE_NAMES, ProjectSettings, settings_for
from vllm_config_lsp.vllm.hardware import Stated

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.server import VllmConfigServer

#: What the client is asked to watch, besides the release files.
GLOBS = tuple(f"**/{name}" for name in FILE_NAMES)


def project_of(ls: VllmConfigServer, path: Path | None) -> ProjectSettings:
    """The settings file that applies to `path` (none for an unsaved buffer); its problems
    are shown the first time this content of it is read."""
    if path is None:
        return ProjectSettings()
    project = settings_for(path)
    if project.problems:
        key = (str(project.source), tuple(str(problem) for problem in project.problems))
        if key not in ls.shown_project_problems:
            ls.shown_project_problems.add(key)
            for problem in project.problems:
                ls.log(f"vllm-config settings: {problem}", types.MessageType.Warning)
            listed = "; ".join(str(problem) for problem in project.problems)
            ls.pop_up(types.MessageType.Warning, f"vllm-config settings: {listed}")
    return project


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


def is_settings_file(path: Path) -> bool:
    return path.name in FILE_NAMES


def documents_below(ls: VllmConfigServer, changed: list[Path]) -> list[str]:
    """The open documents a changed settings file may apply to."""
    from vllm_config_lsp.lsp.server import _fs_path

    folders = [path.parent for path in changed if is_settings_file(path)]
    out = []
    for uri in list(ls.workspace.text_documents):
        path = _fs_path(uri)
        if path is not None and any(path.is_relative_to(folder) for folder in folders):
            out.append(uri)
    return out
