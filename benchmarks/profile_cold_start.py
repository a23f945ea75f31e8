#!/usr/bin/env python3
"""Where a fresh process's time goes (issue 35): `python benchmarks/profile_cold_start.py`
writes `benchmarks/profiles/cold-start.txt`. Every figure is the minimum over `--runs` fresh
interpreters (the machine is shared; the minimum is the least disturbed run), in CPU time
(user + system of the process, `time.process_time`) unless it says wall.

* the `check` path as the console command runs it (`cli.main.main`): interpreter start,
  importing the CLI and the engine, the first `check` of the 286-line document
  (`cold_start.document`), of which importing rule modules (and the helpers they import)
  and parsing JSON data files, and a second check of a changed text; `-X importtime` of
  importing the engine, summed per top-level package (self times);
* yamllint's path, the same way: importing `yamllint.cli`, and its run on the same file;
* the server path: importing `vllm_config_lsp.lsp.server` (CPU), and per package the same
  way (`lsprotocol.types` alone is most of it); node's own start (`node -e 0`) beside it;
* the catalogue: what loading one release costs in the two forms the issue names, measured
  on the committed store: the whole `shared-definitions.json` parsed (what
  `load_catalogue` did before), only the definitions the release names (a lazy per-release
  split), and the release pre-joined into one file (the pre-built form it reads now);
* rule modules imported by a first check, per release.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from cold_start import document  # noqa: E402
from run import precompile  # noqa: E402

OUT = HERE / "profiles" / "cold-start.txt"

CHECK_TIMERS = """
import sys, time
c0 = time.process_time()
import contextlib, functools, io, json
from pathlib import Path
from vllm_config_lsp.cli.main import main
from vllm_config_lsp.engine import CheckOptions, Document, check
from vllm_config_lsp import rules
c1 = time.process_time()
spent = {"rules": 0.0, "json": 0.0}
module = rules.Rule.module.func
def timed_module(self):
    t = time.process_time(); found = module(self); spent["rules"] += time.process_time() - t
    return found
prop = functools.cached_property(timed_module); prop.__set_name__(rules.Rule, "module")
rules.Rule.module = prop
loads = json.loads
def timed_loads(*args, **kwargs):
    t = time.process_time(); found = loads(*args, **kwargs)
    spent["json"] += time.process_time() - t
    return found
json.loads = timed_loads  # json.load reads through it
path = Path(sys.argv[1])
with contextlib.redirect_stdout(io.StringIO()):
    main(["check", str(path)])
c2 = time.process_time()
check(Document(path.read_text() + "\\n", path=path), CheckOptions())
c3 = time.process_time()
loaded = sum(1 for name in sys.modules if ".rules." in name)
ran = sum(1 for rule in rules.all_rules() if "module" in rule.__dict__)
print(json.dumps({"import": c1 - c0, "first": c2 - c1, "second": c3 - c2, "rules": spent["rules"],
    "json": spent["json"], "modules": loaded, "rule_modules": ran}))
"""

YAMLLINT_TIMERS = """
import contextlib, io, json, sys, time
c0 = time.process_time()
from yamllint import cli
c1 = time.process_time()
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    cli.run([sys.argv[1]])
c2 = time.process_time()
print(json.dumps({"import": c1 - c0, "run": c2 - c1}))
"""

SERVER_IMPORT = """
import json, time
c0 = time.process_time()
import vllm_config_lsp.lsp.server
c1 = time.process_time()
print(json.dumps({"import": c1 - c0}))
"""

CATALOGUE_FORMS = """
import json, re, sys, time
from vllm_config_lsp.vllm import catalogue, schema_store
version = catalogue.DEFAULT_VERSION
folder = catalogue.schema_dir()
shared_text = (folder / "shared-definitions.json").read_text(encoding="utf-8")
entry_text = catalogue.catalogue_path(version).read_text(encoding="utf-8")
t0 = time.perf_counter(); shared = json.loads(shared_text); entry = json.loads(entry_text)
xv = schema_store.join(entry, shared); t1 = time.perf_counter()
names = set(re.findall(r'"([0-9a-f]{12})"', entry_text)) & set(shared)
subset = json.dumps({key: shared[key] for key in names}, separators=(",", ":"))
joined = json.dumps(xv, separators=(",", ":"))
t2 = time.perf_counter(); schema_store.join(entry, json.loads(subset)); t3 = time.perf_counter()
json.loads(joined); t4 = time.perf_counter()
print(json.dumps({"whole": t1 - t0, "subset": t3 - t2, "joined": t4 - t3,
    "whole_bytes": len(shared_text), "subset_bytes": len(subset), "joined_bytes": len(joined),
    "definitions": len(shared), "named": len(names)}))
"""


def python(
    code: str, *args: str, flags: tuple[str, ...] = (), interpreter: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [interpreter or sys.executable, *flags, "-c", code, *args],
        capture_output=True,
        text=True,
        check=True,
    )


def importtime(module: str, runs: int) -> dict[str, float]:
    """Self time (ms) per top-level package of importing `module`, minimum per module."""
    best: dict[str, int] = {}
    for _ in range(runs):
        err = python(f"import {module}", flags=("-X", "importtime")).stderr
        for line in err.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
            if match:
                name, self_us = match.group(2), int(match.group(1))
                best[name] = min(best.get(name, self_us), self_us)
    packages: dict[str, float] = defaultdict(float)
    for name, self_us in best.items():
        top = name.split(".")[0]
        key = top if top in ("lsprotocol", "pygls", "cattrs", "yaml", "vllm_config_lsp") else ""
        packages[key or "(standard library and others)"] += self_us / 1000
    if "lsprotocol.types" in best:
        packages["  of which lsprotocol.types"] = best["lsprotocol.types"] / 1000
    return dict(sorted(packages.items(), key=lambda item: -item[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    precompile()
    # as `cold_start.py` runs it: Python writes bytecode, so the compiled-code stores are used
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    lines = [
        f"# {__doc__.splitlines()[0]}",
        f"# minimum of {args.runs} fresh interpreters; CPU time unless it says wall; "
        f"load average {os.getloadavg()[0]:.2f} at the start",
        "",
    ]
    folder = Path(tempfile.mkdtemp(prefix="vllm-cold-profile-"))
    path = folder / "cold.vllm.yaml"
    path.write_text(document(0), encoding="utf-8")
    start = [_cpu([sys.executable, "-c", "pass"]) for _ in range(args.runs)]
    timers = _best(CHECK_TIMERS, str(path), runs=args.runs)
    first = python(CHECK_TIMERS, str(path))
    counts = json.loads(first.stdout)
    lines += [
        "## check path (286-line config, vLLM 0.33.0), `vllm-config-lsp check FILE`",
        f"interpreter start (python -c pass, CPU / wall):  {min(c for c, _ in start) * 1000:6.1f}"
        f" / {min(w for _, w in start) * 1000:.1f} ms",
        f"import the CLI and the engine:              {timers['import']:6.1f} ms",
        f"first check (cli.main.main):                {timers['first']:6.1f} ms",
        f"  of which importing rule modules:          {timers['rules']:6.1f} ms "
        f"({counts['rule_modules']} rules run, {counts['modules']} modules under rules/)",
        f"  of which parsing JSON data files:         {timers['json']:6.1f} ms",
        f"second check (a changed text):              {timers['second']:6.1f} ms",
        "",
    ]
    lint = yamllint_command()
    if lint is not None:
        theirs = _best(YAMLLINT_TIMERS, str(path), runs=args.runs, python_path=lint)
        lines += [
            "## yamllint path, the same file (its default settings)",
            f"import yamllint.cli:                         {theirs['import']:6.1f} ms",
            f"its run on the file:                        {theirs['run']:6.1f} ms",
            "",
        ]
    lines += ["## import vllm_config_lsp.engine, -X importtime self times (ms)"]
    lines += [
        f"{name:40} {ms:6.1f}" for name, ms in importtime("vllm_config_lsp.engine", 3).items()
    ]
    server = _best(SERVER_IMPORT, runs=args.runs)
    lines += [
        "",
        f"## import vllm_config_lsp.lsp.server: {server['import']:.1f} ms CPU; "
        "-X importtime self times (ms)",
    ]
    lines += [
        f"{name:40} {ms:6.1f}" for name, ms in importtime("vllm_config_lsp.lsp.server", 3).items()
    ]
    node = shutil.which("node")
    if node is not None:
        floor = [_cpu([node, "-e", "0"]) for _ in range(args.runs)]
        lines.append(
            f"node -e 0 (node's own start, CPU / wall): {min(c for c, _ in floor) * 1000:.1f}"
            f" / {min(w for _, w in floor) * 1000:.1f} ms"
        )
    forms = [json.loads(python(CATALOGUE_FORMS).stdout) for _ in range(args.runs)]
    first_form = forms[0]
    lines += [
        "",
        "## loading one release's catalogue (0.33.0), JSON parse + join (wall)",
        f"whole shared-definitions.json ({first_form['whole_bytes']:,} bytes, "
        f"{first_form['definitions']:,} definitions): "
        f"{min(f['whole'] for f in forms) * 1000:6.1f} ms",
        f"lazy per release: only the {first_form['named']:,} it names "
        f"({first_form['subset_bytes']:,} bytes): {min(f['subset'] for f in forms) * 1000:6.1f} ms",
        f"pre-built, the release joined ({first_form['joined_bytes']:,} bytes, what "
        f"`load_catalogue` reads): {min(f['joined'] for f in forms) * 1000:6.1f} ms",
    ]
    older = folder / "old.vllm.yaml"
    older.write_text("# vllm-config: version=0.6.6.post1\nmodel: m\n", encoding="utf-8")
    old = json.loads(python(CHECK_TIMERS, str(older)).stdout)
    lines += [
        "",
        f"rules run by a first check of a 0.6.6.post1 two-line config: {old['rule_modules']} "
        f"({old['modules']} modules under rules/)",
    ]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


def yamllint_command() -> str | None:
    """The interpreter yamllint runs with (its console script's), None when not installed."""
    found = Path(sys.executable).with_name("yamllint")
    script = str(found) if found.exists() else shutil.which("yamllint")
    if script is None:
        return None
    first = Path(script).read_text(encoding="utf-8", errors="replace").splitlines()[0]
    return first[2:].strip() if first.startswith("#!") else sys.executable


def _best(code: str, *args: str, runs: int, python_path: str | None = None) -> dict[str, float]:
    """Each figure's minimum (ms) over `runs` fresh interpreters running `code`."""
    found = [json.loads(python(code, *args, interpreter=python_path).stdout) for _ in range(runs)]
    return {key: min(run[key] for run in found) * 1000 for key in found[0]}


def _cpu(command: list[str]) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - started
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (now.ru_utime - used.ru_utime) + (now.ru_stime - used.ru_stime), wall


if __name__ == "__main__":
    raise SystemExit(main())
