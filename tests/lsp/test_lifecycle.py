"""Robustness and lifecycle: a rule that crashes is logged and the others still report; the
server exits on shutdown/exit (at once, even while a check runs: editors wait for it), on
stdin EOF, and when the client process disappears."""

from __future__ import annotations

import asyncio
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_support import SERVER_COMMAND, TIMEOUT, Doc, _client_factory, wait_until
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

pytestmark = pytest.mark.asyncio(loop_scope="module")

#: Loaded by the server at start (PYTHONPATH): makes one rule raise, as a rule bug would.
CRASHING_RULE = """
import vllm_config_lsp.rules.engine.deprecated_flag as rule

def check(model):
    raise RuntimeError("boom in a rule")

rule.check = check
"""


def _env_with_crashing_rule() -> dict[str, str]:
    hook = Path(tempfile.mkdtemp(prefix="vllm-config-lsp-crash-"))
    atexit.register(shutil.rmtree, hook, ignore_errors=True)
    (hook / "sitecustomize.py").write_text(CRASHING_RULE, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(hook), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


@pytest_lsp.fixture(  # type: ignore[untyped-decorator]
    config=ClientServerConfig(
        server_command=SERVER_COMMAND,
        client_factory=_client_factory,
        server_env=_env_with_crashing_rule(),
    ),
    scope="module",
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"))
    )
    yield
    await lsp_client.shutdown_session()
    server = lsp_client._server  # the subprocess pytest-lsp started
    assert server is not None and server.returncode == 0  # shutdown + exit: a clean exit


async def test_a_crashing_rule_is_logged_and_others_still_report(client: LanguageClient) -> None:
    doc = Doc(
        client, "file:///work/l/crash.vllm.yaml", "swap-space: 1\ndisable-cascade-attn: true\n"
    )
    codes = sorted(str(d.code) for d in await doc.diagnostics())
    assert codes == ["VC000", "VC101"]

    def logged() -> bool:
        return any("boom in a rule" in m.message for m in client.log_messages)

    await wait_until(logged)
    assert not client.messages  # no pop-up (window/showMessage) for it


def _message(payload: dict[str, object]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _start_server(process_id: int | None) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert server.stdin is not None
    params: dict[str, object] = {"processId": process_id, "rootUri": None, "capabilities": {}}
    server.stdin.write(_message({"id": 1, "method": "initialize", "params": params}))
    server.stdin.flush()
    return server


def _wait_exit(server: subprocess.Popen[bytes], timeout: float) -> int | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            return server.returncode
        time.sleep(0.05)
    server.kill()
    server.wait()
    return None


async def test_exits_when_the_client_process_disappears() -> None:
    fake_editor = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    server = _start_server(fake_editor.pid)
    try:
        await asyncio.sleep(0.5)
        assert server.poll() is None
        fake_editor.kill()
        fake_editor.wait()
        assert await asyncio.to_thread(_wait_exit, server, TIMEOUT) == 0
    finally:
        fake_editor.kill()
        if server.poll() is None:
            server.kill()
        server.wait()


async def test_exits_on_end_of_input() -> None:
    server = _start_server(None)
    assert server.stdin is not None
    server.stdin.close()
    assert await asyncio.to_thread(_wait_exit, server, TIMEOUT) == 0


def _send(server: subprocess.Popen[bytes], payload: dict[str, object]) -> None:
    assert server.stdin is not None
    server.stdin.write(_message(payload))
    server.stdin.flush()


def _read_until_response(server: subprocess.Popen[bytes], request_id: int) -> dict[str, object]:
    """Messages from the server until the response to `request_id` (notifications skipped)."""
    assert server.stdout is not None
    while True:
        length = 0
        while (line := server.stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        assert line, "the server closed its output"
        message = json.loads(server.stdout.read(length))
        if message.get("id") == request_id and "method" not in message:
            return dict(message)


#: 3000 unknown flags: checking them keeps the lint thread busy for a while.
BUSY = "model: x\n" + "".join(f"no-such-flag-{i}: {i}\n" for i in range(3000))
#: What "at once" means (Emacs reported "exited with status 9" after 0.7-1.2 s).
EXIT_SECONDS = 0.2


def _exit_seconds(shutdown_first: bool) -> tuple[float, int | None]:
    server = _start_server(os.getpid())
    try:
        _read_until_response(server, 1)
        _send(server, {"method": "initialized", "params": {}})
        document = {"uri": "file:///work/l/busy.vllm.yaml", "languageId": "yaml", "version": 1}
        _send(server, {"method": "textDocument/didOpen", "params": {"textDocument": {
            **document, "text": BUSY}}})  # fmt: skip
        time.sleep(0.3)  # the warm-up, then the big document, are on the lint thread now
        if shutdown_first:
            _send(server, {"id": 2, "method": "shutdown", "params": None})
            assert _read_until_response(server, 2).get("result", "missing") is None
        started = time.monotonic()
        _send(server, {"method": "exit", "params": None})  # stdin stays open, as in an editor
        try:
            code: int | None = server.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            code = None
        return time.monotonic() - started, code
    finally:
        if server.poll() is None:
            server.kill()
        server.wait()
        for stream in (server.stdin, server.stdout):
            if stream is not None:
                stream.close()


async def test_shutdown_then_exit_ends_the_process_at_once() -> None:
    seconds, code = await asyncio.to_thread(_exit_seconds, True)
    assert code == 0  # a clean exit, not a signal
    assert seconds < EXIT_SECONDS, f"exit took {seconds * 1000:.0f} ms"


async def test_exit_without_shutdown_is_status_1() -> None:
    seconds, code = await asyncio.to_thread(_exit_seconds, False)
    assert code == 1  # the LSP specification's answer to an exit without shutdown
    assert seconds < EXIT_SECONDS, f"exit took {seconds * 1000:.0f} ms"
