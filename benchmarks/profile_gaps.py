#!/usr/bin/env python3
"""Profiles behind the targets that `run.py` shows as missed (see benchmarks/README.md, "Gaps").

Writes small text files to benchmarks/profiles/:

* `startup.txt`: wall time of bare `python`, of the pygls/lsprotocol imports and of our server
  module, then `python -X importtime` (median of 5 runs) sorted by cumulative time and summed
  per top-level package.
* `spawn.txt`: spawn → first diagnostics (run.py's row) taken apart: a timeline over stdio
  (the `initialize` answer, the server's first `workspace/configuration` request, i.e. pygls
  imported and running, the first `publishDiagnostics`), fresh processes for each stage of
  the start, and `-X importtime` of the live server (both threads) per top-level package.
* `compute-typical.txt`, `compute-markdown.txt`: cProfile of run.py's "server compute per
  change" (`run.measure_compute`: association, `engine.lint`, diagnostics) on the typical
  config and the 2,000-line Markdown recipe: CPU time per change, the top functions by
  cumulative time, and the time of each rule's `check` summed per rule.
* `rss.txt`: VmRSS after each start-up stage, in fresh processes, and the live server; then
  tracemalloc (Python allocations) per stage, by file.
* `latency-<name>.txt`: py-spy (1,000 Hz) on the live server while it answers one kind of
  request in a loop: the top frames, inclusive and self.

Not a test, about 2 minutes:
`python benchmarks/profile_gaps.py [--only startup|spawn|compute|rss|latency]`.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "profiles"
sys.path.insert(0, str(HERE))

import run  # noqa: E402

PY = sys.executable


def wall(code: str, runs: int = 10) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([PY, "-c", code], check=True)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def importtime(code: str, runs: int = 5) -> dict[str, tuple[float, float, int]]:
    """name → (median self ms, median cumulative ms, depth)."""
    seen: dict[str, list[tuple[int, int]]] = collections.defaultdict(list)
    depth: dict[str, int] = {}
    for _ in range(runs):
        err = subprocess.run(
            [PY, "-X", "importtime", "-c", code], capture_output=True, text=True, check=True
        ).stderr
        for line in err.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
            if match:
                name = match.group(4)
                seen[name].append((int(match.group(1)), int(match.group(2))))
                depth[name] = len(match.group(3)) // 2
    return {
        name: (
            statistics.median(s for s, _ in values) / 1000,
            statistics.median(c for _, c in values) / 1000,
            depth[name],
        )
        for name, values in seen.items()
    }


def startup() -> None:
    lines = [f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}", ""]
    lines.append("Wall time of a fresh process, median of 10 (ms):")
    for label, code in (
        ("python -c pass", "pass"),
        ("import lsprotocol.types", "import lsprotocol.types"),
        ("import lsprotocol.types, pygls.lsp.server", "import lsprotocol.types, pygls.lsp.server"),
        ("import vllm_config_lsp.cli.main, vllm_config_lsp.lsp.server", START),
    ):
        lines.append(f"  {wall(code):7.1f}  {label}")
    server = run.servers()[0]
    samples = []
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(10):
            client, elapsed = server.start(Path(folder))
            samples.append(elapsed * 1000)
            client.close()
    lines.append(f"  {statistics.median(samples):7.1f}  spawn → initialize answer (run.py's row)")
    lines.append("")

    baseline = importtime("pass")
    ours = importtime(START)
    total_pass = sum(s for s, _, _ in baseline.values())
    total = sum(s for s, _, _ in ours.values())
    lines.append(
        f"-X importtime, median of 5 runs (importtime itself adds overhead): "
        f"sum of self times {total:.1f} ms for `{START}`, {total_pass:.1f} ms for `pass`"
    )
    lines.append("")
    lines.append("Self time summed per top-level package (ms, share of the sum):")
    per_package: collections.Counter[str] = collections.Counter()
    for name, (self_ms, _, _) in ours.items():
        if name not in baseline:
            per_package[name.split(".")[0]] += self_ms
    for package, ms in per_package.most_common(15):
        lines.append(f"  {ms:7.1f}  {100 * ms / total:5.1f}%  {package}")
    lines.append("")
    lines.append("Top 25 by cumulative time (ms; self; depth):")
    ranked = sorted(ours.items(), key=lambda item: -item[1][1])
    for name, (self_ms, cumulative, level) in ranked[:25]:
        lines.append(f"  {cumulative:7.1f}  self {self_ms:6.1f}  {'  ' * level}{name}")
    write("startup.txt", lines)


START = "import vllm_config_lsp.cli.main, vllm_config_lsp.lsp.server"

RSS_STAGE = r"""
import sys, time
def rss():
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS'):
            return int(line.split()[1]) / 1024
stage = int(sys.argv[1])
if stage >= 1:
    import lsprotocol.types, pygls.lsp.server
if stage >= 2:
    import vllm_config_lsp.lsp.server as s
if stage >= 3:
    s.SERVER.warm_up()
keep = []
if stage >= 4:
    sys.path.insert(0, sys.argv[2])
    import run
    from vllm_config_lsp.engine import lint
    for doc in run.documents():
        keep.append(lint(doc.text, version='0.33.0'))
print(f'{rss():.1f}')
"""

STAGES = (
    "python, nothing imported",
    "+ import lsprotocol.types, pygls.lsp.server",
    "+ import vllm_config_lsp.lsp.server (pygls server object, features registered)",
    "+ warm_up(): PyYAML, catalogue 0.33.0, the rule modules, one lint",
    "+ engine.lint of the three documents, results kept (in process, no LSP)",
)

TRACE = r"""
import sys, tracemalloc, gc
tracemalloc.start(1)
sys.path.insert(0, sys.argv[1])
snaps = [tracemalloc.take_snapshot()]
import lsprotocol.types, pygls.lsp.server
snaps.append(tracemalloc.take_snapshot())
import vllm_config_lsp.lsp.server as s
snaps.append(tracemalloc.take_snapshot())
s.SERVER.warm_up()
gc.collect()
snaps.append(tracemalloc.take_snapshot())
import run
from vllm_config_lsp.engine import lint
keep = [lint(doc.text, version='0.33.0') for doc in run.documents()]
gc.collect()
snaps.append(tracemalloc.take_snapshot())
names = ['lsprotocol + pygls imports', 'our server module', 'warm_up (engine, catalogue, rules)',
         'lint the three documents (kept)']
import re
def short(name):
    name = re.sub(r'.*/site-packages/', '', name)
    return re.sub(r'.*/server/vllm_config_lsp/', 'vllm_config_lsp/', name)
for before, after, name in zip(snaps, snaps[1:], names):
    stats = after.compare_to(before, 'filename')
    total = sum(st.size_diff for st in stats)
    print(f'{name}: +{total / 2**20:.1f} MB traced')
    for st in stats[:10]:
        where = short(st.traceback[0].filename)
        print(f'  {st.size_diff / 2**20:6.2f} MB  {st.count_diff:8d} blocks  {where}')
stats = snaps[-1].compare_to(snaps[-2], 'lineno')
print('lint the three documents, top 12 lines:')
for st in stats[:12]:
    frame = st.traceback[0]
    print(f'  {st.size_diff / 2**20:6.2f} MB  {short(frame.filename)}:{frame.lineno}')
"""


SPAWN_STAGES = (
    ("python -c pass", "pass"),
    ("import lsprotocol.types, pygls.lsp.server", "import lsprotocol.types, pygls.lsp.server"),
    ("+ import vllm_config_lsp.lsp.server", "import vllm_config_lsp.lsp.server"),
    (
        "+ SERVER.warm_up() (engine, catalogue 0.33.0, rules, one lint)",
        "import vllm_config_lsp.lsp.server as s; s.SERVER.warm_up()",
    ),
    (
        "engine alone: import engine, one lint (no pygls)",
        "from vllm_config_lsp.engine import lint; lint('model: warm-up\\n', version='0.33.0')",
    ),
)


def spawn_timeline(server: run.Server, folder: Path, runs: int) -> list[str]:
    doc = run.documents()[0]
    marks: dict[str, list[float]] = collections.defaultdict(list)
    for index in range(runs + 1):
        client, init = server.start(folder)
        try:
            uri = (folder / f"spawn-{index}.vllm.yaml").as_uri()
            run.open_document(client, uri, doc)
            first = client.wait_published(uri, 0.0).at - client.started
            pulled = client.requested_at.get("workspace/configuration", client.started)
            if index:  # the first run is a warm-up
                marks["initialize answer"].append(init * 1000)
                marks["server's workspace/configuration request (pygls running)"].append(
                    (pulled - client.started) * 1000
                )
                marks["first publishDiagnostics"].append(first * 1000)
        finally:
            client.close()
    return [f"  {statistics.median(v):7.1f}  {k}" for k, v in marks.items()]


def spawn() -> None:
    lines = [f"python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}", ""]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for server in run.servers():
            if server.name == run.YAML:
                continue
            lines.append(f"{server.name}: spawn → ..., median of 10 fresh processes (ms):")
            lines += spawn_timeline(server, folder, 10)
            lines.append("")
        lines.append("Wall time of a fresh process per stage of the start, median of 10 (ms):")
        for label, code in SPAWN_STAGES:
            lines.append(f"  {wall(code):7.1f}  {label}")
        lines.append("")
        seen: dict[str, list[float]] = collections.defaultdict(list)
        for index in range(5):
            err = folder / f"importtime-{index}.txt"
            with err.open("w") as stream:
                command = [PY, "-X", "importtime", "-m", "vllm_config_lsp", "--stdio"]
                server = run.Server("importtime", command, {}, "", stream)
                client, _ = server.start(folder)
                try:
                    uri = (folder / f"importtime-{index}.vllm.yaml").as_uri()
                    run.open_document(client, uri, run.documents()[0])
                    client.wait_published(uri, 0.0)
                finally:
                    client.close()
            per_package: collections.Counter[str] = collections.Counter()
            for line in err.read_text().splitlines():
                match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
                if match:
                    per_package[match.group(4).split(".")[0]] += int(match.group(1)) / 1000
            for package, ms in per_package.items():
                seen[package].append(ms)
    medians = {package: statistics.median(values) for package, values in seen.items()}
    total = sum(medians.values())
    lines.append(
        "-X importtime of the live server (spawn, initialize, didOpen, first diagnostics; "
        f"both threads), median of 5: sum of self times {total:.1f} ms; per top-level "
        "package (ms, share):"
    )
    for package, ms in sorted(medians.items(), key=lambda item: -item[1])[:15]:
        lines.append(f"  {ms:7.1f}  {100 * ms / total:5.1f}%  {package}")
    write("spawn.txt", lines)


def compute(repeats: int = 200) -> None:
    """cProfile of `run.measure_compute` (the "server compute per change" rows)."""
    import cProfile
    import io
    import pstats

    for name, doc in (
        ("compute-typical.txt", run.documents()[0]),
        ("compute-markdown.txt", run.host_documents()[1]),
    ):
        plain = run.Results()
        run.measure_compute([doc], repeats, plain)
        cpu = next(r for r in plain.rows if r["metric"].endswith("(CPU)"))
        profile = cProfile.Profile()
        profile.enable()
        run.measure_compute([doc], repeats, run.Results())
        profile.disable()
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats("cumulative").print_stats(45)
        lines = [
            f"load average {os.getloadavg()[0]:.2f}; {doc.name}: run.measure_compute, "
            f"{2 * repeats} keystrokes and deletions: {cpu['median']:.2f} ms CPU per change "
            f"(keystroke {cpu['typed_median_ms']:.2f}, deletion {cpu['deleted_median_ms']:.2f}) "
            "without the profiler; cProfile below (it slows Python calls ~2x: read shares)",
            "",
        ]
        lines += [
            re.sub(r"\S*/(site-packages|server|python3\.\d+)/", "", line)
            for line in out.getvalue().splitlines()
        ]
        entries = stats.stats  # type: ignore[attr-defined]
        per_rule = sorted(
            (
                (cumulative, file.split("/rules/")[1])
                for (file, _, function), (_, _, _, cumulative, _) in entries.items()
                if "/rules/" in file and function == "check"
            ),
            reverse=True,
        )
        changes = 2 * repeats
        in_rules = sum(c for c, _ in per_rule) / changes * 1000
        lines += [
            "",
            f"rule checks: {len(per_rule)} rules ran, {in_rules:.2f} ms of profiled time per "
            "change; the 15 costliest (ms per change, profiled):",
        ]
        lines += [f"  {c / changes * 1000:6.3f}  {rule}" for c, rule in per_rule[:15]]
        write(name, lines)


def rss() -> None:
    lines = [f"load average {os.getloadavg()[0]:.2f}", "", "VmRSS of a fresh process (MB):"]
    for stage, label in enumerate(STAGES):
        values = [
            float(
                subprocess.run(
                    [PY, "-c", RSS_STAGE, str(stage), str(HERE)],
                    capture_output=True,
                    text=True,
                    check=True,
                ).stdout
            )
            for _ in range(3)
        ]
        lines.append(f"  {statistics.median(values):6.1f}  {label}")
    lines.append("")
    lines.append("The live server (run.py's client, default settings) (MB):")
    server = run.servers()[0]
    with tempfile.TemporaryDirectory() as folder:
        client, _ = server.start(Path(folder))
        try:
            time.sleep(2.0)
            lines.append(f"  {client.rss_kb()[0] / 1024:6.1f}  after initialized and warm-up")
            for copy in (1, 2):
                for index, doc in enumerate(run.documents()):
                    uri = (Path(folder) / f"d{copy}-{index}.vllm.yaml").as_uri()
                    item = {"uri": uri, "languageId": "yaml", "version": 1, "text": doc.text}
                    sent = client.notify("textDocument/didOpen", {"textDocument": item})
                    client.wait_published(uri, sent)
                time.sleep(0.5)
                label = "the three documents open" if copy == 1 else "two copies of each open"
                lines.append(f"  {client.rss_kb()[0] / 1024:6.1f}  {label}")
        finally:
            client.close()
    lines.append("  (run.py's RSS row has six documents open: the three edited, the three opened)")
    lines.append("")
    lines.append("tracemalloc (Python allocations only, size delta per stage, by file):")
    out = subprocess.run(
        [PY, "-c", TRACE, str(HERE)], capture_output=True, text=True, check=True
    ).stdout
    lines.extend(out.splitlines())
    write("rss.txt", lines)


def collapse(raw: Path) -> tuple[int, collections.Counter[str], collections.Counter[str]]:
    total, inclusive, leaf = 0, collections.Counter(), collections.Counter()
    for line in raw.read_text().splitlines():
        match = re.match(r"(.*) (\d+)$", line)
        if not match:  # py-spy's closing summary line
            continue
        stack, count = match.groups()
        frames = [
            re.sub(r":\d+\)$", ")", re.sub(r"\(.*/(site-packages|server)/", "(", frame))
            for frame in stack.split(";")
            if not frame.startswith(("process ", "thread "))
        ]
        samples = int(count)
        total += samples
        for frame in set(frames):
            inclusive[frame] += samples
        if frames:
            leaf[frames[-1]] += samples
    return total, inclusive, leaf


def latency(name: str, doc_index: int, method: str, repeats: int) -> None:
    server = run.servers()[0]
    doc = run.documents()[doc_index]
    raw = OUT / f".{name}.raw"
    with tempfile.TemporaryDirectory() as folder:
        client, _ = server.start(Path(folder))
        try:
            time.sleep(2.0)
            uri = (Path(folder) / "doc.vllm.yaml").as_uri()
            item = {"uri": uri, "languageId": "yaml", "version": 1, "text": doc.text}
            client.wait_published(
                uri, client.notify("textDocument/didOpen", {"textDocument": item})
            )
            spy = subprocess.Popen(
                [
                    *("py-spy", "record", "--pid", str(client.process.pid), "--rate", "1000"),
                    *("--format", "raw", "--output", str(raw), "--threads", "--nonblocking"),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            time.sleep(1.0)
            line, column = doc.toggle_position()
            timings = []
            for step in range(repeats):
                if method == "didChange":
                    at = {"line": line, "character": column}
                    end = at if step % 2 == 0 else {"line": line, "character": column + 1}
                    change = {
                        "range": {"start": at, "end": end},
                        "text": "x" if step % 2 == 0 else "",
                    }
                    version = step + 2
                    sent = client.notify(
                        "textDocument/didChange",
                        {
                            "textDocument": {"uri": uri, "version": version},
                            "contentChanges": [change],
                        },
                    )
                    published = client.wait_published(
                        uri, sent, lambda p, v=version: p.version in (None, v)
                    )
                    timings.append((published.at - sent) * 1000)
                else:
                    position = {"line": line, "character": 3}
                    elapsed, _ = client.request(
                        method, {"textDocument": {"uri": uri}, "position": position}
                    )
                    timings.append(elapsed * 1000)
            spy.send_signal(signal.SIGINT)
            spy.wait(timeout=60)
        finally:
            client.close()
    total, inclusive, leaf = collapse(raw)
    raw.unlink()
    lines = [
        f"py-spy record --rate 1000 --threads --nonblocking (idle threads excluded) on the live "
        f"server; {repeats} x {method} on {doc.name}; median {statistics.median(timings):.2f} ms "
        f"per request while sampled; {total} samples; load average {os.getloadavg()[0]:.2f}",
        "",
        "Top 30 frames, inclusive (% of samples):",
    ]
    lines += [f"  {100 * n / total:5.1f}%  {frame}" for frame, n in inclusive.most_common(30)]
    lines += ["", "Top 20 frames, self (% of samples):"]
    lines += [f"  {100 * n / total:5.1f}%  {frame}" for frame, n in leaf.most_common(20)]
    write(f"latency-{name}.txt", lines)


def write(name: str, lines: list[str]) -> None:
    OUT.mkdir(exist_ok=True)
    (OUT / name).write_text("\n".join(lines) + "\n")
    print(f"--- {name}\n" + "\n".join(lines), flush=True)


LATENCY = {
    "didchange-corpus": (1, "didChange", 1000),
}


def main() -> int:
    run.precompile()  # as pip install does (see run.precompile)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["startup", "spawn", "compute", "rss", "latency"])
    args = parser.parse_args()
    if args.only in (None, "startup"):
        startup()
    if args.only in (None, "spawn"):
        spawn()
    if args.only in (None, "compute"):
        compute()
    if args.only in (None, "rss"):
        rss()
    if args.only in (None, "latency"):
        for name, (index, method, repeats) in LATENCY.items():
            latency(name, index, method, repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
