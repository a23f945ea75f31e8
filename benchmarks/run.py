#!/usr/bin/env python3
"""Benchmarks: vllm-config-lsp side by side with Red Hat's yaml-language-server, and the CLI
against real vLLM. Not a test: run `python benchmarks/run.py` (see benchmarks/README.md).

Both servers are driven the same way, as an editor would: a subprocess speaking JSON-RPC over
stdio, timed from the moment a message is written to the moment the answer is read. Results
go to stdout and to `benchmarks/results.md` / `results.json` (generated files).

As shipped: both servers run with their default settings. Ours is sent no settings at all
(no `initializationOptions`, `workspace/configuration` answered with null), so `debounceMs` is
its default "auto": a change is checked at once unless the document's last check was slow.
yaml-language-server gets only what it needs to check a vLLM config (our JSON schema for
`*.vllm.yaml`, no schema store) and keeps its fixed delay: it validates 200 ms after an open
and after the last change (`validationDelayMs`, a constant in its yamlSettings.js, not a
setting). Its rows are reported as measured (what an editor shows) and, separately labelled,
with those 200 ms taken off (its compute).

Servers: ours as pip installs it (`python -m vllm_config_lsp --stdio`, this interpreter);
yaml-language-server 1.25.0 (`npm ci` in benchmarks/); and, when `client-vscode/bundled/libs`
is filled (`python client-vscode/scripts/bundle_python.py`), ours as the VS Code extension
starts it (`python -I bundled/tool/launcher.py --stdio`, the bundled server and libraries).

Metrics: spawn → first diagnostics (a fresh process, a document opened right after
`initialized`) and spawn → `initialize` answer; didOpen and didChange → diagnostics; completion
and hover; in-process server compute per change; RSS. Documents: a typical config, the
largest corpus config, a generated 5,000-line config (`stress.py`), and a 2,000-line Helm
chart and Markdown recipe (`command_lines.build`), edited by typing at the end of a flag name
(`command_lines.edit_point`) and deleting it again.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import platform
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "server"))

from command_lines import HELM, KEYS, build, edit_point  # noqa: E402
from stress import TOGGLE_LINE, generate  # noqa: E402

SCHEMA = ROOT / "schemas" / "vllm-0.33.0.schema.json"
YAML_LS = HERE / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
YAML_LS_DEBOUNCE_MS = 200  # yamlSettings.js: `this.validationDelayMs = 200`
BUNDLE = ROOT / "client-vscode" / "bundled"
TIMEOUT = 30.0
ORACLE = Path("/tmp/oracle")
VERSION = "0.33.0"
OURS = "vllm-config-lsp"
YAML = "yaml-language-server"
BUNDLED = "vllm-config-lsp (VS Code bundle)"


# -- a minimal LSP client ---------------------------------------------------------------------


@dataclass
class Published:
    at: float
    version: int | None
    diagnostics: list[dict[str, Any]]


class Client:
    """One server process; a reader thread stamps every message on arrival."""

    def __init__(
        self, command: list[str], settings: dict[str, Any], stderr: Any = subprocess.DEVNULL
    ) -> None:
        self.settings = settings
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=ROOT,
        )
        self._next_id = 0
        self.last_answer_at = 0.0
        #: When the server's first request of each method arrived (`workspace/configuration`).
        self.requested_at: dict[str, float] = {}
        self._responses: dict[int, queue.Queue[tuple[float, Any]]] = {}
        self._lock = threading.Lock()
        self.published: dict[str, list[Published]] = {}
        self._published_event = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # transport
    def _write(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            message = json.loads(stream.read(length))
            now = time.perf_counter()
            if "method" in message and "id" in message:
                self.requested_at.setdefault(message["method"], now)
                self._answer(message)
            elif "method" in message:
                if message["method"] == "textDocument/publishDiagnostics":
                    params = message["params"]
                    with self._published_event:
                        self.published.setdefault(params["uri"], []).append(
                            Published(now, params.get("version"), params["diagnostics"])
                        )
                        self._published_event.notify_all()
            elif "id" in message:
                with self._lock:
                    box = self._responses.get(message["id"])
                if box is not None:
                    box.put((now, message.get("result", message.get("error"))))

    def _answer(self, request: dict[str, Any]) -> None:
        result: Any = None
        if request["method"] == "workspace/configuration":
            result = [self.settings.get(item.get("section")) for item in request["params"]["items"]]
        self._write({"jsonrpc": "2.0", "id": request["id"], "result": result})

    # API
    def request(self, method: str, params: Any) -> tuple[float, Any]:
        """(seconds from writing to reading the answer, result)."""
        with self._lock:
            self._next_id += 1
            ident = self._next_id
            box: queue.Queue[tuple[float, Any]] = queue.Queue()
            self._responses[ident] = box
        sent = time.perf_counter()
        self._write({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        at, result = box.get(timeout=TIMEOUT)
        with self._lock:
            del self._responses[ident]
        self.last_answer_at = at
        return at - sent, result

    def notify(self, method: str, params: Any) -> float:
        sent = time.perf_counter()
        self._write({"jsonrpc": "2.0", "method": method, "params": params})
        return sent

    def wait_published(
        self, uri: str, after: float, accept: Callable[[Published], bool] = lambda p: True
    ) -> Published:
        deadline = time.monotonic() + TIMEOUT
        with self._published_event:
            while True:
                for item in self.published.get(uri, []):
                    if item.at >= after and accept(item):
                        return item
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no diagnostics for {uri}")
                self._published_event.wait(left)

    def rss_kb(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) of the server process, in KiB."""
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        values = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        return int(values["VmRSS"].split()[0]), int(values["VmHWM"].split()[0])

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()
            self.process.wait()


CLIENT_CAPABILITIES: dict[str, Any] = {
    "workspace": {"configuration": True, "didChangeConfiguration": {"dynamicRegistration": True}},
    "textDocument": {
        "synchronization": {"didSave": True, "dynamicRegistration": True},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
        "completion": {
            "completionItem": {
                "snippetSupport": True,
                "documentationFormat": ["markdown", "plaintext"],
            }
        },
        "hover": {"contentFormat": ["markdown", "plaintext"]},
    },
    "general": {"positionEncodings": ["utf-16"]},
}


@dataclass
class Server:
    name: str
    command: list[str]
    #: What `workspace/configuration` and `didChangeConfiguration` carry (empty: nothing sent).
    settings: dict[str, Any]
    #: How it delays checks, for the report.
    delay: str
    #: Where the server's stderr goes (profile_gaps.py reads `-X importtime` from it).
    stderr: Any = subprocess.DEVNULL

    def start(self, workspace: Path) -> tuple[Client, float]:
        client = Client(self.command, self.settings, self.stderr)
        client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": workspace.as_uri(),
                "capabilities": CLIENT_CAPABILITIES,
                "initializationOptions": None,
                "workspaceFolders": [{"uri": workspace.as_uri(), "name": "bench"}],
            },
        )
        client.notify("initialized", {})
        if self.settings:
            client.notify("workspace/didChangeConfiguration", {"settings": self.settings})
        # the time from spawning the process to reading the initialize answer
        return client, client.last_answer_at - client.started


def servers() -> list[Server]:
    """Ours (pip install) first, then yaml-language-server and the VS Code bundle if present."""
    auto = 'default "auto": none unless the last check was slow'
    out = [Server(OURS, [sys.executable, "-m", "vllm_config_lsp", "--stdio"], {}, auto)]
    node = shutil.which("node")
    if node and YAML_LS.exists():
        yaml_settings = {
            "yaml": {
                "schemas": {SCHEMA.as_uri(): ["*.vllm.yaml"]},
                "validate": True,
                "hover": True,
                "completion": True,
                "schemaStore": {"enable": False},
            },
            "[yaml]": {},
            "http": {},
            "editor": {"tabSize": 2},
            "files": {},
        }
        out.append(
            Server(
                YAML,
                [node, str(YAML_LS), "--stdio"],
                yaml_settings,
                f"fixed {YAML_LS_DEBOUNCE_MS} ms after every open and change",
            )
        )
    else:
        print("yaml-language-server not installed: run `npm ci` in benchmarks/", file=sys.stderr)
    if (BUNDLE / "libs" / "vllm_config_lsp").is_dir():
        # what client-vscode/src/extension.ts runs (the interpreter: the Python extension's)
        launcher = str(BUNDLE / "tool" / "launcher.py")
        out.append(Server(BUNDLED, [sys.executable, "-I", launcher, "--stdio"], {}, auto))
    else:
        print(
            "no VS Code bundle: run `python client-vscode/scripts/bundle_python.py`",
            file=sys.stderr,
        )
    return out


def precompile() -> None:
    """Bytecode for the server's modules, as `pip install` writes it at install time: this
    machine sets PYTHONDONTWRITEBYTECODE=1, and without `.pyc` files every start compiles
    ~220 modules from source (~170 ms). The bundle's launcher runs with `-I`, which ignores
    that variable, so the bundle writes its own on its first start (its first, untimed run)."""
    compileall.compile_dir(ROOT / "server" / "vllm_config_lsp", quiet=1)


def bundle_state() -> str:
    """Whether the bundled server is this checkout's (the bundle is built from it)."""
    bundled = BUNDLE / "libs" / "vllm_config_lsp"
    if not bundled.is_dir():
        return "absent"
    source = ROOT / "server" / "vllm_config_lsp"
    stale = [
        path.relative_to(source).as_posix()
        for path in sorted(source.rglob("*.py"))
        if not (bundled / path.relative_to(source)).is_file()
        or (bundled / path.relative_to(source)).read_bytes() != path.read_bytes()
    ]
    return f"stale: differs in {', '.join(stale[:5])}" if stale else "built from this checkout"


# -- documents and edits -----------------------------------------------------------------------


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": statistics.median(ordered), "p95": p95, "n": len(ordered)}


@dataclass
class Document:
    """A benchmark document and its edit: keystroke `2k` types `typed[k]` at `offset`,
    keystroke `2k + 1` deletes it again (the diagnostics must differ between the two)."""

    name: str
    text: str
    offset: int
    typed: str
    suffix: str = ".vllm.yaml"
    language_id: str = "yaml"
    #: Why yaml-language-server is not run on it (None: it is).
    not_for_yaml_ls: str | None = None
    #: Whether completion and hover are measured on it (at the edited line).
    requests: bool = True

    def toggle_position(self) -> tuple[int, int]:
        """The edit's LSP position (line, UTF-16 character)."""
        line_start = self.text.rfind("\n", 0, self.offset) + 1
        prefix = self.text[line_start : self.offset]
        return self.text.count("\n", 0, self.offset), len(prefix.encode("utf-16-le")) // 2

    def key(self, step: int) -> str:
        return self.typed[(step // 2) % len(self.typed)]

    def edited(self, step: int) -> str:
        """The text after keystroke `step` (0-based)."""
        if step % 2:
            return self.text
        return self.text[: self.offset] + self.key(step) + self.text[self.offset :]


def config_document(name: str, text: str, toggle_line: str) -> Document:
    """`key: <int>` at `toggle_line`: an `x` after it is an error in both servers."""
    offset = text.index("\n" + toggle_line + "\n") + 1 + len(toggle_line)
    return Document(name, text, offset, "x")


def documents() -> list[Document]:
    typical = (HERE / "documents" / "typical.vllm.yaml").read_text()
    corpus = sorted(
        (ROOT / "tests" / "corpus" / "real").glob("*.yaml"), key=lambda p: (-p.stat().st_size, p)
    )[0]
    corpus_text = corpus.read_text()
    corpus_toggle = next(
        line for line in corpus_text.split("\n") if line.split(":")[0] in ("port", "max-num-seqs")
    )
    return [
        config_document("typical (39 lines)", typical, "max-num-seqs: 256"),
        config_document(
            f"corpus largest ({corpus.name}, {corpus_text.count(chr(10))} lines)",
            corpus_text,
            corpus_toggle,
        ),
        config_document("stress (5,000 lines)", generate(5000), TOGGLE_LINE),
    ]


def findings_of(text: str, host: str) -> list[tuple[str, str]]:
    """What the findings say (their offsets move with any keystroke before them)."""
    from vllm_config_lsp import engine

    found = engine.lint(text, version=VERSION, host=host).findings
    return sorted((f.code, f.message) for f in found)


def changing_point(text: str, host: str) -> int:
    """`command_lines.edit_point` nearest the middle whose keystrokes all change the findings
    (the flag nearest the middle can be a launcher's own `--ray_cluster_size`, which vLLM never
    sees): tried at 0.5, 0.45, 0.55, 0.4, … of the text."""
    before = findings_of(text, host)
    for step in range(10):
        where = 0.5 + (step + 1) // 2 * 0.05 * (-1 if step % 2 else 1)
        point = edit_point(text, where)
        if all(findings_of(text[:point] + key + text[point:], host) != before for key in KEYS):
            return point
    raise SystemExit("no flag whose edit changes the findings")


def host_documents() -> list[Document]:
    """The 2,000-line command-line hosts of `command_lines.py`, built the same way."""
    helm = build(HELM, "---")
    recipe = build(("markdown",))
    return [
        Document(
            f"Helm chart ({helm.count(chr(10)):,} lines)",
            helm,
            changing_point(helm, "kubernetes"),
            KEYS,
            suffix="-chart.yaml",
            requests=False,
        ),
        Document(
            f"Markdown recipe ({recipe.count(chr(10)):,} lines)",
            recipe,
            changing_point(recipe, "markdown"),
            KEYS,
            suffix="-recipe.md",
            language_id="markdown",
            not_for_yaml_ls="not YAML: it checks YAML files against a schema only",
            requests=False,
        ),
    ]


# -- measurements ------------------------------------------------------------------------------


@dataclass
class Results:
    rows: list[dict[str, Any]] = field(default_factory=list)

    def add(
        self, server: str, document: str, metric: str, seconds: list[float], **extra: Any
    ) -> None:
        stats = summary([s * 1000 for s in seconds])
        row = {"server": server, "document": document, "metric": metric, **stats, **extra}
        self.rows.append(row)
        print(
            f"  {server[:24]:24} {metric:30} {document[:28]:28} "
            f"median {stats['median']:8.2f} ms  p95 {stats['p95']:8.2f} ms  (n={stats['n']})",
            flush=True,
        )

    def add_rss(self, server: str, document: str, kib: tuple[int, int]) -> None:
        """`kib`: `Client.rss_kb()`, (VmRSS, VmHWM)."""
        rss, peak = kib
        self.rows.append(
            {
                "server": server,
                "document": document,
                "metric": "RSS",
                "rss_mb": rss / 1024,
                "peak_mb": peak / 1024,
            }
        )
        print(f"  {server[:24]:24} RSS, {document}: {rss / 1024:.1f} MB (peak {peak / 1024:.1f})")

    def skip(self, server: str, document: str, metrics: tuple[str, ...], why: str) -> None:
        for metric in metrics:
            self.rows.append(
                {"server": server, "document": document, "metric": metric, "skipped": why}
            )
        print(f"  {server[:24]:24} skipped {document}: {why}")


def open_document(client: Client, uri: str, doc: Document) -> float:
    item = {"uri": uri, "languageId": doc.language_id, "version": 1, "text": doc.text}
    return client.notify("textDocument/didOpen", {"textDocument": item})


def measure_spawn(
    server: Server, workspace: Path, doc: Document, runs: int, results: Results
) -> None:
    """A fresh process per run: spawn → `initialize` answer, and spawn → the first
    `publishDiagnostics` of `doc`, opened right after `initialized`. One untimed run first
    (kept as `first_ms`: the bundle compiles its bytecode then); RSS after the last run."""
    inits, firsts = [], []
    for index in range(runs + 1):
        client, init = server.start(workspace)
        uri = (workspace / f"spawn-{index}{doc.suffix}").as_uri()
        try:
            open_document(client, uri, doc)
            first = client.wait_published(uri, 0.0).at - client.started
            if index == 0:
                cold = (init * 1000, first * 1000)
            else:
                inits.append(init)
                firsts.append(first)
            if index == runs:
                time.sleep(2.0)  # the warm-up after `initialized` has finished
                rss = client.rss_kb()
        finally:
            client.close()
    results.add(server.name, doc.name, "spawn → first diagnostics", firsts, first_ms=cold[1])
    results.add(server.name, "-", "start → initialize", inits, first_ms=cold[0])
    results.add_rss(server.name, "fresh process, the typical config open", rss)


def signature(published: Published) -> str:
    """Lines and messages (a keystroke moves the characters after it on its line)."""
    found = sorted((d["range"]["start"]["line"], d["message"]) for d in published.diagnostics)
    return json.dumps(found)


def measure_documents(
    server: Server,
    workspace: Path,
    docs: list[Document],
    runs: int,
    results: Results,
    rss_label: str,
) -> None:
    """One process for `docs`: opens, changes, completion and hover, then RSS with one more
    copy of each document open."""
    docs = [doc for doc in docs if server.name != YAML or doc.not_for_yaml_ls is None]
    client, _ = server.start(workspace)
    time.sleep(2.0)  # both servers warm up after `initialized`; measure steady state
    counter = 0

    def uri_for(doc: Document) -> str:
        nonlocal counter
        counter += 1
        return (workspace / f"doc{counter}{doc.suffix}").as_uri()

    try:
        for doc in docs:
            # didOpen → first diagnostics, fresh URIs (the first one is the cold one)
            opens = []
            for _ in range(runs):
                uri = uri_for(doc)
                sent = open_document(client, uri, doc)
                published = client.wait_published(uri, sent)
                opens.append(published.at - sent)
                client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            results.add(
                server.name, doc.name, "didOpen → diagnostics", opens, first_ms=opens[0] * 1000
            )

            # didChange → diagnostics: a keystroke at the edit point, then its deletion
            uri = uri_for(doc)
            client.wait_published(uri, open_document(client, uri, doc))
            version = 1
            line, column = doc.toggle_position()
            at = {"line": line, "character": column}
            typed, deleted = [], []
            seen: dict[bool, set[str]] = {True: set(), False: set()}
            for step in range(2 * runs):
                version += 1
                if step % 2 == 0:
                    change = {"range": {"start": at, "end": at}, "text": doc.key(step)}
                else:
                    after = {"line": line, "character": column + 1}
                    change = {"range": {"start": at, "end": after}, "text": ""}
                sent = client.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
                )
                published = client.wait_published(
                    uri, sent, lambda p, v=version: p.version in (None, v)
                )
                (typed if step % 2 == 0 else deleted).append(published.at - sent)
                seen[step % 2 == 0].add(signature(published))
            # every keystroke's diagnostics differ from those of the text without it
            toggled = len(seen[False]) == 1 and seen[False].isdisjoint(seen[True])
            results.add(
                server.name,
                doc.name,
                "didChange → diagnostics",
                typed + deleted,
                toggled=toggled,
                typed_median_ms=statistics.median(typed) * 1000,
                deleted_median_ms=statistics.median(deleted) * 1000,
                diagnostic_sets={"typed": len(seen[True]), "deleted": len(seen[False])},
            )
            if not toggled:
                print(f"    note: the diagnostics did not change with the edit ({server.name})")

            if doc.requests:  # completion and hover at the edited key (document as opened)
                position = {"line": line, "character": 3}
                for metric, method in (
                    ("completion", "textDocument/completion"),
                    ("hover", "textDocument/hover"),
                ):
                    samples = []
                    for _ in range(runs):
                        elapsed, _ = client.request(
                            method, {"textDocument": {"uri": uri}, "position": position}
                        )
                        samples.append(elapsed)
                    results.add(server.name, doc.name, metric, samples)

        # resident memory with one more copy of every document open
        for doc in docs:
            uri = uri_for(doc)
            client.wait_published(uri, open_document(client, uri, doc))
        time.sleep(0.5)
        results.add_rss(server.name, rss_label, client.rss_kb())
    finally:
        client.close()


def measure_compute(docs: list[Document], runs: int, results: Results) -> None:
    """What the server computes per change, in process, as `Session._analyse` and `publish`
    do it: `engine.check` (association, host, the release chosen once per document as the
    session remembers it, the rules; with the document's path, as model-aware rules look
    beside it), positions and diagnostics; for the keystrokes of the didChange rows
    (`Document.edited`)."""
    from vllm_config_lsp import engine
    from vllm_config_lsp.lsp.diagnostics import diagnostics
    from vllm_config_lsp.lsp.positions import Positions
    from vllm_config_lsp.lsp.session import Snapshot, check_options
    from vllm_config_lsp.lsp.settings import Settings

    settings = Settings()
    options = check_options(settings, None)
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        for doc in docs:
            path = Path(folder) / f"doc{doc.suffix}"
            releases = engine.Releases()
            wall, cpu = [], []
            for step in range(2 * runs + 2):
                text = doc.edited(step)
                started, started_cpu = time.perf_counter(), time.thread_time()
                document = engine.Document(
                    text, uri=path.as_uri(), path=path, language_id=doc.language_id
                )
                checked = engine.check(document, options, releases=releases)
                snapshot = Snapshot(path.as_uri(), step, Positions(text, "utf-16"), checked)
                diagnostics(snapshot, settings)
                if step >= 2:  # the first two warm the caches
                    wall.append(time.perf_counter() - started)
                    cpu.append(time.thread_time() - started_cpu)
            for metric, samples in (("wall", wall), ("CPU", cpu)):
                results.add(
                    OURS,
                    doc.name,
                    f"server compute per change ({metric})",
                    samples,
                    typed_median_ms=statistics.median(samples[::2]) * 1000,
                    deleted_median_ms=statistics.median(samples[1::2]) * 1000,
                )


def measure_cli(runs: int, results: Results) -> None:
    files = sorted(str(p) for p in (ROOT / "tests" / "corpus" / "real").glob("*.yaml"))
    files += sorted(str(p) for p in (ROOT / "tests" / "corpus" / "rejected").glob("*.yaml"))
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "vllm_config_lsp", "check", "--no-model-on-cli", *files],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
            check=False,
        )
        samples.append(time.perf_counter() - started)
    results.add(
        "vllm-config-lsp check",
        f"{len(files)} corpus files",
        "CLI, whole corpus",
        samples,
        files=len(files),
    )


def measure_vllm(runs: int, results: Results) -> None:
    """One bad config through the oracle (vLLM 0.33.0's own parse and validation, one shot)."""
    python = ORACLE / "venv" / "bin" / "python"
    case = ROOT / "tests" / "corpus" / "rejected"
    bad = sorted(case.glob("*.yaml"))[0]
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(
            [str(python), str(ORACLE / "oracle.py"), str(bad)],
            cwd=ORACLE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
            env={**os.environ, "VLLM_TARGET_DEVICE": "cpu", "HF_HUB_OFFLINE": "1"},
        )
        samples.append(time.perf_counter() - started)
    results.add("vLLM 0.33.0 (oracle)", bad.name, "refuse one bad config", samples)


# -- report ------------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    info: dict[str, Any] = {"date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")}
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        fields = dict(line.split(":", 1) for line in lscpu.splitlines() if ":" in line)
        info["cpu"] = (
            f"{fields.get('Model name', '?').strip()}, {fields.get('CPU(s)', '?').strip()} CPUs"
        )
    except OSError:
        info["cpu"] = platform.processor()
    meminfo = Path("/proc/meminfo").read_text().split("\n")[0].split()[1]
    info["ram_gb"] = round(int(meminfo) / 1024 / 1024, 1)
    info["load_before"] = os.getloadavg()
    info["python"] = platform.python_version()
    node = shutil.which("node")
    if node:
        info["node"] = subprocess.run(
            [node, "--version"], capture_output=True, text=True
        ).stdout.strip()
    if YAML_LS.exists():
        info["yaml_language_server"] = json.loads(
            (YAML_LS.parent.parent / "package.json").read_text()
        )["version"]
    return info


def cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return "-"
    if "skipped" in row:
        return f"not run ({row['skipped']})"
    if "rss_mb" in row:
        return f"{row['rss_mb']:.0f} MB"
    return f"{row['median']:.1f} / {row['p95']:.1f}"


def value(row: dict[str, Any] | None) -> float | None:
    if row is None or "skipped" in row:
        return None
    return row["rss_mb"] if "rss_mb" in row else row["median"]


def ordered(results: Results) -> list[dict[str, Any]]:
    """The rows as measured, the in-process compute rows (measured first) last."""
    return sorted(results.rows, key=lambda row: row["metric"].startswith("server compute"))


def by_server(results: Results) -> dict[tuple[str, str], dict[str, dict[str, Any]]]:
    """(metric, document) → server → row, in `ordered` order."""
    out: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for row in ordered(results):
        if row["server"] in (OURS, YAML, BUNDLED):
            out.setdefault((row["metric"], row["document"]), {})[row["server"]] = row
    return out


#: Metrics that include yaml-language-server's fixed delay.
DELAYED = ("spawn → first diagnostics", "didOpen → diagnostics", "didChange → diagnostics")


def table(results: Results) -> str:
    """As shipped: both servers with their default settings."""
    lines = [
        "| metric | document | vllm-config-lsp, defaults: median / p95 (ms) "
        "| yaml-language-server, defaults: median / p95 (ms) | ratio (yaml-ls ÷ ours) "
        f"| yaml-ls minus its fixed {YAML_LS_DEBOUNCE_MS} ms delay (ms) "
        "| ratio without its delay |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for (metric, document), rows in by_server(results).items():
        ours, theirs = rows.get(OURS), rows.get(YAML)
        if ours is None:
            continue
        mine, other = value(ours), value(theirs)
        ratio = compute = compute_ratio = "-"
        if mine and other is not None:
            ratio = f"{other / mine:.1f}x"
            if metric in DELAYED:
                base = other - YAML_LS_DEBOUNCE_MS
                compute, compute_ratio = f"{base:.1f}", f"{base / mine:.1f}x"
        label = "RSS" if metric == "RSS" else metric
        lines.append(
            f"| {label} | {document} | {cell(ours)} | {cell(theirs)} | {ratio} "
            f"| {compute} | {compute_ratio} |"
        )
    return "\n".join(lines)


def bundle_table(results: Results) -> str:
    """The VS Code extension's bundled server next to the pip-installed one."""
    lines = [
        "| metric | document | pip install: median / p95 (ms) "
        "| VS Code bundle: median / p95 (ms) | ratio (bundle ÷ pip) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for (metric, document), rows in by_server(results).items():
        pip, bundled = rows.get(OURS), rows.get(BUNDLED)
        if pip is None or bundled is None:
            continue
        mine, other = value(pip), value(bundled)
        ratio = f"{other / mine:.2f}x" if mine and other is not None else "-"
        lines.append(f"| {metric} | {document} | {cell(pip)} | {cell(bundled)} | {ratio} |")
    return "\n".join(lines) if len(lines) > 2 else ""


def notes(results: Results) -> str:
    out = []
    for row in ordered(results):
        if "skipped" in row:
            continue
        if "typed_median_ms" in row:
            what = "didChange" if row["metric"].startswith("didChange") else row["metric"]
            changed = ""
            if "toggled" in row:
                changed = "; diagnostics changed with every edit: " + (
                    "yes" if row["toggled"] else "no"
                )
            out.append(
                f"* {row['server']}, {what}, {row['document']}: keystroke "
                f"{row['typed_median_ms']:.1f} ms, its deletion {row['deleted_median_ms']:.1f} ms "
                f"(medians){changed}"
            )
        elif "first_ms" in row and row["metric"] != "didOpen → diagnostics":
            out.append(
                f"* {row['server']}, {row['metric']}: the first, untimed run took "
                f"{row['first_ms']:.1f} ms"
            )
    for row in results.rows:
        if row["server"] not in (OURS, YAML, BUNDLED):
            out.append(
                f"* {row['server']}: {row['metric']} ({row['document']}): median "
                f"{row['median'] / 1000:.2f} s, p95 {row['p95'] / 1000:.2f} s (n={row['n']})"
            )
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="samples per row (default 30)")
    parser.add_argument("--quick", action="store_true", help="5 samples per row")
    parser.add_argument("--no-vllm", action="store_true", help="skip the oracle measurement")
    parser.add_argument("--only", choices=[OURS, YAML, "bundle"])
    args = parser.parse_args()
    runs = 5 if args.quick else args.runs
    info = machine()
    info["bundle"] = bundle_state()
    info["PYTHONDONTWRITEBYTECODE"] = os.environ.get("PYTHONDONTWRITEBYTECODE")
    precompile()
    print(json.dumps(info))
    results = Results()
    docs = documents()
    compute = not args.only or args.only == OURS
    if compute:  # first: in a process that has not yet linted the 2,000-line hosts (README)
        print("in-process compute")
        measure_compute(docs, runs, results)
    hosts = host_documents()
    if compute:
        measure_compute(hosts, runs, results)
    with tempfile.TemporaryDirectory(prefix="bench-") as tmp:
        workspace = Path(tmp)
        for server in servers():
            short = "bundle" if server.name == BUNDLED else server.name
            if args.only and short != args.only:
                continue
            print(f"{server.name} (delay: {server.delay})")
            measure_spawn(server, workspace, docs[0], runs, results)
            if server.name == BUNDLED:  # the typical config only
                measure_documents(
                    server, workspace, docs[:1], runs, results, "the typical config, twice"
                )
                continue
            measure_documents(
                server, workspace, docs, runs, results, "six configs open (the three, twice)"
            )
            if server.name == YAML:
                for doc in hosts:
                    if doc.not_for_yaml_ls:
                        results.skip(YAML, doc.name, DELAYED[1:], doc.not_for_yaml_ls)
            label = "the Helm chart and the Markdown recipe, twice each"
            if server.name == YAML:
                label = "the Helm chart, twice"
            measure_documents(server, workspace, hosts, runs, results, label)
    if compute:
        print("CLI")
        measure_cli(max(3, runs // 6), results)
        if not args.no_vllm and (ORACLE / "venv" / "bin" / "python").exists():
            measure_vllm(3, results)
    info["load_after"] = os.getloadavg()
    report = (
        "<!-- Generated by benchmarks/run.py: do not edit; see README.md. -->\n\n"
        f"Run {info['date']} on {info['cpu']}, {info['ram_gb']} GB RAM; load average "
        f"(1 min) before {info['load_before'][0]:.2f}, after {info['load_after'][0]:.2f}; "
        f"{runs} samples per row ({2 * runs} for didChange). Both servers with their default "
        f'settings (ours: debounceMs "auto"; yaml-language-server: its fixed '
        f"{YAML_LS_DEBOUNCE_MS} ms delay).\n\n"
    )
    report += table(results) + "\n"
    bundle = bundle_table(results)
    if bundle:
        report += f"\nVS Code bundle ({info['bundle']}) against pip install:\n\n{bundle}\n"
    report += "\n" + notes(results) + "\n"
    print()
    print(report)
    (HERE / "results.md").write_text(report)
    (HERE / "results.json").write_text(
        json.dumps(
            {"generated_by": "benchmarks/run.py", "machine": info, "rows": results.rows},
            indent=1,
        )
        + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
