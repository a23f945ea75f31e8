"""Record what the real vLLM says about each fidelity case (tests/fidelity/cases/**.yaml).

CI never installs vLLM; it compares the engine with these recorded verdicts
(tests/engine/test_fidelity.py). Recording needs the CPU oracle: vLLM 0.33.0 installed with
`--no-deps` beside the CPU build of torch, run with VLLM_TARGET_DEVICE=cpu and a stub model
config where the model is not local (the team's recipe: shared/recipes/oracle/, `bash
install.sh` makes its venv in ~80 s). Usage:

    python tools/record_vllm_verdicts.py --oracle-dir /path/to/oracle [CASE.yaml ...]

With no case arguments every case without a verdict is recorded (`--all` re-records all).
A case file without `model:` is run as `vllm serve dummy/model --config FILE`.

A case whose header says `# model-policy: as-is` (the model-aware cases in
tests/fidelity/cases/models/) is run with the oracle's `--model-policy as-is`: its model is a
fixture folder given relative to the case file (the oracle runs in the case's folder, as
vLLM resolves local paths against its working directory) or a repository id in the fake
Hugging Face cache tests/fixtures/models/hf-cache (HF_HUB_CACHE points there).

The verdict keeps the oracle's `vllm_version`. A case for an older release names it in a
`# vllm-config: version=X` first line (tests/fidelity/cases/releases/X/) and is recorded with
that release's oracle (`--oracle-dir /work/oracle-X`; the 0.15.1 recipe is
tools/oracle-recipes/0.15.1/, the 0.11.2 and 0.28.0 ones shared/recipes/oracle-releases/); a
case whose release (its marker, else the newest catalogue) is not the oracle's is refused
before anything is written, so no verdict is recorded by one release for a case the engine
judges as another.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))

from vllm_config_lsp.vllm.catalogue import nearest_release  # noqa: E402
from vllm_config_lsp.vllm.versions import choose_version  # noqa: E402

CASES = ROOT / "tests" / "fidelity" / "cases"
VERDICTS = ROOT / "tests" / "fidelity" / "verdicts"
HF_CACHE = ROOT / "tests" / "fixtures" / "models" / "hf-cache"
#: Oracle output fields worth keeping (the rest is environment noise).
KEEP = (
    "ok",
    "stage",
    "step",
    "error_type",
    "message",
    "oracle_notes",
    "cli_args",
    "inconclusive",
    "warnings",
)


def verdict_path(case: Path) -> Path:
    return VERDICTS / case.relative_to(CASES).with_suffix(".json")


def _has_model(case: Path) -> bool:
    return any(line.startswith(("model:", "model :")) for line in case.read_text().splitlines())


def model_policy(case: Path) -> str:
    """`stub` (default) or the case header's `# model-policy: as-is`."""
    head = case.read_text().splitlines()[:5]
    return "as-is" if "# model-policy: as-is" in head else "stub"


def _run_batch(oracle_dir: Path, cases: list[Path], extra: list[str]) -> list[dict[str, Any]]:
    if not cases:
        return []
    python = oracle_dir / "venv" / "bin" / "python"
    command = [str(python), str(oracle_dir / "oracle.py"), "--batch", *map(str, cases), *extra]
    env = {**os.environ, "VLLM_TARGET_DEVICE": "cpu", "HF_HUB_OFFLINE": "1"}
    cwd = None
    if "as-is" in extra:
        env["HF_HUB_CACHE"] = str(HF_CACHE)
        cwd = cases[0].parent
        assert all(c.parent == cwd for c in cases), "as-is cases run per folder"
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if len(rows) != len(cases):
        sys.exit(
            f"oracle returned {len(rows)} verdicts for {len(cases)} cases:\n" + done.stderr[-2000:]
        )
    return rows


def oracle_version(oracle_dir: Path) -> str:
    """The vLLM release installed in the oracle's venv (its dist-info folder's name)."""
    found = sorted(oracle_dir.glob("venv/lib/python*/site-packages/vllm-*.dist-info"))
    if not found:
        sys.exit(f"no vLLM installed in {oracle_dir}/venv")
    return found[0].name.removeprefix("vllm-").removesuffix(".dist-info")


def check_releases(oracle_dir: Path, cases: list[Path]) -> None:
    """Refuse cases the engine would judge as another release than the oracle's."""
    version = oracle_version(oracle_dir)
    wrong = [
        f"{case}: checked as {release}, the oracle is vLLM {version}"
        for case in cases
        if (release := choose_version(case.read_text(encoding="utf-8"))[0])
        != nearest_release(version)
    ]
    if wrong:
        sys.exit("mark each case `# vllm-config: version=X` for its oracle:\n" + "\n".join(wrong))


def record(oracle_dir: Path, cases: list[Path]) -> int:
    check_releases(oracle_dir, cases)
    as_is = [c for c in cases if model_policy(c) == "as-is"]
    with_model = [c for c in cases if _has_model(c) and c not in as_is]
    without = [c for c in cases if not _has_model(c) and c not in as_is]
    results = _run_batch(oracle_dir, with_model, [])
    results += _run_batch(oracle_dir, without, ["--model-arg", "dummy/model"])
    folders = sorted({c.parent for c in as_is})
    by_folder = [[c for c in as_is if c.parent == folder] for folder in folders]
    for group in by_folder:
        results += _run_batch(oracle_dir, group, ["--model-policy", "as-is"])
    ordered = with_model + without + [c for group in by_folder for c in group]
    for case, row in zip(ordered, results, strict=True):
        verdict = {key: row.get(key) for key in KEEP if row.get(key) is not None}
        verdict["ok"] = bool(row.get("ok"))
        verdict["vllm_version"] = row.get("vllm_version")
        verdict["model_substituted"] = bool((row.get("model") or {}).get("substituted"))
        if case in without:
            verdict["model_arg"] = "dummy/model"
        if case in as_is:
            verdict["model_policy"] = "as-is"
        target = verdict_path(case)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(verdict, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {len(cases)} verdicts", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", type=Path)
    parser.add_argument("--oracle-dir", type=Path, default=os.environ.get("VLLM_ORACLE_DIR"))
    parser.add_argument("--all", action="store_true", help="re-record every case")
    args = parser.parse_args(argv)
    if args.oracle_dir is None:
        parser.error("--oracle-dir (or VLLM_ORACLE_DIR) is required")
    cases = [c.resolve() for c in args.cases] or sorted(CASES.rglob("*.yaml"))
    if not args.cases and not args.all:
        cases = [c for c in cases if not verdict_path(c).exists()]
    return record(args.oracle_dir.resolve(), cases)


if __name__ == "__main__":
    sys.exit(main())
