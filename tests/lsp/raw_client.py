"""A small synchronous LSP client over stdio for the fuzz and resilience tests: they send
what pytest-lsp's typed client would refuse (stale versions, unknown documents, cancels) and
run many hypothesis examples against one server without an event loop per example."""

from __future__ import annotations

import json
import queue
import resource
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

TIMEOUT = 20.0
SERVER_COMMAND = [sys.executable, "-m", "vllm_config_lsp", "--stdio"]


def frame(message: dict[str, Any] | bytes) -> bytes:
    """A message (or a body as given) with its header."""
    body = message if isinstance(message, bytes) else json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class RawClient:
    """`initialize=False` leaves the handshake to the test; `memory` (bytes) limits the
    server's address space (RLIMIT_AS), so that reading without a bound fails fast; `stderr`
    is where the server's stderr goes (a file), by default nowhere."""

    def __init__(
        self,
        command: list[str] | None = None,
        options: Any = None,
        *,
        initialize: bool = True,
        memory: int | None = None,
        stderr: Any = None,
    ) -> None:
        limit = (
            (lambda: resource.setrlimit(resource.RLIMIT_AS, (memory, memory))) if memory else None
        )
        self.process = subprocess.Popen(
            command or SERVER_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr if stderr is not None else subprocess.DEVNULL,
            preexec_fn=limit,
        )
        self._id = 0
        self._lock = threading.Lock()
        self._answers: dict[object, queue.Queue[dict[str, Any]]] = {}
        self._changed = threading.Condition()
        self.published: dict[str, list[dict[str, Any]]] = {}
        self.logs: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        if initialize:
            self.initialize(options if options is not None else {"vllmConfig": {"debounceMs": 0}})

    def initialize(self, options: Any) -> None:
        self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": None,
                "capabilities": {"general": {"positionEncodings": ["utf-16"]}},
                "initializationOptions": options,
            },
        )
        self.notify("initialized", {})

    def write_raw(self, data: bytes) -> None:
        """Bytes as given: broken frames, garbage, a body without its header."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def _write(self, message: dict[str, Any]) -> None:
        self.write_raw(frame(message))

    def _box(self, ident: object) -> queue.Queue[dict[str, Any]]:
        with self._lock:
            return self._answers.setdefault(ident, queue.Queue())

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line.strip() == b"":
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            message = json.loads(stream.read(length))
            method = message.get("method")
            if method is not None and "id" in message:  # a request from the server
                self._write({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif method == "textDocument/publishDiagnostics":
                with self._changed:
                    params = message["params"]
                    self.published.setdefault(params["uri"], []).append(params)
                    self._changed.notify_all()
            elif method == "window/logMessage":
                with self._changed:
                    self.logs.append(message["params"]["message"])
                    self._changed.notify_all()
            elif "id" in message:  # an answer (to no request when its id is null)
                self._box(message["id"]).put(message)

    def send_request(self, method: str, params: Any) -> int:
        with self._lock:
            self._id += 1
            ident = self._id
        self._write({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        return ident

    def answer(self, ident: object, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The answer to request `ident` (None: an answer with a null id)."""
        return self._box(ident).get(timeout=timeout)

    def request(self, method: str, params: Any) -> Any:
        """The result (an error answer fails the test)."""
        message = self.answer(self.send_request(method, params))
        assert "error" not in message, message
        return message.get("result")

    def notify(self, method: str, params: Any) -> None:
        self._write({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, condition: Callable[[], Any], timeout: float = TIMEOUT) -> Any:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not (value := condition()):
                left = deadline - time.monotonic()
                assert left > 0, "timed out"
                self._changed.wait(left)
            return value

    def diagnostics(self, uri: str, version: int, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """The diagnostics published for `uri` at `version` (waiting for them)."""

        def found() -> list[dict[str, Any]] | None:
            for params in self.published.get(uri, []):
                if params.get("version") == version:
                    return [params["diagnostics"]]  # a list: [] is an answer too
            return None

        result: list[list[dict[str, Any]]] = self.wait(found, timeout)
        return result[0]

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": version, "text": text}},
        )

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
        )

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()


def rss_kb(pid: int) -> int:
    """The resident memory of process `pid`, in KB (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS")
