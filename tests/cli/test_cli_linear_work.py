"""`check DIR` decides which files are vLLM configs by their first 64 KB: a line of spaces
there made content detection quadratic (about 20 s a file before, a few milliseconds now)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_directory_walk_over_long_lines_of_spaces(tmp_path: Path) -> None:
    for number in range(5):
        (tmp_path / f"detected{number}.yaml").write_text(
            "max-num-seqs: x\nmodel" + " " * 65_000 + "\n", encoding="utf-8"
        )
    report = subprocess.run(
        [sys.executable, "-m", "vllm_config_lsp", "check", "--format", "json", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,  # catches the hang only: 100 s before
        check=False,
    )
    found = {Path(row["file"]).name for row in json.loads(report.stdout) if row["code"] == "VC201"}
    assert found == {f"detected{number}.yaml" for number in range(5)}
