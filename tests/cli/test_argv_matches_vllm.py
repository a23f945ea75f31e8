"""`vllm-config-lsp argv` against the argv the real vLLM 0.33.0 built from each loader
fidelity case (`cli_args`, recorded by tools/record_vllm_verdicts.py): merge keys, duplicate
keys, dotted keys and dropped values all reach argparse in vLLM's order and spelling."""

from __future__ import annotations

import json
from pathlib import Path

from support import REPO, cli

CASES = REPO / "tests" / "fidelity" / "cases" / "loader"
VERDICTS = REPO / "tests" / "fidelity" / "verdicts" / "loader"


def test_argv_is_the_one_vllm_built() -> None:
    recorded = {}
    for case in sorted(CASES.glob("*.yaml")):
        verdict = json.loads((VERDICTS / f"{case.stem}.json").read_text())
        if "cli_args" in verdict:
            recorded[case.name] = verdict["cli_args"]
    assert any(name.startswith("merge-key") for name in recorded)
    result = cli("argv", "--format", "json", *(str(CASES / name) for name in recorded))
    ours = {Path(row["file"]).name: row["argv"] for row in json.loads(result.stdout)}
    assert {name: ours.get(name) for name in recorded} == recorded
