"""A local stand-in for the Hugging Face Hub's file endpoints, for tests that fetch model
files (`models pull`, the VC600 code action) through `HF_ENDPOINT`: never the network.

It answers `HEAD`/`GET /{org}/{name}/resolve/{revision}/{file}` as the Hub does for
huggingface_hub: the commit in `X-Repo-Commit`, an `ETag`, the bytes; `404` with
`X-Error-Code: EntryNotFound` for a file the repository lacks, `RepoNotFound` for an
unknown repository, and `401`/`403` with `GatedRepo` for a gated one. Every request path is
recorded, so a test can check what was (and was not) asked for.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote

COMMIT = "0e9e39f249a16976918f6564b8830bc894c89659"


class FakeHub:
    def __init__(self, repos: dict[str, dict[str, bytes]], gated: frozenset[str] = frozenset()):
        self.repos = repos
        self.gated = gated
        self.requests: list[str] = []


def _handler(hub: FakeHub, headers: list[str] | None) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            return

        def _answer(self, body: bool) -> None:
            path = unquote(self.path.split("?")[0])
            hub.requests.append(f"{self.command} {path}")
            if headers is not None:
                headers.append(self.headers.get("Authorization") or "")
            parts = path.strip("/").split("/")
            if len(parts) < 5 or parts[2] != "resolve":
                self._error(404, "RepoNotFound")
                return
            repo, name = "/".join(parts[:2]), "/".join(parts[4:])
            if repo in hub.gated:
                self._error(403, "GatedRepo", f"Access to model {repo} is restricted.")
                return
            files = hub.repos.get(repo)
            if files is None:
                self._error(404, "RepoNotFound", "Repository Not Found")
                return
            if name not in files:
                self._error(404, "EntryNotFound", "Entry not found")
                return
            data = files[name]
            self.send_response(200)
            self.send_header("X-Repo-Commit", COMMIT)
            self.send_header("ETag", '"' + hashlib.sha1(data).hexdigest() + '"')
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            if body:
                self.wfile.write(data)

        def _error(self, status: int, code: str, message: str = "") -> None:
            self.send_response(status)
            self.send_header("X-Error-Code", code)
            self.send_header("X-Error-Message", message or code)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_HEAD(self) -> None:
            self._answer(body=False)

        def do_GET(self) -> None:
            self._answer(body=True)

    # http.server calls these by name (`do_` + the method, `log_message`).
    assert Handler.do_HEAD and Handler.do_GET and Handler.log_message
    return Handler


@contextmanager
def serve_hub(hub: FakeHub, headers: list[str] | None = None) -> Iterator[str]:
    """The endpoint URL of `hub`, served on loopback while the block runs (each request's
    Authorization header appended to `headers` when given)."""
    server = _started(hub, headers)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def start_hub(hub: FakeHub) -> str:
    """The endpoint URL of `hub`, served by a daemon thread until the process ends: for a
    module whose language server's environment is fixed when it is imported. (A
    `serve_hub` entered there would be closed only at interpreter exit, where `shutdown`
    waits for a daemon thread that no longer runs: pytest never exits.)"""
    server = _started(hub, None)
    return f"http://127.0.0.1:{server.server_address[1]}"


def _started(hub: FakeHub, headers: list[str] | None) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(hub, headers))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def model_files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
