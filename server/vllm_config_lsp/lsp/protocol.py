"""JSON-RPC as the LSP specification asks it of a server, where pygls 2.1 falls short:
every request is answered (an error is an answer), a bad message never stops the next
one, and what the handlers leave behind is let go.

What pygls 2.1.1 does, and what happens here instead:

* a body that is no JSON, nested deeper than `json` reads (RecursionError), or over the
  frame bound (`framing.MAX_FRAME`) is logged and dropped, so the request in it waits
  forever (a 100,000-deep `initialize` leaves the client with no server): here it is
  answered ParseError / InvalidRequest, to its id when the head of the body shows one;
* params that do not fit the method's type (missing, a negative position) fail in
  `structure_message`, logged and dropped: here InvalidParams;
* a request before `initialize` reaches its handler, which fails on the missing workspace
  (InternalError with a traceback): here ServerNotInitialized, and notifications before it
  are dropped (the specification), except `exit`;
* a request after `shutdown` is dropped: here InvalidRequest (the specification);
* `_execute_handler` keeps the future of every coroutine, thread and generator handler in
  `_request_futures`; only a request's own answer and `$/cancelRequest` take it out, so the
  future of each notification stays (every text-sync notification runs through a generator,
  about 2 KB per keystroke, +80 MB over 40,000): here a settled future is taken out.
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from cattrs import transform_error
from cattrs.errors import ClassValidationError
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol

from vllm_config_lsp.lsp.framing import MAX_FRAME, Frame, FrameReader

#: The head of a body that cannot be decoded that is searched for the request's id (real
#: clients write `jsonrpc`, `id`, `method` first; the search must stay cheap).
ENVELOPE_BYTES = 4096
#: A JSON token: a string, a structural character, or a bare number or literal.
_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+')
_DECODER = json.JSONDecoder()
#: The reasons given in an InvalidParams answer, at most.
MAX_REASONS = 3

log = logging.getLogger(__name__)


class VllmConfigProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._initialize_seen = False

    def receive(self, frame: Frame, reader: FrameReader) -> None:
        """One frame from the client: decoded, checked and handed to pygls, or answered."""
        if frame.skipped:
            log.warning("skipped %d bytes that were no LSP frame", frame.skipped)
        if frame.oversized:
            self._unreadable(
                frame.body,
                types.ErrorCodes.InvalidRequest,
                f"a message of {frame.declared} bytes is over the {MAX_FRAME}-byte bound",
            )
            return
        if not frame.body.strip():  # a header and no body: nothing to answer
            log.warning("dropped a frame without a body (%d bytes declared)", frame.declared)
            return
        try:
            text = frame.body.decode("utf-8")
            start = len(text) - len(text.lstrip())
            raw, end = _DECODER.raw_decode(text, start)
        except RecursionError:
            self._unreadable(
                frame.body, types.ErrorCodes.InvalidRequest, "the message is nested too deep"
            )
            return
        except ValueError as error:  # not UTF-8, not JSON, cut short
            self._unreadable(frame.body, types.ErrorCodes.ParseError, f"not JSON: {error}")
            return
        if text[end:].strip():  # the frame declared more than its JSON: the next header
            reader.unread(text[end:].encode())
        self._dispatch(raw)

    def _dispatch(self, raw: object) -> None:
        if not isinstance(raw, dict):
            self._answer(None, types.ErrorCodes.InvalidRequest, "a message is a JSON object")
            return
        msg_id, method = raw.get("id"), raw.get("method")
        request = "id" in raw and "method" in raw
        if ("id" in raw and not _is_id(msg_id)) or not isinstance(method, str | None):
            self._answer(None, types.ErrorCodes.InvalidRequest, "a bad id or method")
            return
        if raw.get("jsonrpc") != self.VERSION:
            if request:
                self._answer(msg_id, types.ErrorCodes.InvalidRequest, 'jsonrpc must be "2.0"')
            return
        if not self._initialize_seen and method not in (types.INITIALIZE, types.EXIT):
            if request:  # notifications before `initialize` are dropped (LSP)
                self._answer(msg_id, types.ErrorCodes.ServerNotInitialized, "not initialized")
            return
        if self._shutdown and request:
            self._answer(msg_id, types.ErrorCodes.InvalidRequest, "the server is shut down")
            return
        try:
            message = self.structure_message(raw)
        except JsonRpcException as error:  # logged by pygls
            if request:
                self._answer(msg_id, types.ErrorCodes.InvalidParams, f"{method}: {_why(error)}")
            return
        if method == types.INITIALIZE:
            self._initialize_seen = True
        self.handle_message(message)

    def _unreadable(self, body: bytes, code: int, why: str) -> None:
        envelope = _envelope(body[:ENVELOPE_BYTES])
        msg_id = envelope.get("id")
        log.warning("dropped a message (%s); id %r", why, msg_id)
        if "result" in envelope or "error" in envelope:
            return  # an answer to one of ours
        self._answer(msg_id if _is_id(msg_id) else None, code, why)

    def _answer(self, msg_id: object, code: int, message: str) -> None:
        """An error answer (written as a dict: pygls would leave out a null id)."""
        error = {"code": code, "message": message}
        self._send_data({"jsonrpc": self.VERSION, "id": msg_id, "error": error})

    def _execute_handler(
        self,
        msg_id: Any,
        handler: Callable[..., Any],
        callback: Callable[[Future[Any]], None],
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls, with each future taken out of `_request_futures` once it has settled
        (pygls does so only for requests). Not a cancelled one: `shutdown` cancels them
        while it walks that dict, and a plain future runs its callbacks at once."""

        def settled(future: Future[Any]) -> None:
            if not future.cancelled() and self._request_futures.get(msg_id) is future:
                del self._request_futures[msg_id]
            callback(future)

        super()._execute_handler(msg_id, handler, settled, args, kwargs)


def _why(error: JsonRpcException) -> str:
    """What did not fit, as cattrs says it (`required field missing @ $.params`)."""
    cause = error.__cause__
    if isinstance(cause, ClassValidationError):
        return "; ".join(transform_error(cause)[:MAX_REASONS])
    return str(error)


def _is_id(value: object) -> bool:
    return isinstance(value, (int, str)) and not isinstance(value, bool)


def _envelope(head: bytes) -> dict[str, object]:
    """The top-level members with a plain value in the head of a body that could not be
    decoded whole (nested too deep, cut short, too big): enough to answer by id."""
    found: dict[str, object] = {}
    depth = 0
    recent = (b"", b"")  # the last two tokens of the top level
    for match in _TOKEN.finditer(head):
        token = match.group()
        if token in (b"}", b"]"):
            depth -= 1
            continue
        opens = token in (b"{", b"[")
        if depth == 1:
            key, colon = recent
            if colon == b":" and key.startswith(b'"') and not opens:
                with contextlib.suppress(ValueError):
                    found.setdefault(json.loads(key), json.loads(token))
            recent = (colon, token)
        depth += opens
    return found
