"""What the server writes to the editor's log: who it is first, and no pygls noise."""

from __future__ import annotations

import tempfile
from pathlib import Path

from raw_client import RawClient
from vllm_config_lsp import __version__


def test_the_first_log_line_names_the_server_version_and_python() -> None:
    client = RawClient()
    try:
        first = client.wait(lambda: client.logs and client.logs[0])
    finally:
        client.close()
    assert first.startswith(f"vllm-config-lsp {__version__}, Python 3.")


def test_cancelling_an_answered_request_logs_nothing() -> None:
    """Editors cancel requests whose answer is already sent (VS Code does it while typing):
    pygls warns about the unknown id on stderr, which VS Code shows in the output channel."""
    with tempfile.TemporaryDirectory() as folder:
        stderr_path = Path(folder) / "stderr.txt"
        with stderr_path.open("wb") as stderr:
            client = RawClient(stderr=stderr)
            try:
                uri = "file:///work/log/cancel.vllm.yaml"
                client.open(uri, "model: x\n")
                hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}
                answered = client.send_request("textDocument/hover", hover)
                client.answer(answered)
                client.notify("$/cancelRequest", {"id": answered})
                client.notify("$/cancelRequest", {"id": 10_000})  # never sent
                client.request("textDocument/hover", hover)  # both cancels were read
            finally:
                client.close()
        logged = stderr_path.read_text(encoding="utf-8", errors="replace")
    assert "Cancel notification" not in logged, logged
