"""The pre-commit hook (`.pre-commit-hooks.yaml`) through the real `pre-commit` (from PyPI):
`pre-commit try-repo` of this checkout on a throwaway git repository, as a user tries a hook
before pinning it. pre-commit installs this package into its own environment (pip, from the
registry), names every text file of the repository, and the hook keeps the vLLM files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support import REPO

EXAMPLES = REPO / "examples"
BAD = EXAMPLES / "qwen2.5-vl-encoder-budgets.vllm.yaml"
GOOD = EXAMPLES / "llama-3.1-8b-serve.vllm.yaml"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git on PATH")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


def _throwaway(tmp_path: Path, configs: dict[str, str]) -> Path:
    """A git repository holding `configs` (name → text) and files that are no vLLM file."""
    repo = tmp_path / "project"
    repo.mkdir(parents=True)
    _git(repo, "init", "-q")
    # pre-commit hands these to the hook too: a workflow without vLLM, a README, a script
    (repo / "ci.yaml").write_text("on: push\njobs: {build: {runs-on: ubuntu-latest}}\n")
    (repo / "README.md").write_text("# A project\n\nNothing about serving here.\n")
    (repo / "build.sh").write_text("#!/bin/sh\nmake all\n")
    for name, text in configs.items():
        (repo / name).write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "files")
    return repo


def _try_repo(repo: Path, home: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    environment.pop("VIRTUAL_ENV", None)
    command = [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "vllm-config-lsp"]
    return subprocess.run(
        [*command, "--all-files", "--color", "never"],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_hook_definition() -> None:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "vllm-config-lsp"
    assert hook["language"] == "python"
    assert hook["require_serial"] is False
    assert hook["entry"].startswith("vllm-config-lsp check")


def test_try_repo_fails_on_a_bad_config_and_passes_on_a_good_one(tmp_path: Path) -> None:
    home = tmp_path / "pre-commit-home"  # one environment install for both runs
    bad = _throwaway(tmp_path / "bad", {"serve.vllm.yaml": BAD.read_text()})
    failed = _try_repo(bad, home)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "vllm-config-lsp" in failed.stdout and "Failed" in failed.stdout
    assert "serve.vllm.yaml:4:37: error VC301" in failed.stdout
    # the other text files pre-commit named were not checked as configs
    assert "ci.yaml" not in failed.stdout.split("Failed", 1)[1]
    assert "README.md:" not in failed.stdout

    good = _throwaway(tmp_path / "good", {"serve.vllm.yaml": GOOD.read_text()})
    passed = _try_repo(good, home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "vllm-config-lsp" in passed.stdout and "Passed" in passed.stdout


def test_only_detected_keeps_the_files_a_walk_picks(tmp_path: Path) -> None:
    """What the hook runs, without pre-commit: named files that are no vLLM file are left
    alone (a plain `check` checks every named file)."""
    from support import cli

    config = tmp_path / "serve.vllm.yaml"
    config.write_text(BAD.read_text())
    other = tmp_path / "ci.yaml"
    other.write_text("on: push\ntp: 2\n")
    readme = tmp_path / "README.md"
    readme.write_text("# A project\n")
    result = cli("check", "--only-detected", str(config), str(other), str(readme))
    assert result.returncode == 1
    assert {line.split(":", 1)[0] for line in result.stdout.splitlines() if ": error " in line} == {
        str(config)
    }
    assert cli("check", "--only-detected", str(other), str(readme)).returncode == 0
    # named without the flag: not a `--config` file either, `on:` is a workflow's (issue 27)
    plain = cli("check", "-v", str(other))
    assert (plain.returncode, plain.stdout) == (0, "")
    assert plain.stderr.startswith(f"{other}: not a --config file")
