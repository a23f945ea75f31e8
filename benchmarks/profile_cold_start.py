#!/usr/bin/env python3
"""Where a fresh process's time goes (issue 35): `python benchmarks/profile_cold_start.py`
writes `benchmarks/profiles/cold-start.txt`. Every figure is the minimum over `--runs` fresh
interpreters (the machine is shared; the minimum is the least disturbed run).

* the `check` path: interpreter start, importing the engine, the first check of the
  286-line document (`cold_start.document`) and a second one; and `-X importtime` of
  importing the engine, summed per top-level package (self times);
* the server path: importing `vllm_config_lsp.lsp.server`, summed per package the same way
  (`lsprotocol.types` alone is most of it);
* the catalogue: what loading one release costs in the two forms the issue names, measured
  on the committed store: the whole `shared-definitions.json` parsed (what
  `load_catalogue` does), only the definitions the release names (a lazy per-release
  split), and the release pre-joined into one file (a compact pre-built form);
* rule modules imported by a first check, per release.
"""

from __future__ import annotations

import argparse
import json
import re
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
t0 = time.perf_counter()
from pathlib import Path
from vllm_config_lsp.engine import CheckOptions, Document, check
t1 = time.perf_counter()
path = Path(sys.argv[1]); text = path.read_text()
check(Document(text, path=path), CheckOptions())
t2 = time.perf_counter()
check(Document(text + "\\n", path=path), CheckOptions())
t3 = time.perf_counter()
rules = sum(1 for name in sys.modules if ".rules." in name)
print(f"{t1 - t0} {t2 - t1} {t3 - t2} {rules}")
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


def python(code: str, *args: str, flags: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *flags, "-c", code, *args], capture_output=True, text=True, check=True
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
    lines = [f"# {__doc__.splitlines()[0]}", f"# minimum of {args.runs} fresh interpreters", ""]
    folder = Path(tempfile.mkdtemp(prefix="vllm-cold-profile-"))
    path = folder / "cold.vllm.yaml"
    path.write_text(document(0), encoding="utf-8")
    start = min(_wall([sys.executable, "-c", "pass"]) for _ in range(args.runs))
    timers = [python(CHECK_TIMERS, str(path)).stdout.split() for _ in range(args.runs)]
    best = [min(float(run[i]) for run in timers) * 1000 for i in range(3)]
    lines += [
        "## check path (286-line config, vLLM 0.33.0)",
        f"interpreter start (python -c pass, wall):  {start * 1000:6.1f} ms",
        f"import vllm_config_lsp.engine:             {best[0]:6.1f} ms",
        f"first check:                               {best[1]:6.1f} ms",
        f"second check (a changed text):             {best[2]:6.1f} ms",
        f"rule modules imported by the first check:  {timers[0][3]}",
        "",
        "## import vllm_config_lsp.engine, -X importtime self times (ms)",
    ]
    lines += [
        f"{name:40} {ms:6.1f}" for name, ms in importtime("vllm_config_lsp.engine", 3).items()
    ]
    lines += ["", "## import vllm_config_lsp.lsp.server, -X importtime self times (ms)"]
    lines += [
        f"{name:40} {ms:6.1f}" for name, ms in importtime("vllm_config_lsp.lsp.server", 3).items()
    ]
    forms = [json.loads(python(CATALOGUE_FORMS).stdout) for _ in range(args.runs)]
    first = forms[0]
    lines += [
        "",
        "## loading one release's catalogue (0.33.0), JSON parse + join",
        f"whole shared-definitions.json ({first['whole_bytes']:,} bytes, "
        f"{first['definitions']:,} definitions), today: "
        f"{min(f['whole'] for f in forms) * 1000:6.1f} ms",
        f"lazy per release: only the {first['named']:,} it names ({first['subset_bytes']:,} "
        f"bytes): {min(f['subset'] for f in forms) * 1000:6.1f} ms",
        f"pre-built, the release joined ({first['joined_bytes']:,} bytes): "
        f"{min(f['joined'] for f in forms) * 1000:6.1f} ms",
    ]
    older = folder / "old.vllm.yaml"
    older.write_text("# vllm-config: version=0.6.6.post1\nmodel: m\n", encoding="utf-8")
    counts = python(CHECK_TIMERS, str(older)).stdout.split()[3]
    lines += ["", f"rule modules imported by a first check of a 0.6.6.post1 config: {counts}"]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 0


def _wall(command: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, check=True)
    return time.perf_counter() - started


if __name__ == "__main__":
    raise SystemExit(main())
