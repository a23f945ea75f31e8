"""The session: documents, settings, caches and scheduling; it hands out snapshots.

What the language server knows between messages lives here, as ruff's server keeps it in its
`Session`: the settings the client sent, each open document's last `Snapshot` (the engine's
`Checked` with its positions and the settings it was checked with), the release choices
(`engine.Releases`), and the checks waiting for their turn. Handlers (`server`) ask for a
snapshot and give it to the features, which are functions of it (`actions`, `hover`,
`completion`, …) and never import the server.

Responsiveness: the engine (PyYAML, the catalogue, the rules) is imported lazily and warmed
in the background after `initialized`. Checks run on a small pool of worker threads
(`LINT_WORKERS`), at once on every change, so one slow document never holds the others
back: a 100,000-key file being checked leaves the other workers to the other documents
and to hover and completion. Each document has at most one check running: a newer change
waits for it (a check already running cannot be stopped) and cancels the check waiting
for its turn, so a burst of keystrokes on a slow document queues one check, not one per
keystroke, and never fills the pool with versions already superseded. A result computed
for a document version that is no longer current is dropped, never published (latest
wins). There
is no fixed delay: with `debounceMs` "auto" (the default) a change waits only when the
document's last check was slow (`auto_delay`); a number is a fixed delay for those who want
one. Opens never wait.
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from vllm_config_lsp import code_cache
from vllm_config_lsp.document.text_memo import STORE
from vllm_config_lsp.lsp.plain_text import plain
from vllm_config_lsp.lsp.positions import Positions
from vllm_config_lsp.lsp.project_settings import new_problems, project_of, with_project
from vllm_config_lsp.lsp.settings import Settings, model_folders, parse

if TYPE_CHECKING:
    from pygls.workspace import TextDocument

    from vllm_config_lsp.engine import Checked, CheckOptions, LintResult, Releases

#: Innermost traceback frames logged for a failed check (a RecursionError has thousands).
LOGGED_FRAMES = 8
#: A check slower than this is worth coalescing keystrokes for; a typical one is a few ms.
SLOW_CHECK = 0.05
#: The longest a change waits under "auto".
MAX_AUTO_DELAY = 0.2
#: Threads checking documents: a document being checked for long holds one (at most one
#: per document), the others check the other documents and answer hover and completion.
LINT_WORKERS = 3

log = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Snapshot:
    """One document version as the engine saw it (`engine.Checked`), with its positions and
    what the features read of the session when it was checked."""

    uri: str
    version: int | None
    positions: Positions
    checked: Checked
    settings: Settings = field(default_factory=Settings)
    capabilities: types.ClientCapabilities = field(default_factory=types.ClientCapabilities)
    #: `clientInfo.name` (completion asks VS Code to suggest again after a key).
    client_name: str | None = None
    #: What features derive from this snapshot and keep (the fix-all text, the migration
    #: offered): dropped with it.
    memo: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.checked.text

    @property
    def path(self) -> Path | None:
        """The file behind the document, None for `untitled:` and other schemes."""
        return self.checked.document.path

    @property
    def reason(self) -> str | None:
        """Why it is a vLLM document (`association.Reason` values); None: it is not one."""
        return self.checked.reason

    @property
    def result(self) -> LintResult | None:  # None: not a vLLM config
        return self.checked.result

    @property
    def vllm_version(self) -> str:
        return self.checked.release

    @property
    def version_source(self) -> str:
        """Why this release (`versions.choose_version`: marker, setting, venv, image tag…)."""
        return self.checked.why

    @property
    def host(self) -> str | None:
        """The host syntax of a document holding command lines (`sources.hosts`), else None."""
        return self.checked.host

    def line_releases(self) -> list[tuple[int, int, str, str]]:
        """Each command line's span in the document (offsets of its own words: a chart's
        template words lie past the end) with the release its checks use and why."""
        out = []
        size = len(self.text)
        for line in self.checked.command_lines:
            invocation = line.invocation
            own = [(w.start, w.end) for w in invocation.args if w.end <= size]
            if invocation.start < size:
                own.append((invocation.start, min(invocation.end, size)))
            if own:
                start, end = min(s for s, _ in own), max(e for _, e in own)
                out.append((start, end, line.release, line.why))
        return out

    def release_at(self, offset: int) -> tuple[str, str]:
        """The release the checks use at `offset` and why: that of the command line there
        (the nearest before it), else the document's."""
        found = None
        for start, end, release, why in self.line_releases():
            if start <= offset:
                found = (release, why)
            if start <= offset <= end:
                break
        return found or (self.vllm_version, self.version_source)


@dataclass(frozen=True)
class FixAllPlan:
    """What "Fix all" does to a document and leaves: the text after it, the titles of the
    safe fixes it applies, how many problems there were, and what is left: (code, title of
    its first fix) where a quick fix needs the user's decision, the codes of the rest."""

    text: str
    fixed: tuple[str, ...]
    total: int
    decisions: tuple[tuple[str, str], ...]
    by_hand: tuple[str, ...]


def fs_path(uri: str) -> Path | None:
    """The file behind a `file:` URI (model-aware rules resolve relative model folders
    against it, as `check` does); None for `untitled:` and other schemes, and for a name
    no file system holds (a NUL, `%00`, in it): such a document is checked as unsaved."""
    path = to_fs_path(uri)
    return Path(path) if path and "\x00" not in path else None


def check_options(settings: Settings, root_path: str | None) -> CheckOptions:
    """The engine's options from the editor's settings."""
    from vllm_config_lsp.engine import AssociationSettings, CheckOptions

    associations = settings.associations
    return CheckOptions(
        release=settings.vllm_version,
        gpus=settings.gpus,
        model_dirs=model_folders(settings, root_path),
        ignore=frozenset(settings.ignored_codes) or None,
        plugins=settings.plugins,
        associations=AssociationSettings(
            associations.globs, associations.exclude, associations.detection
        ),
    )


def auto_delay(last_check: float | None) -> float:
    """No delay after a fast check; after a slow one, about as long as it took: a burst of
    keystrokes then costs one check, not one each (latest wins either way)."""
    if last_check is None or last_check < SLOW_CHECK:
        return 0.0
    return min(last_check, MAX_AUTO_DELAY)


class Session:
    """The state of one client's session. `server` is the connection (documents, client
    capabilities, messages); `diagnose` renders a snapshot's diagnostics (`diagnostics`)."""

    def __init__(
        self,
        server: LanguageServer,
        diagnose: Callable[[Snapshot], list[types.Diagnostic]],
    ) -> None:
        self.server = server
        self._diagnose = diagnose
        self.settings = Settings()
        #: What the last settings received got wrong (`settings.parse`), for the status item.
        self.settings_problems: tuple[str, ...] = ()
        #: `clientInfo.name` (completion asks VS Code to suggest again after a key).
        self.client_name: str | None = None
        self._generation = 0  # bumped by settings changes: cached snapshots become stale
        self._snapshots: dict[str, tuple[int, Snapshot]] = {}
        self._pending: dict[str, asyncio.Task[None]] = {}
        self._logged: set[tuple[str, str]] = set()
        self._reported: set[tuple[str, str]] = set()
        self._checked: set[str] = set()  # documents treated as vLLM configs when last checked
        #: Each file's release choice, as `check` makes it for that file (`engine.Releases`);
        #: cleared when settings change, an entry when a file it was read from changes.
        self._releases: Releases | None = None
        #: The project settings files' problems already shown (file, problems).
        self.shown_project_problems: set[tuple[str, tuple[str, ...]]] = set()
        #: How long each document's last check took (seconds of the lint thread).
        self._took: dict[str, float] = {}
        self._lint_pool = ThreadPoolExecutor(
            max_workers=LINT_WORKERS, thread_name_prefix="vllm-lint"
        )
        #: Each document's check running on the pool (one at most): done when the thread is,
        #: whether or not what awaited it was cancelled.
        self._running: dict[str, asyncio.Future[Snapshot]] = {}

    # -- the client ---------------------------------------------------------------------------

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        log.debug("%s", message)
        try:
            self.server.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # no client connected (yet): stderr logging above must do
            log.warning("%s", message)

    def report_once(self, uri: str, message: str) -> None:
        """An information message about `uri`, shown once (a "Fix all" run on each save
        that leaves the same problems says it the first time), logged each time."""
        self.log(f"{uri}: {message}", types.MessageType.Info)
        if (uri, message) not in self._reported:
            self._reported.add((uri, message))
            self.pop_up(types.MessageType.Info, message)

    def pop_up(self, kind: types.MessageType, message: str) -> None:
        """`window/showMessage`: editors show it verbatim, so code spans become quotes."""
        self.server.window_show_message(types.ShowMessageParams(type=kind, message=plain(message)))

    @property
    def capabilities(self) -> types.ClientCapabilities:
        return self.server.client_capabilities

    @property
    def encoding(self) -> str:
        chosen = self.server.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return str(getattr(chosen, "value", chosen))  # a str-Enum's str() is its name

    def open_uris(self) -> list[str]:
        """The open documents' URIs as the client wrote them (pygls keys its documents by
        the decoded URI, which the client would not recognise in a publish)."""
        return [document.uri for document in self.server.workspace.text_documents.values()]

    def open_document(self, uri: str) -> TextDocument | None:
        """The open document `uri` names, None if it is not open. pygls keys documents by
        the URI percent-decoded (`unquote`): looked up as the client wrote it, a document in
        `my%20project/` or on `c%3A/` was never found, so never checked."""
        document: TextDocument | None = self.server.workspace.text_documents.get(unquote(uri))
        return document

    # -- settings -----------------------------------------------------------------------------

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
        if self._releases is not None:
            self._releases.clear()
        for uri in self.open_uris():
            self.schedule(uri, 0.0)

    # -- checking -----------------------------------------------------------------------------

    def last_check(self, uri: str) -> float | None:
        """Seconds the document's last check took on the lint thread, if it had one."""
        return self._took.get(uri)

    def change_delay(self, uri: str) -> float:
        """How long a change waits before it is checked (`debounceMs`, else `auto_delay`)."""
        fixed = self.settings.debounce_ms
        return auto_delay(self.last_check(uri)) if fixed is None else fixed / 1000

    def _timed_analyse(
        self, uri: str, version: int | None, text: str, language_id: str | None
    ) -> Snapshot:
        began = time.perf_counter()
        try:
            return self._analyse(uri, version, text, language_id)
        finally:
            self._took[uri] = time.perf_counter() - began

    def _analyse(
        self, uri: str, version: int | None, text: str, language_id: str | None
    ) -> Snapshot:
        """Runs on the lint thread: the engine's check, with the session's settings."""
        from vllm_config_lsp import engine

        settings = self.settings
        path = fs_path(uri)
        document = engine.Document(text, uri=uri, path=path, language_id=language_id)
        project = project_of(path)
        problems = new_problems(project, self.shown_project_problems)
        for problem in problems:
            self.log(f"vllm-config settings: {problem}", types.MessageType.Warning)
        if problems:
            self.pop_up(types.MessageType.Warning, f"vllm-config settings: {'; '.join(problems)}")
        options = check_options(settings, self.server.workspace.root_path)
        options = with_project(options, project, path)
        with STORE.versions_of(uri):  # what the memos keep of this document: this version's
            checked = engine.check(document, options, releases=self.releases())
        if checked.crash is not None:
            self.log(f"engine crashed:\n{checked.crash}", types.MessageType.Error)
        positions = Positions(text, self.encoding)
        snapshot = Snapshot(
            uri, version, positions, checked, settings, self.capabilities, self.client_name
        )
        if checked.result is not None:
            # rendered here, not when published: tens of thousands of findings take seconds
            # to render, and the event loop answers the other documents meanwhile
            snapshot.memo["diagnostics"] = self._diagnose(snapshot)
        return snapshot

    def releases(self) -> Releases:
        """The session's release choices (made on the lint thread only)."""
        if self._releases is None:
            from vllm_config_lsp.engine import Releases

            self._releases = Releases()
        return self._releases

    def forget_releases(self, changed: list[Path]) -> list[str]:
        """The open documents whose release `changed` files may alter, their choices
        forgotten. Runs on the lint thread, so after any check that read the old files."""
        stale = self.releases().forget(changed)
        return [uri for uri in self.open_uris() if stale(fs_path(uri))]

    def recheck(self, uris: list[str]) -> None:
        """Check these documents again although their text did not change."""
        if uris:
            self._generation += 1
        for uri in uris:
            self.schedule(uri, 0.0)

    def fix_all_plan(self, snapshot: Snapshot) -> FixAllPlan:
        """`check --fix` for the editor (safe fixes, re-checked, up to five rounds), and what
        it leaves for the user."""
        from vllm_config_lsp.engine import fix_all

        assert snapshot.result is not None
        before = snapshot.checked.findings
        fixed = fix_all(snapshot.checked)
        if fixed.crash is not None:
            self.log(f"engine crashed:\n{fixed.crash}", types.MessageType.Error)
        return FixAllPlan(
            fixed.text,
            tuple(f.safe_fix.title for f in before if f.safe_fix is not None),
            len(before),
            tuple((f.code, f.fixes[0].title) for f in fixed.findings if f.fixes),
            tuple(f.code for f in fixed.findings if not f.fixes),
        )

    async def run_on_lint_thread(self, function: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self._lint_pool, function, *args)

    async def current(self, uri: str) -> Snapshot | None:
        """The snapshot of the document as it is now (cached, or computed and awaited). A
        check of the document already running is waited for first (one per document)."""
        while True:
            document = self.open_document(uri)
            if document is None:
                return None
            version, text = document.version, document.source
            cached = self._snapshots.get(uri)
            if (
                cached
                and cached[0] == self._generation
                and cached[1].version == version
                and cached[1].text == text  # a document closed and opened again restarts at 1
            ):
                return cached[1]
            running = self._running.get(uri)
            if running is None:
                break
            # cancelling this wait (a newer change) leaves the running check alone
            await asyncio.wait([running])
        generation = self._generation
        future: asyncio.Future[Snapshot] = asyncio.get_running_loop().run_in_executor(
            self._lint_pool, self._timed_analyse, uri, version, text, document.language_id
        )
        self._running[uri] = future

        def done(finished: asyncio.Future[Snapshot]) -> None:
            if self._running.get(uri) is finished:
                del self._running[uri]
            if finished.cancelled() or finished.exception() is not None:
                return
            if generation == self._generation and self.open_document(uri) is document:
                self._snapshots[uri] = (generation, finished.result())  # not if closed since

        future.add_done_callback(done)
        # shielded: a newer change cancels this wait, never the check the thread is running
        return await asyncio.shield(future)

    def schedule(self, uri: str, delay: float) -> None:
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._pending[uri] = asyncio.ensure_future(self._check(uri, delay))

    async def _check(self, uri: str, delay: float) -> None:
        try:
            if delay > 0:
                await asyncio.sleep(delay)
            document = self.open_document(uri)
            if document is None:
                return
            version = document.version
            snapshot = await self.current(uri)
            document = self.open_document(uri)
            if snapshot is None or document is None or document.version != version:
                return  # stale: a newer check is scheduled (or the document closed)
            self.publish(snapshot)
        except asyncio.CancelledError:
            raise
        except Exception:  # never let one document's failure end the server's checking
            detail = traceback.format_exc(limit=-LOGGED_FRAMES)
            self.log(f"checking {uri} failed:\n{detail}", types.MessageType.Error)
        finally:
            if self._pending.get(uri) is asyncio.current_task():
                del self._pending[uri]

    def publish(self, snapshot: Snapshot) -> None:
        """Diagnostics of a vLLM config; nothing at all for other documents (only an empty
        list once, when a document stops being a config, to clear what it had)."""
        result = snapshot.result
        if result is None:
            if snapshot.uri not in self._checked:
                return
            self._checked.discard(snapshot.uri)
            items: list[types.Diagnostic] = []
        else:
            if snapshot.uri not in self._checked and snapshot.reason is not None:
                why = f"{snapshot.reason}; {snapshot.version_source}"
                self.log(f"{snapshot.uri}: checked as a vLLM config ({why})")
            self._checked.add(snapshot.uri)
            items = snapshot.memo["diagnostics"]
            for finding in result.findings:
                if finding.code == "VC000" and (snapshot.uri, finding.message) not in self._logged:
                    self._logged.add((snapshot.uri, finding.message))
                    self.log(f"{snapshot.uri}: {finding.message}", types.MessageType.Error)
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=snapshot.uri, version=snapshot.version, diagnostics=items
            )
        )
        code_cache.save()  # after the diagnostics: what this start compiled, for the next

    def forget(self, uri: str) -> None:
        pending = self._pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        self._snapshots.pop(uri, None)
        self._took.pop(uri, None)
        STORE.forget(uri)
        if uri not in self._checked:
            return
        self._checked.discard(uri)
        self.server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )

    def warm_up(self) -> None:
        """Import the engine and load the catalogue before the first document needs them."""
        from vllm_config_lsp.engine import warm_up

        warm_up(self.settings.vllm_version)

    def stop(self) -> None:
        """No more checks: queued ones dropped (a running one finishes)."""
        for task in self._pending.values():
            task.cancel()
        self._pending.clear()
        self.close()

    def close(self) -> None:
        self._lint_pool.shutdown(wait=False, cancel_futures=True)
