"""The composite GitHub Action (`action.yml`), run locally as a runner runs it: each step's
`run:` script in bash with its `env:` (the `${{ inputs.* }}` and `${{ github.action_path }}`
expressions replaced by the inputs given and the defaults), `GITHUB_OUTPUT` a file, in a
fresh virtual environment the install step installs this checkout into (pip, from the
registry). The `uses: actions/setup-python` step is the runner's Python: the venv's here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from support import REPO, sarif_errors

ACTION = yaml.safe_load((REPO / "action.yml").read_text())
EXAMPLES = REPO / "examples"
_EXPRESSION = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def _value(expression: str, inputs: dict[str, str]) -> str:
    if expression.startswith("inputs."):
        name = expression.removeprefix("inputs.")
        return inputs.get(name, ACTION["inputs"][name].get("default", ""))
    assert expression == "github.action_path", f"unexpected expression {expression}"
    return str(REPO)


def _run_steps(
    inputs: dict[str, str], venv: Path, workspace: Path
) -> tuple[list[subprocess.CompletedProcess[str]], dict[str, str]]:
    """Every `run:` step in order until one fails; the step outputs written."""
    output = workspace / "github-output"
    output.write_text("")
    environment = {
        **os.environ,
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}",
        "VIRTUAL_ENV": str(venv),
        "GITHUB_OUTPUT": str(output),
        "GITHUB_ACTION_PATH": str(REPO),
    }
    done = []
    for step in ACTION["runs"]["steps"]:
        if "run" not in step:
            assert step["uses"].startswith("actions/setup-python@")
            continue
        assert step["shell"] == "bash"
        assert not _EXPRESSION.search(step["run"]), "inputs must reach scripts through env"
        env = {
            key: _EXPRESSION.sub(lambda m: _value(m.group(1), inputs), str(value))
            for key, value in step.get("env", {}).items()
        }
        result = subprocess.run(
            ["bash", "-e", "-c", step["run"]],
            cwd=workspace,
            env={**environment, **env},
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        done.append(result)
        if result.returncode != 0:
            break
    outputs = dict(line.split("=", 1) for line in output.read_text().splitlines() if "=" in line)
    return done, outputs


def test_the_action_checks_with_annotations_and_sarif(tmp_path: Path) -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert {"paths", "vllm-version", "format", "fail-on"} <= set(ACTION["inputs"])
    venv = tmp_path / "runner-python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    workspace = tmp_path / "checkout"
    (workspace / "deploy").mkdir(parents=True)
    bad = workspace / "deploy" / "qwen.vllm.yaml"
    bad.write_text((EXAMPLES / "qwen2.5-vl-encoder-budgets.vllm.yaml").read_text())
    good = workspace / "llama.vllm.yaml"
    good.write_text((EXAMPLES / "llama-3.1-8b-serve.vllm.yaml").read_text())

    # format github (the default): the install step, then annotations and a failing step
    steps, _ = _run_steps({"paths": "deploy llama.vllm.yaml"}, venv, workspace)
    install, check = steps
    assert install.returncode == 0, install.stderr[-2000:]
    assert check.returncode == 1, check.stderr
    annotation = "::error file=deploy/qwen.vllm.yaml,line=4,col=37,"
    assert any(line.startswith(annotation) for line in check.stdout.splitlines())

    # a good file passes; vllm-version and fail-on reach the command
    steps, _ = _run_steps(
        {"paths": "llama.vllm.yaml", "vllm-version": "0.33.0", "fail-on": "warning"},
        venv,
        workspace,
    )
    assert [step.returncode for step in steps] == [0, 0], steps[-1].stderr
    steps, _ = _run_steps({"paths": "llama.vllm.yaml", "vllm-version": "0.1"}, venv, workspace)
    assert steps[-1].returncode == 2 and "unknown vLLM version '0.1'" in steps[-1].stderr

    # format sarif: the log is written and named in the step's outputs, the step fails
    steps, outputs = _run_steps({"format": "sarif", "paths": "."}, venv, workspace)
    assert steps[-1].returncode == 1, steps[-1].stderr
    assert outputs == {"sarif-file": "vllm-config.sarif"}
    log: dict[str, Any] = json.loads((workspace / "vllm-config.sarif").read_text())
    assert sarif_errors(log) == []
    uris = {
        result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for result in log["runs"][0]["results"]
    }
    assert uris == {"deploy/qwen.vllm.yaml"}  # relative to the checkout, as code scanning wants

    steps, _ = _run_steps({"format": "xml"}, venv, workspace)
    assert steps[-1].returncode == 2 and "format must be github or sarif" in steps[-1].stdout
