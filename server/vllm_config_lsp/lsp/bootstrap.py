"""Answer `initialize` over stdio before pygls and lsprotocol are imported (stdlib and our
settings parser only).

Importing `lsprotocol.types` alone takes longer than the 300 ms start-up budget. So `serve()`
reads the first message here; when it is an `initialize` request of the usual shape, the
answer (the constant capabilities below, the position encoding negotiated as pygls does it,
`serverInfo`) is written at once, byte for byte as pygls would write it. Then pygls is
imported and reads the very same bytes first (`Replay`), so its state (client capabilities,
settings from `initializationOptions`, position encoding, workspace folders, `processId`)
is set exactly as without this module; its own `initialize` answer is dropped (`SkipAnswer`),
after a check that it is the one already sent. Anything else (another first message, a shape
pygls might refuse, `initializationOptions` with problems, which the server logs before its
answer) is left entirely to pygls: nothing is answered early.

`tests/lsp/test_bootstrap.py` keeps `CAPABILITIES` equal to what pygls computes, for the
recorded capabilities of VS Code, Neovim and Emacs.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, BinaryIO

from vllm_config_lsp import __version__

NAME = "vllm-config-lsp"
#: What pygls supports, in no order: the client's first of these wins, else utf-16.
ENCODINGS = frozenset({"utf-8", "utf-16", "utf-32"})
#: pygls' server capabilities for this server, in pygls' key order, without
#: `positionEncoding` (the only part that depends on the client here; it goes first).
CAPABILITIES: dict[str, Any] = {
    "textDocumentSync": {
        "openClose": True,
        "change": 2,
        "willSave": False,
        "willSaveWaitUntil": False,
        "save": False,
    },
    "completionProvider": {"triggerCharacters": [":", '"', " "]},
    "hoverProvider": True,
    "documentSymbolProvider": True,
    "codeActionProvider": {
        "codeActionKinds": [
            "quickfix",
            "source.fixAll.vllm-config",
            "source.migrate.vllm-config",
            "refactor.extract.vllm-config",
            "refactor.inline.vllm-config",
        ]
    },
    "codeLensProvider": {"resolveProvider": False},
    "executeCommandProvider": {
        "commands": ["vllmConfig.migrationReport", "vllmConfig.showCommand"]
    },
    "workspace": {
        "workspaceFolders": {"supported": True, "changeNotifications": True},
        "fileOperations": {},
    },
}
#: pygls' framing (`pygls.io_.run_async`): only this exact header line sets the length.
CONTENT_LENGTH = re.compile(rb"^Content-Length: (\d+)\r\n$")
CONTENT_TYPE = "application/vscode-jsonrpc; charset=utf-8"


def read_first(stream: BinaryIO) -> tuple[bytes, bytes | None]:
    """(every byte read, the body of the first message or None at EOF), framed as pygls
    frames it, so that pygls reading the same bytes again sees the same message."""
    raw = bytearray()
    length = 0
    while True:
        header = stream.readline()
        raw += header
        if not header:
            return bytes(raw), None
        if not length:
            match = CONTENT_LENGTH.fullmatch(header)
            if match:
                length = int(match.group(1))
        if length and not header.strip():
            body = stream.read(length)
            raw += body
            return bytes(raw), body or None


def position_encoding(capabilities: dict[str, Any]) -> str | None:
    """`ServerCapabilitiesBuilder.choose_position_encoding`; None: an unexpected shape."""
    general = capabilities.get("general")
    if general is None:
        return "utf-16"
    if not isinstance(general, dict):
        return None
    offered = general.get("positionEncodings")
    if offered is None:
        return "utf-16"
    if not isinstance(offered, list) or not all(isinstance(item, str) for item in offered):
        return None
    return next((item for item in offered if item in ENCODINGS), "utf-16")


def _optional(params: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> bool:
    value = params.get(key)
    return value is None or (isinstance(value, kind) and not isinstance(value, bool))


def _settings_clean(options: Any) -> bool:
    """Whether the server's `initialize` handler will take `initializationOptions` without a
    word: it logs each problem (`window/logMessage`) before pygls answers, an order only
    pygls itself can keep."""
    if options is None:
        return True
    from vllm_config_lsp.lsp.settings import parse  # stdlib and our light modules only

    problems: list[str] = []
    try:
        parse(options, problems)
    except Exception:  # pygls would answer with an error: its business
        return False
    return not problems


def answer(body: bytes) -> tuple[int | str, bytes] | None:
    """(request id, the framed `initialize` answer) when `body` is an `initialize` request
    pygls will surely accept; None leaves the message to pygls alone."""
    try:
        message = json.loads(body)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    msg_id = message.get("id")
    if message.get("method") != "initialize" or isinstance(msg_id, bool):
        return None
    if not isinstance(msg_id, int | str):
        return None
    params = message.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("capabilities"), dict):
        return None
    if not (
        _optional(params, "processId", int)
        and _optional(params, "rootUri", str)
        and _optional(params, "rootPath", str)
        and _optional(params, "workspaceFolders", list)
    ):
        return None
    encoding = position_encoding(params["capabilities"])
    if encoding is None or not _settings_clean(params.get("initializationOptions")):
        return None
    result = {
        "capabilities": {"positionEncoding": encoding, **CAPABILITIES},
        "serverInfo": {"name": NAME, "version": __version__},
    }
    return msg_id, frame({"id": msg_id, "jsonrpc": "2.0", "result": result})


def frame(message: dict[str, Any]) -> bytes:
    """As `JsonRPCProtocol._send_data` frames a message (ASCII JSON: length in characters
    equals length in bytes)."""
    body = json.dumps(message)
    header = f"Content-Length: {len(body)}\r\nContent-Type: {CONTENT_TYPE}\r\n\r\n"
    return (header + body).encode("utf-8")


class Replay:
    """stdin for pygls: the bytes the bootstrap read, then the stream itself (whose buffer
    still holds whatever arrived with the first message)."""

    def __init__(self, consumed: bytes, stream: BinaryIO) -> None:
        self._consumed = consumed
        self._stream = stream

    def readline(self) -> bytes:
        if self._consumed:
            line, newline, rest = self._consumed.partition(b"\n")
            self._consumed = rest
            line += newline
            if newline:
                return line
            return line + self._stream.readline()
        return self._stream.readline()

    def read(self, size: int) -> bytes:
        head, self._consumed = self._consumed[:size], self._consumed[size:]
        if len(head) < size:
            head += self._stream.read(size - len(head))
        return head


class SkipAnswer:
    """stdout for pygls: drops its `initialize` answer, which the bootstrap already sent.
    pygls writes each message whole (`StdoutWriter`), so a write is one framed message."""

    def __init__(self, msg_id: int | str, sent: bytes, stream: BinaryIO) -> None:
        self._msg_id = msg_id
        self._sent = sent
        self._stream = stream
        self._pending = True

    def write(self, data: bytes) -> int:
        if self._pending and self._is_answer(data):
            self._pending = False
            if data != self._sent:  # the test keeps them equal; say so if a release drifts
                print(
                    f"{NAME}: initialize answer sent early differs from pygls':\n"
                    f"{self._sent!r}\n{data!r}",
                    file=sys.stderr,
                    flush=True,
                )
            return len(data)
        return self._stream.write(data)

    def _is_answer(self, data: bytes) -> bool:
        _, _, body = data.partition(b"\r\n\r\n")
        try:
            message = json.loads(body)
        except ValueError:
            return False
        return (
            isinstance(message, dict)
            and "method" not in message
            and message.get("id") == self._msg_id
        )

    def flush(self) -> None:
        self._stream.flush()

    def close(self) -> None:
        self._stream.close()


def start(stdin: BinaryIO, stdout: BinaryIO) -> tuple[BinaryIO, BinaryIO]:
    """Read the first message, answer it when it is `initialize`; the (stdin, stdout) that
    pygls must use from here on."""
    consumed, body = read_first(stdin)
    early = answer(body) if body is not None else None
    replay: Any = Replay(consumed, stdin)
    if early is None:
        return replay, stdout
    msg_id, sent = early
    stdout.write(sent)
    stdout.flush()
    skip: Any = SkipAnswer(msg_id, sent, stdout)
    return replay, skip


def serve(*, tcp: bool = False, host: str = "127.0.0.1", port: int = 2087) -> None:
    """Entry point of `vllm-config-lsp [--stdio | --tcp]`: over stdio, `initialize` is
    answered here before pygls is imported; TCP (debugging) goes to pygls directly."""
    stdin: BinaryIO | None = None
    stdout: BinaryIO | None = None
    if not tcp:
        stdin, stdout = start(sys.stdin.buffer, sys.stdout.buffer)
    from vllm_config_lsp.lsp.server import serve as serve_pygls

    serve_pygls(tcp=tcp, host=host, port=port, stdin=stdin, stdout=stdout)
