"""The connection to the client: pygls' server with stdio frames read within a bound
(`framing`), every request answered (`protocol`), and the process's lifecycle (`shutdown`
then `exit`, the client's process watched). The handlers are `server`'s."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from vllm_config_lsp import __version__
from vllm_config_lsp.lsp.framing import FrameReader
from vllm_config_lsp.lsp.protocol import VllmConfigProtocol
from vllm_config_lsp.lsp.session import Session, Snapshot

#: How often the client's process is checked (the LSP `processId` contract).
CLIENT_WATCH_SECONDS = 1.0

log = logging.getLogger(__name__)


class Connection(LanguageServer):
    """The connection (stdio frames, the protocol's answers) and the process's lifecycle;
    the session holds the state. `diagnose` renders a snapshot's diagnostics."""

    protocol: VllmConfigProtocol

    def __init__(self, diagnose: Callable[[Snapshot], list[types.Diagnostic]]) -> None:
        super().__init__("vllm-config-lsp", __version__, protocol_cls=VllmConfigProtocol)
        self.session = Session(self, diagnose)
        self.watcher: asyncio.Future[None] | None = None
        self.shutdown_requested = False

    def report_server_error(self, error: Exception, source: Any) -> None:
        """Errors go to the log, never to a pop-up (users reported pop-ups as noise)."""
        self.session.log(f"internal error: {error!r}", types.MessageType.Error)

    def shutdown(self) -> None:
        self.session.close()
        super().shutdown()  # type: ignore[no-untyped-call]

    def stop_work(self) -> None:
        """LSP `shutdown`: no more checks, queued ones dropped (a running one finishes)."""
        self.shutdown_requested = True
        if self.watcher is not None:
            self.watcher.cancel()
        self.session.stop()

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

    async def watch_client(self, pid: int) -> None:
        """Exit when the editor is gone (LSP `processId`): an orphaned server helps nobody."""
        while True:
            await asyncio.sleep(CLIENT_WATCH_SECONDS)
            if not _alive(pid):
                log.warning("client process %s is gone; exiting", pid)
                os._exit(0)  # the stdin reader thread may block forever: no orderly exit


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
