"""`lsp.bootstrap` answers `initialize` before pygls is imported: the bytes on stdout must be
exactly what pygls alone writes, for each editor's recorded capabilities and for first
messages the bootstrap leaves to pygls. Every other LSP test runs through the bootstrap too
(`SERVER_COMMAND`), which covers the state pygls keeps from the replayed request (position
encoding, settings from `initializationOptions`, workspace)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from lsp_support import EDITORS, INITIALIZATION_OPTIONS, SERVER_COMMAND, TIMEOUT
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import client_capabilities
from vllm_config_lsp.lsp.bootstrap import CAPABILITIES

#: Settings the server warns about (`window/logMessage`).
BAD = {"initializationOptions": {"vllmConfig": {"debounceMs": "soon", "vllmVersion": 3}}}
#: The server without the bootstrap: pygls reads `initialize` and answers it itself.
PYGLS_ONLY = [sys.executable, "-c", "from vllm_config_lsp.lsp.server import serve; serve()"]


def framed(message: dict[str, Any], headers: bytes = b"") -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n" % len(body) + headers + b"\r\n" + body


def initialize(editor: str, msg_id: int | str = 1) -> dict[str, Any]:
    params = types.InitializeParams(
        capabilities=client_capabilities(editor),
        process_id=None,
        root_uri="file:///tmp/bootstrap-test",
        workspace_folders=[
            types.WorkspaceFolder(uri="file:///tmp/bootstrap-test", name="bootstrap-test")
        ],
        initialization_options=INITIALIZATION_OPTIONS,
    )
    unstructured = default_converter().unstructure(params)  # type: ignore[no-untyped-call]
    return {"jsonrpc": "2.0", "id": msg_id, "method": "initialize", "params": unstructured}


def then_exit(first: bytes) -> bytes:
    """`first`, then shutdown and exit, all in one write: what the bootstrap has buffered
    beyond the first message must reach pygls."""
    shutdown = framed({"jsonrpc": "2.0", "id": 99, "method": "shutdown"})
    return first + shutdown + framed({"jsonrpc": "2.0", "method": "exit"})


def run(command: list[str], stdin: bytes) -> tuple[int, bytes]:
    process = subprocess.run(
        command, input=stdin, capture_output=True, timeout=TIMEOUT * 2, check=False
    )
    assert b"differs from pygls'" not in process.stderr  # `SkipAnswer`'s drift check
    return process.returncode, process.stdout


def messages(stdout: bytes) -> list[dict[str, Any]]:
    out = []
    while stdout:
        header, _, rest = stdout.partition(b"\r\n\r\n")
        length = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
        out.append(json.loads(rest[:length]))
        stdout = rest[length:]
    return out


def same_output(stdin: bytes) -> list[dict[str, Any]]:
    expected = run(PYGLS_ONLY, stdin)
    actual = run(SERVER_COMMAND, stdin)
    assert actual == expected
    return messages(actual[1])


@pytest.mark.parametrize("editor", EDITORS)
def test_initialize_answer_is_pyglss(editor: str) -> None:
    """Byte for byte, once: the capabilities constant, the encoding each editor gets."""
    answers = same_output(then_exit(framed(initialize(editor))))
    assert [m.get("id") for m in answers] == [1, 99]
    capabilities = answers[0]["result"]["capabilities"]
    assert {k: v for k, v in capabilities.items() if k != "positionEncoding"} == CAPABILITIES
    expected = {"visual-studio-code": "utf-16", "neovim": "utf-8", "emacs": "utf-32"}
    assert capabilities["positionEncoding"] == expected[editor]


@pytest.mark.parametrize(
    "first",
    [
        framed(initialize("emacs", "init-1")),  # a string id
        framed(initialize("neovim", 7), b"Content-Type: application/vscode-jsonrpc\r\n"),
        # left to pygls: another first message, a shape pygls refuses, not JSON
        framed({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}),
        framed({**initialize("neovim"), "params": {"processId": "x", "capabilities": {}}}),
        framed({**initialize("neovim"), "params": {"capabilities": {"general": []}}}),
        b"Content-Length: 5\r\n\r\n{nope",
        # settings problems are logged before the answer: only pygls keeps that order
        framed({**initialize("emacs"), "params": {**initialize("emacs")["params"], **BAD}}),
    ],
    ids=[
        "string-id",
        "extra-header",
        "not-initialize",
        "bad-process-id",
        "bad-general",
        "junk",
        "bad-settings",
    ],
)
def test_other_first_messages_as_pygls(first: bytes) -> None:
    same_output(then_exit(first))


def test_answered_before_pygls_is_imported() -> None:
    """The point of the bootstrap: the answer is written with neither pygls nor lsprotocol
    imported (their import is most of the start-up time)."""
    script = (
        "import io, sys\n"
        "from vllm_config_lsp.lsp.bootstrap import start\n"
        "out = io.BytesIO()\n"
        "start(io.BytesIO(sys.stdin.buffer.read()), out)\n"
        "assert not {'pygls', 'lsprotocol', 'cattrs'} & set(sys.modules), sorted(sys.modules)\n"
        "sys.stdout.buffer.write(out.getvalue())\n"
    )
    stdin = framed(initialize("emacs"))
    early = subprocess.run(
        [sys.executable, "-c", script], input=stdin, capture_output=True, timeout=TIMEOUT
    )
    assert early.returncode == 0, early.stderr.decode()
    pygls_answer = run(PYGLS_ONLY, then_exit(stdin))[1]
    assert early.stdout and pygls_answer.startswith(early.stdout)
