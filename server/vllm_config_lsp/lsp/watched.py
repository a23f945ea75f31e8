"""The files a document's vLLM release is read from (image tags beside it, the installed
vLLM's METADATA: `versions.WATCHED_GLOBS`) and the project settings files
(`project_settings.GLOBS`), watched through the client: when one changes,
the documents whose choice it may alter are checked again, as `check` would read them now.

Clients that can (VS Code, Emacs) are asked to watch with dynamic registration of
`workspace/didChangeWatchedFiles`; a saved document counts as a change too (Neovim cannot
be asked; saves of the open manifest are what it reports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.server import VllmConfigServer

REGISTRATION_ID = "vllm-config-release-files"


async def watch_release_files(ls: VllmConfigServer) -> None:
    from vllm_config_lsp.lsp.project_settings import GLOBS
    from vllm_config_lsp.vllm.versions import WATCHED_GLOBS

    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace else None
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in (*WATCHED_GLOBS, *GLOBS)]
    )
    registration = types.Registration(
        id=REGISTRATION_ID,
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=options,
    )
    try:
        await ls.client_register_capability_async(
            types.RegistrationParams(registrations=[registration])
        )
    except Exception as error:  # the release is then read again only on restart or save
        ls.log(f"watching the release files failed: {error}", types.MessageType.Warning)


async def release_files_changed(ls: VllmConfigServer, uris: list[str]) -> None:
    from vllm_config_lsp.lsp.project_settings import documents_below
    from vllm_config_lsp.lsp.server import _fs_path

    changed = [path for uri in uris if (path := _fs_path(uri)) is not None]
    if changed:
        stale = await ls.run_on_lint_thread(ls.forget_releases, changed)
        # a project settings file: read again on the next check (`project.settings_for`)
        below = documents_below(ls, changed)
        ls.recheck([*stale, *(uri for uri in below if uri not in stale)])
