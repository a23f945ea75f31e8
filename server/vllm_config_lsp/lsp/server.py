"""The language server: one handler per LSP message, on the connection (`transport`).

Handlers only convert: they take the document's snapshot from the session (`session`:
documents, settings, caches, scheduling) and hand it to a feature, a function of the
snapshot (`diagnostics`, `actions`, `completion`, `hover`, `inlay_hints`, `symbols`, `info`,
`migrate`, `command_lines`, `watched`). No rule logic lives here; what a check prepares is
the engine's (`engine.check`).

Start-up: importing pygls/lsprotocol is most of the cost; the engine (PyYAML, the catalogue,
the rules) is imported lazily and warmed in the background after `initialized`, and the
larger features (completion, hover, symbols, inlay hints) when a request first needs them.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from lsprotocol import types

from vllm_config_lsp import __version__
from vllm_config_lsp.lsp.actions import FIX_ALL_COMMAND, FIX_ALL_REPORT, PULL_MODEL
from vllm_config_lsp.lsp.command_lines import INLINE_CONFIG_KIND, MOVE_TO_CONFIG_KIND, SHOW_COMMAND
from vllm_config_lsp.lsp.diagnostics import FIX_ALL_KIND, RULE_DOCS_URL, diagnostics
from vllm_config_lsp.lsp.info import DOCUMENT_INFO
from vllm_config_lsp.lsp.log_noise import quiet_pygls
from vllm_config_lsp.lsp.migrate import MIGRATE_KIND, MIGRATION_REPORT
from vllm_config_lsp.lsp.session import Snapshot
from vllm_config_lsp.lsp.settings import SECTION
from vllm_config_lsp.lsp.transport import Connection
from vllm_config_lsp.lsp.watched import release_files_changed, watch_release_files


def _diagnose(snapshot: Snapshot) -> list[types.Diagnostic]:
    return diagnostics(snapshot, snapshot.settings)


class VllmConfigServer(Connection):
    """The connection, with the diagnostics feature to publish."""

    def __init__(self) -> None:
        super().__init__(_diagnose)


SERVER = VllmConfigServer()


@SERVER.feature(types.INITIALIZE)
def initialize(ls: VllmConfigServer, params: types.InitializeParams) -> None:
    session = ls.session
    python = f"Python {sys.version.split()[0]} ({sys.executable})"
    session.log(f"vllm-config-lsp {__version__}, {python}")
    session.apply_settings(params.initialization_options, "initializationOptions")
    session.client_name = params.client_info.name if params.client_info else None
    if params.process_id:
        ls.watcher = asyncio.ensure_future(ls.watch_client(params.process_id))


@SERVER.feature(types.SHUTDOWN)
def shutdown(ls: VllmConfigServer, params: None) -> None:
    ls.stop_work()


@SERVER.feature(types.EXIT)
def exit_(ls: VllmConfigServer, params: None) -> None:
    ls.exit_now()


@SERVER.feature(types.INITIALIZED)
async def initialized(ls: VllmConfigServer, params: types.InitializedParams) -> None:
    warm = asyncio.ensure_future(ls.session.run_on_lint_thread(ls.session.warm_up))
    await pull_settings(ls)
    await watch_release_files(ls.session)
    await warm


async def pull_settings(ls: VllmConfigServer) -> None:
    workspace = ls.client_capabilities.workspace
    if not (workspace and workspace.configuration):
        return
    try:
        answer = await ls.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section=SECTION)])
        )
    except Exception as error:  # a client that fails the request keeps the old settings
        ls.session.log(f"workspace/configuration failed: {error}", types.MessageType.Warning)
        return
    if answer and answer[0] is not None:
        ls.session.apply_settings(answer[0], "workspace/configuration")


@SERVER.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(
    ls: VllmConfigServer, params: types.DidChangeConfigurationParams
) -> None:
    pushed = params.settings
    if isinstance(pushed, dict) and isinstance(pushed.get(SECTION), dict):
        ls.session.apply_settings(pushed[SECTION], "workspace/didChangeConfiguration")
    else:
        await pull_settings(ls)


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: VllmConfigServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.session.schedule(params.text_document.uri, 0.0)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: VllmConfigServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.session.schedule(uri, ls.session.change_delay(uri))


@SERVER.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(
    ls: VllmConfigServer, params: types.DidChangeWatchedFilesParams
) -> None:
    await release_files_changed(ls.session, [change.uri for change in params.changes])


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: VllmConfigServer, params: types.DidSaveTextDocumentParams) -> None:
    await release_files_changed(ls.session, [params.text_document.uri])


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: VllmConfigServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.session.forget(params.text_document.uri)


@SERVER.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[
            types.CodeActionKind.QuickFix,
            FIX_ALL_KIND,
            MIGRATE_KIND,
            MOVE_TO_CONFIG_KIND,
            INLINE_CONFIG_KIND,
        ]
    ),
)
async def code_action(
    ls: VllmConfigServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    from vllm_config_lsp.lsp.actions import code_actions

    uri = params.text_document.uri
    if ls.session.open_document(uri) is None:
        return None
    snapshot = await ls.session.current(uri)
    return await code_actions(ls.session, snapshot, params) if snapshot is not None else None


@SERVER.command(MIGRATION_REPORT)
def migration_report(ls: VllmConfigServer, *args: Any) -> None:
    """Run by the editor after it applied "Migrate this config…": what is left to decide."""
    from vllm_config_lsp.lsp.migrate import report_message

    kind, message, detail = report_message(args[0] if args else None)
    ls.session.log(detail, types.MessageType.Info)
    ls.session.pop_up(kind, message)


@SERVER.command(PULL_MODEL)
async def pull_model(ls: VllmConfigServer, *args: Any) -> bool:
    """`vllmConfig.pullModel` MODEL [revision]: `models pull` (config.json & co. into the
    Hugging Face cache, with huggingface_hub), then every open document checked again;
    True when fetched. Only ever run when the user picks the action."""
    from vllm_config_lsp.vllm.model_pull import pull

    name = args[0] if args and isinstance(args[0], str) else None
    revision = args[1] if len(args) > 1 and isinstance(args[1], str) else None
    if name is None:
        return False
    done = await asyncio.to_thread(pull, name, revision)
    if not done.ok:
        ls.session.pop_up(types.MessageType.Error, f"{name}: not fetched: {done.problem}")
        return False
    ls.session.log(f"{name}: {', '.join(done.files)} in {done.folder}", types.MessageType.Info)
    from vllm_config_lsp.engine import forget_checked

    forget_checked()
    ls.session.recheck(list(ls.session.open_uris()))
    return True


@SERVER.command(FIX_ALL_COMMAND)
async def fix_all_command(ls: VllmConfigServer, *args: Any) -> bool:
    """`vllmConfig.fixAll` [uri]: every safe fix of the document, applied by the editor
    (`workspace/applyEdit`); True when it applied them."""
    from vllm_config_lsp.lsp.actions import fix_all_edit, fix_all_report, fix_all_title

    uri = args[0] if args and isinstance(args[0], str) else None
    snapshot = await ls.session.current(uri) if uri is not None else None
    found = await fix_all_edit(ls.session, snapshot) if snapshot is not None else None
    if found is None:
        count = len(snapshot.checked.findings) if snapshot is not None else 0
        left = "the problem has no" if count == 1 else f"none of the {count} problems has a"
        said = f"vLLM Config: nothing to fix by itself here: {left} safe fix."
        ls.session.log(f"{FIX_ALL_COMMAND} {uri}: {said}", types.MessageType.Info)
        if snapshot is not None and snapshot.checked.findings:
            ls.session.pop_up(types.MessageType.Info, said)
        return False
    edit, plan = found
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=fix_all_title(plan))
    )
    report = fix_all_report(plan)
    if answer.applied and report is not None and uri is not None:
        ls.session.report_once(uri, report)
    return bool(answer.applied)


@SERVER.command(FIX_ALL_REPORT)
def fix_all_left(ls: VllmConfigServer, *args: Any) -> None:
    """Run by the editor after it applied a "Fix all" code action: what it left."""
    if len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
        ls.session.report_once(args[0], args[1])


@SERVER.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions())
async def code_lens(ls: VllmConfigServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    """ "Show the command vLLM runs" on each command line of a host document."""
    from vllm_config_lsp.lsp.command_lines import code_lenses

    snapshot = await ls.session.current(params.text_document.uri)
    return code_lenses(snapshot) if snapshot is not None else []


#: `vllmConfig.showCommand URI INDEX "document"`: the client shows the answer's `document`
#: itself (VS Code: a read-only editor), so no message pops up.
SHOWN_AS_DOCUMENT = "document"


@SERVER.command(SHOW_COMMAND)
async def show_command(ls: VllmConfigServer, *args: Any) -> dict[str, Any] | None:
    """The arguments vLLM receives from one invocation (`argv`), shown and returned."""
    from vllm_config_lsp.lsp.command_lines import shown_command

    uri, index = (args[0], args[1]) if len(args) >= 2 else (None, 0)
    snapshot = await ls.session.current(uri) if isinstance(uri, str) else None
    shown = shown_command(snapshot, index) if snapshot and isinstance(index, int) else None
    if shown is not None and (len(args) < 3 or args[2] != SHOWN_AS_DOCUMENT):
        version, refused = shown["vllm_version"], shown["refused"]
        said = f"vLLM {version} runs: {shown['text']}"
        if refused:  # never "runs" for a command vLLM refuses
            said = f"vLLM {version} refuses ({refused[0]}): {shown['text']}"
        ls.session.pop_up(types.MessageType.Info, said)
    return shown


@SERVER.feature(DOCUMENT_INFO)
async def document_info(ls: VllmConfigServer, params: Any) -> dict[str, Any]:
    """`vllmConfig/documentInfo` (the VS Code status bar; see `lsp_info`)."""
    from vllm_config_lsp.lsp.info import document_info, requested_uri

    uri = requested_uri(params)
    snapshot = await ls.session.current(uri) if uri else None
    return document_info(snapshot, ls.session.settings_problems)


#: What opens completion as the user types: `:` and space after a key or flag (its values),
#: `"` (a JSON field), `-` (a flag being typed on a command line: VS Code's quick suggestions
#: stay off in what its grammars call strings, which is where shell, Dockerfile and Markdown
#: fence arguments are, so letters alone do not open it there).
TRIGGER_CHARACTERS = (":", '"', " ", "-")


@SERVER.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=list(TRIGGER_CHARACTERS)),
)
async def completion(
    ls: VllmConfigServer, params: types.CompletionParams
) -> types.CompletionList | None:
    from vllm_config_lsp.lsp.completion import complete
    from vllm_config_lsp.lsp.python_keywords import complete_keywords, is_python

    snapshot = await ls.session.current(params.text_document.uri)
    if snapshot is None:
        return None
    if is_python(snapshot):  # a call being typed is no valid Python yet: read from its text
        keywords = complete_keywords(snapshot, params.position)
        if keywords is not None:
            return keywords
    if snapshot.result is None:
        return None
    context = params.context
    typed = None
    if context is not None and context.trigger_kind == types.CompletionTriggerKind.TriggerCharacter:
        typed = context.trigger_character
    return complete(snapshot, params.position, typed)


@SERVER.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions())
async def inlay_hint(ls: VllmConfigServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """The memory budget on its target GPU, for a config that fits (`inlay_hints`)."""
    from vllm_config_lsp.lsp.inlay_hints import inlay_hints

    snapshot = await ls.session.current(params.text_document.uri)
    return inlay_hints(snapshot, params.range) if snapshot is not None else []


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: VllmConfigServer, params: types.HoverParams) -> types.Hover | None:
    from vllm_config_lsp.lsp.hover import hover as hover_request

    snapshot = await ls.session.current(params.text_document.uri)
    if snapshot is None:
        return None
    return await hover_request(ls.session, snapshot, params.position, RULE_DOCS_URL)


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(
    ls: VllmConfigServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
    from vllm_config_lsp.lsp.symbols import symbols

    snapshot = await ls.session.current(params.text_document.uri)
    if snapshot is None or snapshot.result is None:
        return None
    return symbols(snapshot)


def serve(*, tcp: bool = False, host: str = "127.0.0.1", port: int = 2087) -> None:
    """The server loop (stdout is the protocol channel: Python logging goes to stderr)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    quiet_pygls()
    if tcp:
        SERVER.start_tcp(host, port)
    else:
        SERVER.start_io()
