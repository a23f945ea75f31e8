#!/usr/bin/env python3
"""Benchmarks: vllm-config-lsp side by side with Red Hat's yaml-language-server, and the CLI
against real vLLM. Not a test: run `python benchmarks/run.py` (see benchmarks/README.md).

Both servers are driven the same way, as an editor would: a subprocess speaking JSON-RPC over
stdio, timed from the moment a message is written to the moment the answer is read. Results
go to stdout and to `benchmarks/results.md` / `results.json`.

Debounce: ours is the `debounceMs` setting, set to 0 here (default 200 ms); yaml-language-
server validates 200 ms after the last change (`validationDelayMs`, a constant in its
yamlSettings.js, not a setting), on open as well. Its rows are reported as measured and
with those 200 ms taken off ("compute"), which is the fair comparison.
"""

from __future__ import annotations

import argparse
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

from stress import TOGGLE_LINE, generate  # noqa: E402

SCHEMA = ROOT / "schemas" / "vllm-0.33.0.schema.json"
YAML_LS = HERE / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
YAML_LS_DEBOUNCE_MS = 200  # yamlSettings.js: `this.validationDelayMs = 200`
TIMEOUT = 30.0
ORACLE = Path("/tmp/oracle")


# -- a minimal LSP client ---------------------------------------------------------------------


@dataclass
class Published:
    at: float
    version: int | None
    diagnostics: list[dict[str, Any]]


class Client:
    """One server process; a reader thread stamps every message on arrival."""

    def __init__(self, command: list[str], settings: dict[str, Any]) -> None:
        self.settings = settings
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        self._next_id = 0
        self.last_answer_at = 0.0
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
    settings: dict[str, Any]
    init_options: dict[str, Any] | None
    debounce_ms: int

    def start(self, workspace: Path) -> tuple[Client, float]:
        client = Client(self.command, self.settings)
        client.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": workspace.as_uri(),
                "capabilities": CLIENT_CAPABILITIES,
                "initializationOptions": self.init_options,
                "workspaceFolders": [{"uri": workspace.as_uri(), "name": "bench"}],
            },
        )
        client.notify("initialized", {})
        if self.settings:
            client.notify("workspace/didChangeConfiguration", {"settings": self.settings})
        # the time from spawning the process to reading the initialize answer
        return client, client.last_answer_at - client.started


def servers() -> list[Server]:
    ours_settings = {"vllmConfig": {"debounceMs": 0}}
    out = [
        Server(
            "vllm-config-lsp",
            [sys.executable, "-m", "vllm_config_lsp", "--stdio"],
            ours_settings,
            ours_settings,
            0,
        )
    ]
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
                "yaml-language-server",
                [node, str(YAML_LS), "--stdio"],
                yaml_settings,
                None,
                YAML_LS_DEBOUNCE_MS,
            )
        )
    else:
        print("yaml-language-server not installed: run `npm ci` in benchmarks/", file=sys.stderr)
    return out


# -- measurements ------------------------------------------------------------------------------


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": statistics.median(ordered), "p95": p95, "n": len(ordered)}


@dataclass
class Document:
    name: str
    text: str
    toggle_line: str  # `key: <int>`: appending `x` makes it an error in both servers

    def toggle_position(self) -> tuple[int, int]:
        lines = self.text.split("\n")
        number = lines.index(self.toggle_line)
        return number, len(self.toggle_line)


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
        Document("typical (39 lines)", typical, "max-num-seqs: 256"),
        Document(
            f"corpus largest ({corpus.name}, {corpus_text.count(chr(10))} lines)",
            corpus_text,
            corpus_toggle,
        ),
        Document("stress (5,000 lines)", generate(5000), TOGGLE_LINE),
    ]


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
            f"  {server:22} {metric:26} {document[:28]:28} "
            f"median {stats['median']:8.2f} ms  p95 {stats['p95']:8.2f} ms  (n={stats['n']})",
            flush=True,
        )


def measure_start(server: Server, workspace: Path, runs: int, results: Results) -> None:
    samples = []
    for _ in range(runs):
        client, elapsed = server.start(workspace)
        samples.append(elapsed)
        client.close()
    results.add(server.name, "-", "start → initialize", samples)


def measure_documents(
    server: Server, workspace: Path, docs: list[Document], runs: int, results: Results
) -> None:
    client, _ = server.start(workspace)
    time.sleep(2.0)  # both servers warm up after `initialized`; measure steady state
    counter = 0

    def uri_for(doc_index: int) -> str:
        nonlocal counter
        counter += 1
        return (workspace / f"doc{doc_index}-{counter}.vllm.yaml").as_uri()

    try:
        for doc_index, doc in enumerate(docs):
            # didOpen → first diagnostics, fresh URIs (the first one is the cold one)
            opens = []
            for _ in range(runs):
                uri = uri_for(doc_index)
                sent = client.notify(
                    "textDocument/didOpen",
                    {
                        "textDocument": {
                            "uri": uri,
                            "languageId": "yaml",
                            "version": 1,
                            "text": doc.text,
                        }
                    },
                )
                published = client.wait_published(uri, sent)
                opens.append(published.at - sent)
                client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
            results.add(
                server.name, doc.name, "didOpen → diagnostics", opens, first_ms=opens[0] * 1000
            )

            # didChange → diagnostics: one character toggles an error on and off
            uri = uri_for(doc_index)
            version = 1
            client.notify(
                "textDocument/didOpen",
                {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "yaml",
                        "version": version,
                        "text": doc.text,
                    }
                },
            )
            client.wait_published(uri, 0.0)
            line, column = doc.toggle_position()
            changes, counts = [], {True: set(), False: set()}
            for step in range(2 * runs):
                version += 1
                broken = step % 2 == 0
                at = {"line": line, "character": column}
                if broken:
                    change = {"range": {"start": at, "end": at}, "text": "x"}
                else:
                    after = {"line": line, "character": column + 1}
                    change = {"range": {"start": at, "end": after}, "text": ""}
                sent = client.notify(
                    "textDocument/didChange",
                    {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]},
                )
                expected = version
                published = client.wait_published(
                    uri, sent, lambda p, v=expected: p.version in (None, v)
                )
                changes.append(published.at - sent)
                counts[broken].add(len(published.diagnostics))
            toggled = counts[True].isdisjoint(counts[False])
            results.add(
                server.name,
                doc.name,
                "didChange → diagnostics",
                changes,
                toggled=toggled,
                counts={str(k): sorted(v) for k, v in counts.items()},
            )
            if not toggled:
                print(f"    warning: the edit did not toggle a diagnostic: {counts}")

            # completion and hover at the toggled key (document as opened)
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

        # resident memory with one copy of every document open
        for doc_index, doc in enumerate(docs):
            uri = uri_for(doc_index)
            sent = client.notify(
                "textDocument/didOpen",
                {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "yaml",
                        "version": 1,
                        "text": doc.text,
                    }
                },
            )
            client.wait_published(uri, sent)
        time.sleep(0.5)
        rss, peak = client.rss_kb()
        results.rows.append(
            {
                "server": server.name,
                "metric": "RSS after opening",
                "rss_mb": rss / 1024,
                "peak_mb": peak / 1024,
            }
        )
        print(f"  {server.name:22} RSS after opening: {rss / 1024:.1f} MB (peak {peak / 1024:.1f})")
    finally:
        client.close()


def measure_compute(docs: list[Document], runs: int, results: Results) -> None:
    """What the server computes per change, in process: association, lint, diagnostics."""
    from vllm_config_lsp.engine import lint
    from vllm_config_lsp.lsp.diagnostics import diagnostics
    from vllm_config_lsp.lsp.positions import Positions
    from vllm_config_lsp.lsp.server import Analysis
    from vllm_config_lsp.lsp.settings import Settings
    from vllm_config_lsp.sources.association import classify
    from vllm_config_lsp.vllm.catalogue import detection_flag_names

    settings = Settings()
    for doc in docs:
        line, _ = doc.toggle_position()
        lines = doc.text.split("\n")
        broken_lines = list(lines)
        broken_lines[line] += "x"
        texts = [doc.text, "\n".join(broken_lines)]
        wall, cpu = [], []
        for step in range(2 * runs + 2):
            text = texts[step % 2]
            started, started_cpu = time.perf_counter(), time.thread_time()
            reason = classify(
                "/bench/doc.vllm.yaml",
                text,
                settings.associations,
                flag_names=detection_flag_names(),
                language_id="yaml",
            )
            result = lint(text, version="0.33.0")
            analysis = Analysis(
                "file:///bench.vllm.yaml",
                step,
                text,
                Positions(text, "utf-16"),
                reason,
                result,
                "0.33.0",
                "bench",
            )
            diagnostics(analysis, settings)
            if step >= 2:  # the first two warm the caches
                wall.append(time.perf_counter() - started)
                cpu.append(time.thread_time() - started_cpu)
        results.add("vllm-config-lsp", doc.name, "server compute per change (wall)", wall)
        results.add("vllm-config-lsp", doc.name, "server compute per change (CPU)", cpu)


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


def table(results: Results) -> str:
    by_key: dict[tuple[str, str], dict[str, dict[str, Any]]] = {}
    for row in results.rows:
        if "median" in row:
            by_key.setdefault((row["metric"], row["document"]), {})[row["server"]] = row
    lines = [
        "| metric | document | vllm-config-lsp median / p95 (ms) | yaml-language-server "
        "median / p95 (ms) | yaml-ls minus its 200 ms debounce | ratio (yaml-ls ÷ ours) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for (metric, document), servers_ in by_key.items():
        ours = servers_.get("vllm-config-lsp")
        theirs = servers_.get("yaml-language-server")
        if ours is None:
            continue
        cell = f"{ours['median']:.1f} / {ours['p95']:.1f}"
        other = compute = ratio = "-"
        if theirs is not None:
            other = f"{theirs['median']:.1f} / {theirs['p95']:.1f}"
            debounced = metric.startswith(("didOpen", "didChange"))
            base = theirs["median"] - (YAML_LS_DEBOUNCE_MS if debounced else 0)
            if debounced:
                compute = f"{base:.1f}"
                ratio = f"{theirs['median'] / ours['median']:.1f}x ({base / ours['median']:.1f}x without debounce)"  # noqa: E501
            else:
                ratio = f"{theirs['median'] / ours['median']:.1f}x"
        lines.append(f"| {metric} | {document} | {cell} | {other} | {compute} | {ratio} |")
    rss = {r["server"]: r for r in results.rows if r["metric"] == "RSS after opening"}
    if "vllm-config-lsp" in rss:
        ours_mb = rss["vllm-config-lsp"]["rss_mb"]
        theirs_mb = rss.get("yaml-language-server", {}).get("rss_mb")
        other = f"{theirs_mb:.0f} MB" if theirs_mb else "-"
        ratio = f"{theirs_mb / ours_mb:.1f}x" if theirs_mb else "-"
        lines.append(
            f"| RSS after opening all three | - | {ours_mb:.0f} MB | {other} | - | {ratio} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="samples per row (default 30)")
    parser.add_argument("--quick", action="store_true", help="5 samples per row")
    parser.add_argument("--no-vllm", action="store_true", help="skip the oracle measurement")
    parser.add_argument("--only", choices=["vllm-config-lsp", "yaml-language-server"])
    args = parser.parse_args()
    runs = 5 if args.quick else args.runs
    info = machine()
    print(json.dumps(info))
    docs = documents()
    results = Results()
    with tempfile.TemporaryDirectory(prefix="vllm-bench-") as tmp:
        workspace = Path(tmp)
        for server in servers():
            if args.only and server.name != args.only:
                continue
            print(f"{server.name} (debounce {server.debounce_ms} ms)")
            measure_start(server, workspace, runs, results)
            measure_documents(server, workspace, docs, runs, results)
    print("in-process compute")
    measure_compute(docs, runs, results)
    print("CLI")
    measure_cli(max(3, runs // 6), results)
    if not args.no_vllm and (ORACLE / "venv" / "bin" / "python").exists():
        measure_vllm(3, results)
    info["load_after"] = os.getloadavg()
    report = (
        f"Run {info['date']} on {info['cpu']}, {info['ram_gb']} GB RAM; load average "
        f"before {info['load_before'][0]:.2f}, after {info['load_after'][0]:.2f}\n\n"
    )
    report += table(results) + "\n"
    other = [
        r for r in results.rows if r["server"] not in ("vllm-config-lsp", "yaml-language-server")
    ]
    for row in other:
        report += (
            f"\n* {row['server']}: {row['metric']} ({row['document']}): median "
            f"{row['median'] / 1000:.2f} s, p95 {row['p95'] / 1000:.2f} s (n={row['n']})"
        )
    print()
    print(report)
    (HERE / "results.md").write_text(report + "\n")
    (HERE / "results.json").write_text(
        json.dumps({"machine": info, "rows": results.rows}, indent=1) + "\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
