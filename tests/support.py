"""Helpers shared by the tests: run the installed CLI, lint text, apply fixes."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from vllm_config_lsp.engine import lint
from vllm_config_lsp.findings import Finding, Fix, apply_edits

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The console command as a user runs it (falls back to `python -m` in a checkout)."""
    command = shutil.which("vllm-config-lsp")
    argv = [command] if command else [sys.executable, "-m", "vllm_config_lsp"]
    return subprocess.run(
        [*argv, *args], capture_output=True, text=True, cwd=cwd, timeout=120, check=False
    )


def codes(text: str, **kwargs: object) -> list[str]:
    return [f.code for f in lint(text, **kwargs).findings]  # type: ignore[arg-type]


def findings_of(text: str, code: str) -> list[Finding]:
    return [f for f in lint(text).findings if f.code == code]


def apply_fix(text: str, fix: Fix) -> str:
    fixed = apply_edits(text, fix.edits)
    yaml.safe_load(fixed)  # the fixed file must still be YAML
    return fixed


def comment_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.lstrip().startswith("#")]
