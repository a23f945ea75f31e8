"""The language server: documents, settings and transport around `engine.lint`.

No rule logic lives here. A document is checked when `association` says it is a vLLM config;
the result (an `Analysis`: findings plus the positioned model) feeds diagnostics, code
actions, hover, completion and symbols, which are built in the `lsp_*` modules.

Responsiveness: importing pygls/lsprotocol is most of the start-up cost, so the engine (PyYAML,
the catalogue, the rules) is imported lazily and warmed in the background after `initialized`.
Checks run on one worker thread, at once on every change: a newer change cancels the check
waiting for its turn, and a result computed for a document version that is no longer current
is dropped, never published (latest wins). There is no fixed delay: with `debounceMs` "auto"
(the default) a change waits only when the document's last check was slow (`auto_delay`);
a number is a fixed delay for those who want one. Opens never wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from vllm_config_lsp import __version__
from vllm_config_lsp.lsp.actions import FIX_ALL_COMMAND, PULL_MODEL
from vllm_config_lsp.lsp.command_lines import INLINE_CONFIG_KIND, MOVE_TO_CONFIG_KIND, SHOW_COMMAND
from vllm_config_lsp.lsp.diagnostics import FIX_ALL_KIND, RULE_DOCS_URL
from vllm_config_lsp.lsp.framing import FrameReader
from vllm_config_lsp.lsp.info import DOCUMENT_INFO
from vllm_config_lsp.lsp.log_noise import quiet_pygls
from vllm_config_lsp.lsp.migrate import MIGRATE_KIND, MIGRATION_REPORT
from vllm_config_lsp.lsp.plain_text import plain
from vllm_config_lsp.lsp.positions import Positions
from vllm_config_lsp.lsp.protocol import VllmConfigProtocol
from vllm_config_lsp.lsp.settings import SECTION, Settings, model_folders, parse
from vllm_config_lsp.lsp.watched import release_files_changed, watch_release_files

if TYPE_CHECKING:
    from vllm_config_lsp.engine import LintResult
    from vllm_config_lsp.sources.association import Reason

#: Innermost traceback frames logged for an engine crash (a RecursionError has thousands).
LOGGED_FRAMES = 8
#: How often the client's process is checked (the LSP `processId` contract).
CLIENT_WATCH_SECONDS = 1.0

log = logging.getLogger(__name__)


@dataclass
class Analysis:
    """One document version as the engine saw it."""

    uri: str
    version: int | None
    text: str
    positions: Positions
    reason: Reason | None
    result: LintResult | None  # None: not a vLLM config
    vllm_version: str
    #: Why this vLLM version (`versions.choose_version`: marker, setting, venv, image tag…).
    version_source: str
    #: The host syntax of a document holding command lines (`sources.hosts`), else None.
    host: str | None = None


class VllmConfigServer(LanguageServer):
    protocol: VllmConfigProtocol

    def __init__(self) -> None:
        super().__init__("vllm-config-lsp", __version__, protocol_cls=VllmConfigProtocol)
        self.settings = Settings()
        #: What the last settings received got wrong (`settings.parse`), for the status item.
        self.settings_problems: tuple[str, ...] = ()
        #: `clientInfo.name` (completion asks VS Code to suggest again after a key).
        self.client_name: str | None = None
        self._generation = 0  # bumped by settings changes: cached analyses become stale
        self._analyses: dict[str, tuple[int, Analysis]] = {}
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._logged: set[tuple[str, str]] = set()
        self._checked: set[str] = set()  # documents treated as vLLM configs when last checked
        #: (marker version, file) → (release, why), as `check` chooses it for that file;
        #: cleared when settings change, an entry when a file it was read from changes.
        self._versions: dict[tuple[str | None, str | None], tuple[str, str]] = {}
        #: How long each document's last check took (seconds of the lint thread).
        self._took: dict[str, float] = {}
        self._lint_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="vllm-lint")
        self.watcher: asyncio.Future[None] | None = None
        self.shutdown_requested = False

    # -- infrastructure ---------------------------------------------------------------------

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        log.debug("%s", message)
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # no client connected (yet): stderr logging above must do
            log.warning("%s", message)

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Errors go to the log, never to a pop-up (users reported pop-ups as noise)."""
        self.log(f"internal error: {error!r}", types.MessageType.Error)

    def shutdown(self) -> None:
        self._lint_pool.shutdown(wait=False, cancel_futures=True)
        super().shutdown()  # type: ignore[no-untyped-call]

    def stop_work(self) -> None:
        """LSP `shutdown`: no more checks, queued ones dropped (a running one finishes)."""
        self.shutdown_requested = True
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
        if self.watcher is not None:
            self.watcher.cancel()
        self._lint_pool.shutdown(wait=False, cancel_futures=True)

    def exit_now(self) -> None:
        """LSP `exit`: end the process at once, 0 after `shutdown`, else 1 (the spec).

        pygls would `sys.exit`, and the interpreter would then join the lint thread (a
        check or the warm-up can run for a second) and tear down every module: editors
        waiting for the process (Emacs kills it after a while) saw 0.2-1.2 s. Every reply
        is already written and flushed (pygls flushes each message), so nothing is lost.
        """
        code = 0 if self.shutdown_requested else 1
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):  # a closed pipe: nothing left to flush
                stream.flush()
        logging.shutdown()
        os._exit(code)

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """pygls' stdio loop, reading frames within a bound and finding the next one after
        a bad one (`framing`), every request answered (`protocol`)."""
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        reader = FrameReader(stdin or sys.stdin.buffer)
        try:
            asyncio.run(self._serve_frames(reader))
        except BrokenPipeError:
            log.error("the connection to the client is lost")
        finally:
            self.shutdown()

    async def _serve_frames(self, reader: FrameReader) -> None:
        loop = asyncio.get_running_loop()
        while (
            frame := await loop.run_in_executor(self.thread_pool, reader.next_frame)
        ) is not None:
            try:
                self.protocol.receive(frame, reader)
            except Exception as error:  # one message's failure is not the server's (as pygls)
                log.exception("unable to handle a message")
                self.report_server_error(error, None)

    @property
    def encoding(self) -> str:
        chosen = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return str(getattr(chosen, "value", chosen))  # a str-Enum's str() is its name

    def pop_up(self, kind: types.MessageType, message: str) -> None:
        """`window/showMessage`: editors show it verbatim, so code spans become quotes."""
        self.window_show_message(types.ShowMessageParams(type=kind, message=plain(message)))

    def apply_settings(self, raw: Any, origin: str) -> None:
        problems: list[str] = []
        settings = parse(raw, problems)
        for problem in problems:
            self.log(f"settings ({origin}): {problem}", types.MessageType.Warning)
        news = [problem for problem in problems if problem not in self.settings_problems]
        self.settings_problems = tuple(problems)
        if news:  # a pop-up once, not again each time the same settings are pulled
            self.pop_up(types.MessageType.Warning, f"vLLM Config settings: {'; '.join(news)}")
        if settings == self.settings:
            return
        self.settings = settings
        self._generation += 1
        self._versions.clear()
        for uri in list(self.workspace.text_documents):
            self.schedule(uri, 0.0)

    # -- checking -----------------------------------------------------------------------------

    def last_check(self, uri: str) -> float | None:
        """Seconds the document's last check took on the lint thread, if it had one."""
        return self._took.get(uri)

    def _timed_analyse(
        self, uri: str, version: int | None, text: str, language_id: str | None
    ) -> Analysis:
        began = time.perf_counter()
        try:
            return self._analyse(uri, version, text, language_id)
        finally:
            self._took[uri] = time.perf_counter() - began

    def _analyse(
        self, uri: str, version: int | None, text: str, language_id: str | None
    ) -> Analysis:
        """Runs on the lint thread: association, then the engine."""
        from vllm_config_lsp.document.markers import marker_options
        from vllm_config_lsp.sources.association import Reason, classify, path_of_uri
        from vllm_config_lsp.sources.hosts import host_of
        from vllm_config_lsp.vllm.catalogue import detection_flag_names
        from vllm_config_lsp.vllm.versions import invocation_release

        settings = self.settings
        positions = Positions(text, self.encoding)
        # A host of command lines (script, manifest, recipe…) is never a `--config` file.
        flag_names = detection_flag_names()
        host = host_of(path_of_uri(uri), text, language_id, flag_names=flag_names)
        reason = (
            Reason.COMMAND_LINE
            if host is not None
            else classify(
                path_of_uri(uri),
                text,
                settings.associations,
                flag_names=flag_names,
                language_id=language_id,
            )
        )
        path = _fs_path(uri)
        key = (marker_options(text).get("version"), str(path) if path else None)
        choice = self._versions.get(key)
        if choice is None:  # the file system part (venv, image tags) is read once per file
            from vllm_config_lsp.vllm.versions import choose_version

            choice = choose_version(text, setting=settings.vllm_version, file_path=path)
            self._versions[key] = choice
        vllm_version, source = choice
        result = None
        if reason is not None:
            result = self._lint(text, vllm_version, settings, path, host)
            if host is not None and not result.command_lines and not result.findings:
                reason, result = None, None  # no vLLM in it: say nothing
            elif result.command_lines:
                # what the status bar and hovers name: the first command line's release
                first = result.command_lines[0]
                vllm_version = first.release
                if vllm_version != choice[0]:
                    source = invocation_release(first.invocation, choice[0], source)[1]
        return Analysis(uri, version, text, positions, reason, result, vllm_version, source, host)

    def _lint(
        self,
        text: str,
        vllm_version: str,
        settings: Settings,
        path: Path | None,
        host: str | None = None,
    ) -> LintResult:
        from vllm_config_lsp.engine import INTERNAL_ERROR, LintResult, lint
        from vllm_config_lsp.findings import Finding, Severity
        from vllm_config_lsp.vllm.versions import release_stated

        try:
            return lint(
                text,
                version=vllm_version,
                ignore=settings.ignored_codes or None,
                path=path,
                model_dirs=model_folders(settings, self.workspace.root_path),
                host=host,
                version_stated=release_stated(text, settings.vllm_version),
                gpus=settings.gpus,
            )
        except Exception:  # the engine itself failed: say so instead of going silent
            detail = traceback.format_exc(limit=-LOGGED_FRAMES)
            self.log(f"engine crashed:\n{detail}", types.MessageType.Error)
            last = detail.strip().splitlines()[-1]
            crash = Finding(INTERNAL_ERROR, Severity.WARNING, 0, 0, f"internal error: {last}")
            return LintResult([crash], None)

    def forget_releases(self, changed: list[Path]) -> list[str]:
        """The open documents whose release `changed` files may alter, their choices
        forgotten. Runs on the lint thread, so after any check that read the old files."""
        from vllm_config_lsp.vllm.versions import depends_on

        def stale(path: Path | None) -> bool:
            return path is not None and any(depends_on(file, path) for file in changed)

        for key in [key for key in self._versions if stale(Path(key[1]) if key[1] else None)]:
            del self._versions[key]
        return [uri for uri in list(self.workspace.text_documents) if stale(_fs_path(uri))]

    def recheck(self, uris: list[str]) -> None:
        """Check these documents again although their text did not change."""
        if uris:
            self._generation += 1
        for uri in uris:
            self.schedule(uri, 0.0)

    def fix_all_text(self, analysis: Analysis) -> str:
        """`check --fix` for the editor: safe fixes, re-checked, up to five rounds."""
        from vllm_config_lsp.engine import fix_all
        from vllm_config_lsp.findings import Finding

        assert analysis.result is not None
        path = _fs_path(analysis.uri)

        def relint(text: str) -> list[Finding]:
            return self._lint(
                text, analysis.vllm_version, self.settings, path, analysis.host
            ).findings

        return fix_all(analysis.text, analysis.result.findings, relint)[0]

    async def run_on_lint_thread(self, function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._lint_pool, function, *args)

    async def current(self, uri: str) -> Analysis | None:
        """The analysis of the document as it is now (cached, or computed and awaited)."""
        document = self.workspace.text_documents.get(uri)
        if document is None:
            return None
        version, text = document.version, document.source
        cached = self._analyses.get(uri)
        if (
            cached
            and cached[0] == self._generation
            and cached[1].version == version
            and cached[1].text == text  # a document closed and opened again restarts at 1
        ):
            return cached[1]
        generation = self._generation
        analysis: Analysis = await self.run_on_lint_thread(
            self._timed_analyse, uri, version, text, document.language_id
        )
        if generation == self._generation and self.workspace.text_documents.get(uri) is document:
            self._analyses[uri] = (generation, analysis)  # not if closed meanwhile
        return analysis

    def schedule(self, uri: str, delay: float) -> None:
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._pending[uri] = asyncio.ensure_future(self._check(uri, delay))

    async def _check(self, uri: str, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            document = self.workspace.text_documents.get(uri)
            if document is None:
                return
            version = document.version
            analysis = await self.current(uri)
            document = self.workspace.text_documents.get(uri)
            if analysis is None or document is None or document.version != version:
                return  # stale: a newer check is scheduled (or the document closed)
            self.publish(analysis)
        except asyncio.CancelledError:
            raise
        except Exception:  # never let one document's failure end the server's checking
            detail = traceback.format_exc(limit=-LOGGED_FRAMES)
            self.log(f"checking {uri} failed:\n{detail}", types.MessageType.Error)
        finally:
            if self._pending.get(uri) is asyncio.current_task():
                del self._pending[uri]

    def publish(self, analysis: Analysis) -> None:
        """Diagnostics of a vLLM config; nothing at all for other documents (only an empty
        list once, when a document stops being a config, to clear what it had)."""
        from vllm_config_lsp.lsp.diagnostics import diagnostics

        result = analysis.result
        if result is None:
            if analysis.uri not in self._checked:
                return
            self._checked.discard(analysis.uri)
            items: list[types.Diagnostic] = []
        else:
            if analysis.uri not in self._checked and analysis.reason is not None:
                why = f"{analysis.reason.value}; {analysis.version_source}"
                self.log(f"{analysis.uri}: checked as a vLLM config ({why})")
            self._checked.add(analysis.uri)
            items = diagnostics(analysis, self.settings)
            for finding in result.findings:
                if finding.code == "VC000" and (analysis.uri, finding.message) not in self._logged:
                    self._logged.add((analysis.uri, finding.message))
                    self.log(f"{analysis.uri}: {finding.message}", types.MessageType.Error)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=analysis.uri, version=analysis.version, diagnostics=items
            )
        )

    def forget(self, uri: str) -> None:
        from vllm_config_lsp.lsp.migrate import forget as forget_migration

        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._analyses.pop(uri, None)
        self._took.pop(uri, None)
        forget_migration(uri)
        if uri not in self._checked:
            return
        self._checked.discard(uri)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    def warm_up(self) -> None:
        """Import the engine and load the catalogue before the first document needs them."""
        from vllm_config_lsp.engine import lint
        from vllm_config_lsp.vllm.catalogue import load_catalogue
        from vllm_config_lsp.vllm.versions import choose_version

        version = choose_version("", setting=self.settings.vllm_version)[0]
        lint("model: warm-up\n", version=version)
        load_catalogue(version).classes  # noqa: B018

    async def watch_client(self, pid: int) -> None:
        """Exit when the editor is gone (LSP `processId`): an orphaned server helps nobody."""
        while True:
            await asyncio.sleep(CLIENT_WATCH_SECONDS)
            if not _alive(pid):
                log.warning("client process %s is gone; exiting", pid)
                os._exit(0)  # the stdin reader thread may block forever: no orderly exit


#: A check slower than this is worth coalescing keystrokes for; a typical one is a few ms.
SLOW_CHECK = 0.05
#: The longest a change waits under "auto".
MAX_AUTO_DELAY = 0.2


def auto_delay(last_check: float | None) -> float:
    """No delay after a fast check; after a slow one, about as long as it took: a burst of
    keystrokes then costs one check, not one each (latest wins either way)."""
    if last_check is None or last_check < SLOW_CHECK:
        return 0.0
    return min(last_check, MAX_AUTO_DELAY)


def _fs_path(uri: str) -> Path | None:
    """The file behind a `file:` URI (model-aware rules resolve relative model folders
    against it, as `check` does); None for `untitled:` and other schemes."""
    from pygls.uris import to_fs_path

    path = to_fs_path(uri)
    return Path(path) if path else None


def _alive(pid: int) -> bool:
    if sys.platform == "win32":
        return True  # no signal-0 probe; stdin EOF ends the server there
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


SERVER = VllmConfigServer()


@SERVER.feature(types.INITIALIZE)
def initialize(ls: VllmConfigServer, params: types.InitializeParams) -> None:
    ls.log(f"vllm-config-lsp {__version__}, Python {sys.version.split()[0]} ({sys.executable})")
    ls.apply_settings(params.initialization_options, "initializationOptions")
    ls.client_name = params.client_info.name if params.client_info else None
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
    warm = asyncio.ensure_future(ls.run_on_lint_thread(ls.warm_up))
    await pull_settings(ls)
    await watch_release_files(ls)
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
        ls.log(f"workspace/configuration failed: {error}", types.MessageType.Warning)
        return
    if answer and answer[0] is not None:
        ls.apply_settings(answer[0], "workspace/configuration")


@SERVER.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
async def did_change_configuration(
    ls: VllmConfigServer, params: types.DidChangeConfigurationParams
) -> None:
    pushed = params.settings
    if isinstance(pushed, dict) and isinstance(pushed.get(SECTION), dict):
        ls.apply_settings(pushed[SECTION], "workspace/didChangeConfiguration")
    else:
        await pull_settings(ls)


@SERVER.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: VllmConfigServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.schedule(params.text_document.uri, 0.0)


@SERVER.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: VllmConfigServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    fixed = ls.settings.debounce_ms
    ls.schedule(uri, auto_delay(ls.last_check(uri)) if fixed is None else fixed / 1000)


@SERVER.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def did_change_watched_files(
    ls: VllmConfigServer, params: types.DidChangeWatchedFilesParams
) -> None:
    await release_files_changed(ls, [change.uri for change in params.changes])


@SERVER.feature(types.TEXT_DOCUMENT_DID_SAVE)
async def did_save(ls: VllmConfigServer, params: types.DidSaveTextDocumentParams) -> None:
    await release_files_changed(ls, [params.text_document.uri])


@SERVER.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: VllmConfigServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)


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

    return await code_actions(ls, params)


@SERVER.command(MIGRATION_REPORT)
def migration_report(ls: VllmConfigServer, *args: Any) -> None:
    """Run by the editor after it applied "Migrate this config…": what is left to decide."""
    from vllm_config_lsp.lsp.migrate import report_message

    kind, message, detail = report_message(args[0] if args else None)
    ls.log(detail, types.MessageType.Info)
    ls.pop_up(kind, message)


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
        ls.pop_up(types.MessageType.Error, f"{name}: not fetched: {done.problem}")
        return False
    ls.log(f"{name}: {', '.join(done.files)} in {done.folder}", types.MessageType.Info)
    from vllm_config_lsp.engine import forget_checked

    forget_checked()
    ls.recheck(list(ls.workspace.text_documents))
    return True


@SERVER.command(FIX_ALL_COMMAND)
async def fix_all_command(ls: VllmConfigServer, *args: Any) -> bool:
    """`vllmConfig.fixAll` [uri]: every safe fix of the document, applied by the editor
    (`workspace/applyEdit`); True when it applied them."""
    from vllm_config_lsp.lsp.actions import FIX_ALL_TITLE, fix_all_edit

    uri = args[0] if args and isinstance(args[0], str) else None
    edit = await fix_all_edit(ls, uri) if uri is not None else None
    if edit is None:
        ls.log(f"{FIX_ALL_COMMAND} {uri}: nothing to fix", types.MessageType.Info)
        return False
    answer = await ls.workspace_apply_edit_async(
        types.ApplyWorkspaceEditParams(edit=edit, label=FIX_ALL_TITLE)
    )
    return bool(answer.applied)


@SERVER.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions())
async def code_lens(ls: VllmConfigServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    """ "Show the command vLLM runs" on each command line of a host document."""
    from vllm_config_lsp.lsp.command_lines import code_lenses

    analysis = await ls.current(params.text_document.uri)
    return code_lenses(analysis) if analysis is not None else []


@SERVER.command(SHOW_COMMAND)
async def show_command(ls: VllmConfigServer, *args: Any) -> dict[str, Any] | None:
    """The arguments vLLM receives from one invocation (`argv`), shown and returned."""
    from vllm_config_lsp.lsp.command_lines import shown_command

    uri, index = (args[0], args[1]) if len(args) >= 2 else (None, 0)
    analysis = await ls.current(uri) if isinstance(uri, str) else None
    shown = shown_command(analysis, index) if analysis and isinstance(index, int) else None
    if shown is not None:
        ls.pop_up(types.MessageType.Info, f"vLLM {shown['vllm_version']} runs: {shown['text']}")
    return shown


@SERVER.feature(DOCUMENT_INFO)
async def document_info(ls: VllmConfigServer, params: Any) -> dict[str, Any]:
    """`vllmConfig/documentInfo` (the VS Code status bar; see `lsp_info`)."""
    from vllm_config_lsp.lsp.info import document_info

    return await document_info(ls, params)


@SERVER.feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=[":", '"', " "]),
)
async def completion(
    ls: VllmConfigServer, params: types.CompletionParams
) -> types.CompletionList | None:
    from vllm_config_lsp.lsp.completion import complete

    analysis = await ls.current(params.text_document.uri)
    if analysis is None or analysis.result is None:
        return None
    return complete(analysis, params.position, ls.client_capabilities, ls.client_name)


@SERVER.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions())
async def inlay_hint(ls: VllmConfigServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    """The memory budget on its target GPU, for a config that fits (`inlay_hints`)."""
    from vllm_config_lsp.lsp.inlay_hints import inlay_hints

    analysis = await ls.current(params.text_document.uri)
    return inlay_hints(analysis, params.range) if analysis is not None else []


@SERVER.feature(types.TEXT_DOCUMENT_HOVER)
async def hover(ls: VllmConfigServer, params: types.HoverParams) -> types.Hover | None:
    from vllm_config_lsp.lsp.hover import hover as hover_request

    return await hover_request(ls, params, RULE_DOCS_URL)


@SERVER.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
async def document_symbol(
    ls: VllmConfigServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol] | list[types.SymbolInformation] | None:
    from vllm_config_lsp.lsp.symbols import symbols

    analysis = await ls.current(params.text_document.uri)
    if analysis is None or analysis.result is None:
        return None
    return symbols(analysis, ls.client_capabilities)


def serve(*, tcp: bool = False, host: str = "127.0.0.1", port: int = 2087) -> None:
    """The server loop (stdout is the protocol channel: Python logging goes to stderr)."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    quiet_pygls()
    if tcp:
        SERVER.start_tcp(host, port)
    else:
        SERVER.start_io()
