"""The files a document's vLLM release is read from (image tags beside it, the installed
vLLM's METADATA: `versions.WATCHED_GLOBS`) and the `.env` file a compose file interpolates
from, watched through the client: when one changes, the documents whose choice or command
lines it may alter are checked again, as `check` would read them now.

Clients that can (VS Code, Emacs) are asked to watch with dynamic registration of
`workspace/didChangeWatchedFiles`; a saved document counts as a change too (Neovim cannot
be asked; saves of the open manifest are what it reports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from vllm_config_lsp.lsp.session import Session

REGISTRATION_ID = "vllm-config-release-files"


async def watch_release_files(session: Session) -> None:
    from vllm_config_lsp.engine import RELEASE_FILES
    from vllm_config_lsp.lsp.project_settings import GLOBS

    workspace = session.capabilities.workspace
    watched = workspace.did_change_watched_files if workspace else None
    if not (watched and watched.dynamic_registration):
        return
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in (*RELEASE_FILES, *GLOBS)]
    )
    registration = types.Registration(
        id=REGISTRATION_ID,
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=options,
    )
    try:
        await session.server.client_register_capability_async(
            types.RegistrationParams(registrations=[registration])
        )
    except Exception as error:  # the release is then read again only on restart or save
        session.log(f"watching the release files failed: {error}", types.MessageType.Warning)


async def release_files_changed(session: Session, uris: list[str]) -> None:
    from vllm_config_lsp.lsp.project_settings import below
    from vllm_config_lsp.lsp.session import fs_path

    changed = [path for uri in uris if (path := fs_path(uri)) is not None]
    if changed:
        stale = await session.run_on_lint_thread(session.forget_releases, changed)
        # a project settings file: read again on the next check (`project.settings_for`)
        open_paths = {uri: path for uri in session.open_uris() if (path := fs_path(uri))}
        settings = below(open_paths, changed)
        session.recheck([*stale, *(uri for uri in settings if uri not in stale)])
