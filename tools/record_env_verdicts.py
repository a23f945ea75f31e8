#!/usr/bin/env python3
"""Record what the real vLLM says about each environment case
(tests/fidelity/environ/cases.jsonl: an argv and the environment it starts with).

Two runs per case, both with the argv oracle's venv (shared/recipes/oracle: `bash
install.sh`, then `oracle_argv.py` beside `oracle.py` in the oracle folder):

1. `oracle_argv.py --batch` with the case's `env` (vLLM's `vllm serve ARGV` up to
   `create_engine_config()`): its verdict, and the `Unknown vLLM environment variable
   detected` lines vLLM logs on stderr (the oracle keeps them among `cpu_platform_notes`);
2. the engine core's first use of the environment, which the oracle does not reach:
   `EngineCore.__init__` calls `vllm.envs.enable_envs_cache()` (vllm/v1/engine/core.py:248),
   which runs every getter of `envs.environment_variables`; the probe runs each getter
   under the case's environment and records the first exception (`engine_core_envs`), or
   what each variable the case sets is read as (`read_as`: `repr` of the getter's value).

A case may carry `files` (name → text): the `--config` files its argv names, written into
the folder the oracle runs in (and beside the host file the test lints).

    python tools/record_env_verdicts.py --oracle-dir DIR [--out FILE.jsonl]

tests/engine/test_fidelity_environ.py compares the engine with the recorded lines.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "fidelity" / "environ" / "cases.jsonl"
OUT = ROOT / "tests" / "fidelity" / "environ" / "verdicts-0.33.0.jsonl"
KEEP = ("ok", "stage", "step", "error_type", "message", "vllm_version")
UNKNOWN = "Unknown vLLM environment variable detected"

PROBE = r"""
import json, os, sys
os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
base = dict(os.environ)
from vllm import envs
for line in sys.stdin:
    case = json.loads(line)
    os.environ.clear()
    os.environ.update(base)
    os.environ.update(case["env"])
    envs.disable_envs_cache()
    out = {"id": case["id"], "ok": True}
    for name, getter in envs.environment_variables.items():
        try:
            getter()
        except Exception as error:  # what enable_envs_cache() raises first
            out = {"id": case["id"], "ok": False, "variable": name,
                   "error_type": type(error).__name__, "message": str(error)}
            break
    if out["ok"]:
        out["read_as"] = {
            name: repr(envs.environment_variables[name]())
            for name in case["env"] if name in envs.environment_variables
        }
    print(json.dumps(out), flush=True)
"""


def _oracle(oracle_dir: Path, cases: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    python = oracle_dir / "venv" / "bin" / "python"
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        for case in cases:
            handle.write(json.dumps(case) + "\n")
    # A case's `files` (name → text: the `--config` file its argv names) are written into
    # the folder vLLM runs in, where a relative `--config NAME` is found.
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            for name, text in case.get("files", {}).items():
                (Path(folder) / name).write_text(text, encoding="utf-8")
        run = subprocess.run(
            [str(python), str(oracle_dir / "oracle_argv.py"), "--batch", handle.name],
            capture_output=True,
            text=True,
            check=False,
            cwd=folder,
        )
    found = {}
    for line in run.stdout.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            found[result["id"]] = result
    return found


def _probe(oracle_dir: Path, cases: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    python = oracle_dir / "venv" / "bin" / "python"
    stdin = "".join(json.dumps(case) + "\n" for case in cases)
    run = subprocess.run(
        [str(python), "-c", PROBE], input=stdin, capture_output=True, text=True, check=True
    )
    return {r["id"]: r for r in map(json.loads, run.stdout.splitlines())}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--oracle-dir", type=Path, required=True)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    cases = [json.loads(line) for line in CASES.read_text(encoding="utf-8").splitlines()]
    verdicts = _oracle(args.oracle_dir, cases)
    probes = _probe(args.oracle_dir, cases)
    with args.out.open("w", encoding="utf-8") as out:
        for case in cases:
            verdict = verdicts[case["id"]]
            notes = [*verdict.get("warnings", []), *verdict.get("cpu_platform_notes", [])]
            record = {
                **case,
                "oracle": {key: verdict.get(key) for key in KEEP},
                "unknown_env_warnings": [n for n in notes if UNKNOWN in n],
                "engine_core_envs": {k: v for k, v in probes[case["id"]].items() if k != "id"},
            }
            out.write(json.dumps(record, sort_keys=True) + "\n")
    print(f"recorded {len(cases)} cases in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
