"""Real editors against the server: Neovim, Emacs + eglot, VS Code (code-server + .vsix).

Each test runs `editors/run.py EDITOR --case CASE` (the case's example → VC301 → the editor's
own code-action command → saved file compared), for every editor and case: `seed`, the
--config file example, and `k8s`, a Deployment whose `args:` hold the same mistake; in VS
Code also `shell`, a launch script, and `helm`, a chart's values file, with it. A
missing editor skips the test with the reason, unless VLLM_CONFIG_REQUIRE_EDITORS=1 (set by
.ci/run, which installs them), where it fails.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
EDITORS = ROOT / "editors"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"editors_{name}", EDITORS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


runner = _load("run")
readme_snippets = _load("readme_snippets")
REQUIRED = os.environ.get("VLLM_CONFIG_REQUIRE_EDITORS") == "1"


def _needs(editor: str) -> None:
    reason = runner.missing(editor)
    if reason is None:
        return
    if REQUIRED:
        pytest.fail(f"{editor} is required here (VLLM_CONFIG_REQUIRE_EDITORS=1): {reason}")
    pytest.skip(reason)


@pytest.mark.parametrize(("editor", "case"), runner.RUNS)
def test_editor_applies_the_seed_quick_fix(editor: str, case: str) -> None:
    _needs(editor)
    outcome = runner.run(editor, case)
    print(outcome.summary())
    assert outcome.ok, outcome.summary()


def test_screenshots_go_where_ci_keeps_them() -> None:
    """.ci/run names the artefacts folder before anything runs and lists the screenshots
    at exit; the runner writes each run's screenshots and logs below it."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    exported = ci.index('export VLLM_CONFIG_ARTIFACTS="${VLLM_CONFIG_ARTIFACTS:-$PWD/artifacts}"')
    assert exported < ci.index("python -m pytest")
    assert 'trap \'find "$VLLM_CONFIG_ARTIFACTS" -name "*.png"' in ci
    kept = Path(os.environ.get("VLLM_CONFIG_ARTIFACTS", ROOT / "artifacts")) / "editors"
    assert kept == runner.ARTIFACTS
    assert {case for _, case in runner.RUNS} == {"seed", "k8s", "shell", "helm"}
    assert {editor for editor, case in runner.RUNS if case in ("shell", "helm")} == {"vscode"}


def test_readme_snippets_are_the_tested_files() -> None:
    found = readme_snippets.snippets()
    tested = {
        "editors/nvim/vllm-config.lua",
        "editors/emacs/vllm-config.el",
    }
    assert tested <= set(found), f"README editors section lacks {tested - set(found)}"
    for path, body in found.items():
        assert body == (ROOT / path).read_text(encoding="utf-8"), (
            f"README's copy of {path} is stale: run python editors/readme_snippets.py"
        )


def test_untested_snippets_parse() -> None:
    """Helix and Sublime are not installable here: their snippets are at least valid files
    that start the same command."""
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    helix = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text(encoding="utf-8"))
    server = helix["language-server"]["vllm-config-lsp"]
    assert [server["command"], *server["args"]] == ["vllm-config-lsp", "--stdio"]
    assert "vllm-config-lsp" in helix["language"][0]["language-servers"]
    sublime = json.loads((EDITORS / "sublime" / "LSP.sublime-settings").read_text(encoding="utf-8"))
    assert sublime["clients"]["vllm-config-lsp"]["command"] == ["vllm-config-lsp", "--stdio"]


def test_neovim_011_snippet_is_valid_lua() -> None:
    if shutil.which("nvim") is None:
        if REQUIRED:
            pytest.fail("nvim is required here (VLLM_CONFIG_REQUIRE_EDITORS=1)")
        pytest.skip("nvim is not installed")
    path = EDITORS / "nvim" / "vllm-config-0.11.lua"
    done = subprocess.run(
        [
            "nvim",
            "--headless",
            "-n",
            "-i",
            "NONE",
            "-u",
            "NONE",
            "-c",
            f"lua local f, e = loadfile('{path}'); if not f then io.stderr:write(e); "
            "vim.cmd('cquit 1') end",
            "-c",
            "qall!",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
