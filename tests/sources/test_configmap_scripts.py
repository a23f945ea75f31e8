"""A container that runs a script a ConfigMap holds (`command: [/scripts/startup.sh]`, the
ConfigMap's volume mounted at `/scripts`): the script's `"$@"` (`$1`…) is the container's
argv after the path, each word where it is written (a script word in the ConfigMap's block
scalar, an arg in the container's list), so findings and fixes land there. Only what is
certain is followed (one mount and one ConfigMap for the path, plain positional
parameters); anything else reads as the script alone, `$@` unknown. Tested on a
hand-written manifest and on the real castai chart (tests/sources/data/configmap/,
SOURCES.md), through the CLI."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from source_support import cli_json
from support import apply_json_fix

CHART = Path(__file__).resolve().parent / "data" / "configmap" / "castai-vllm"

SCRIPT = """\
#!/bin/bash
set -e
exec vllm serve --model=facebook/opt-125m "$@"
"""

MANIFEST = """\
apiVersion: v1
kind: ConfigMap
metadata:
  name: vllm-startup
data:
  startup.sh: |
{script}---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm
spec:
  template:
    spec:
      volumes:
        - name: scripts
          configMap:
            name: vllm-startup
{items}            defaultMode: 0755
      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.11.2
          command: {command}
          args:
            - "--tensor-parallel-size=1"
            - "--enable-chunked-prefil"
          volumeMounts:
            - name: scripts
              mountPath: {mount}
"""


def _manifest(
    script: str = SCRIPT,
    command: str = '["/scripts/startup.sh"]',
    mount: str = "/scripts",
    items: str = "",
) -> str:
    indented = "".join(f"    {line}\n" for line in script.splitlines())
    return MANIFEST.format(script=indented, command=command, mount=mount, items=items)


def _argv(path: Path) -> list[dict[str, Any]]:
    return cli_json("argv", path, "0.33.0")


def _findings(path: Path) -> list[dict[str, Any]]:
    return cli_json("check", path, "0.33.0")


def test_the_container_args_fill_the_scripts_parameters(tmp_path: Path) -> None:
    path = tmp_path / "vllm.yaml"
    path.write_text(_manifest(), encoding="utf-8")
    (start,) = _argv(path)
    assert start["argv"] == [
        "--model=facebook/opt-125m",
        "--tensor-parallel-size=1",
        "--enable-chunked-prefil",
    ]
    assert start["line"] == 9  # `vllm` in the ConfigMap's script


def test_findings_land_where_each_word_is_written_and_the_fix_applies(tmp_path: Path) -> None:
    path = tmp_path / "vllm.yaml"
    text = _manifest()
    path.write_text(text, encoding="utf-8")
    found = {finding["code"]: finding for finding in _findings(path)}
    model = found["VC384"]  # `--model=` in the script's block scalar
    assert (model["line"], model["column"]) == (9, 21)
    prefix = found["VC103"]  # the abbreviation in the container's args
    assert (prefix["line"], prefix["column"]) == (29, 16)
    fixed = apply_json_fix(text, prefix["fix"])
    assert list(yaml.safe_load_all(fixed))[1]["kind"] == "Deployment"
    changed = [
        (old, new)
        for old, new in zip(text.splitlines(), fixed.splitlines(), strict=True)
        if old != new
    ]
    assert changed == [
        ('            - "--enable-chunked-prefil"', '            - "--enable-chunked-prefill"')
    ]
    path.write_text(fixed, encoding="utf-8")
    assert "VC103" not in {finding["code"] for finding in _findings(path)}


@pytest.mark.parametrize(
    ("change", "filled"),
    [
        ({"command": '["bash", "/scripts/startup.sh"]'}, True),
        ({"mount": "/scripts/"}, True),
        ({"items": "            items:\n              - {key: startup.sh, path: run.sh}\n"}, False),
        (
            {
                "items": "            items:\n              - {key: startup.sh, path: run.sh}\n",
                "command": '["/scripts/run.sh"]',
            },
            True,
        ),
        ({"command": '["/scripts/other.sh"]'}, False),  # not the mounted file
        ({"mount": "/opt"}, False),  # mounted elsewhere
        ({"script": SCRIPT.replace("exec vllm", "serve() {\n  exec vllm") + "}\nserve\n"}, False),
        ({"script": SCRIPT.replace("set -e", "shift")}, False),
        ({"script": SCRIPT.replace("set -e", "set -- --port 9000")}, False),
        ({"script": SCRIPT.replace("set -e", "set -euo pipefail")}, True),
    ],
)
def test_only_a_certain_script_is_followed(
    tmp_path: Path, change: dict[str, str], filled: bool
) -> None:
    path = tmp_path / "vllm.yaml"
    path.write_text(_manifest(**change), encoding="utf-8")
    (start,) = [start for start in _argv(path) if start["argv"][0].startswith("--model=")]
    assert ("--tensor-parallel-size=1" in start["argv"]) is filled, start["argv"]
    assert ("$@" in start["argv"]) is not filled


def test_a_subpath_mount_of_the_one_file(tmp_path: Path) -> None:
    text = _manifest(mount="/startup.sh").replace(
        "              mountPath: /startup.sh\n",
        "              mountPath: /startup.sh\n              subPath: startup.sh\n",
    )
    path = tmp_path / "vllm.yaml"
    path.write_text(text.replace("/scripts/startup.sh", "/startup.sh"), encoding="utf-8")
    (start,) = _argv(path)
    assert start["argv"][-1] == "--enable-chunked-prefil"


def test_two_configmaps_of_that_name_are_not_followed(tmp_path: Path) -> None:
    text = _manifest()
    configmap = text.split("---\n")[0]
    path = tmp_path / "vllm.yaml"
    path.write_text(configmap + "---\n" + text, encoding="utf-8")
    starts = _argv(path)
    assert len(starts) == 2
    assert all(start["argv"][-1] == "$@" for start in starts)


def test_a_function_keeps_sh_c_parameters_unknown(tmp_path: Path) -> None:
    pod = "kind: Pod\nspec:\n  containers:\n    - {name: vllm, image: vllm/vllm-openai,\n"
    pod += "       command: %s}\n"
    script = "[sh, -c, 'run() { exec vllm serve \"$@\"; }; run m', sh, --port, '1']"
    (tmp_path / "pod.yaml").write_text(pod % script, encoding="utf-8")
    (start,) = _argv(tmp_path / "pod.yaml")
    assert "--port" not in start["argv"]


def test_the_castai_chart_values_reach_the_mounted_script(tmp_path: Path) -> None:
    """castai/helm-charts: `deployment.yaml` runs `/scripts/startup.sh` with its `args:`,
    `configmap.yaml` holds the script (three `exec vllm serve --model=… "$@"`, one per
    branch of an `if`); the values file reaches vLLM through both."""
    starts = _argv(CHART / "values.yaml")
    assert len(starts) == 3
    for start in starts:
        assert start["argv"][0].startswith("--model=")
        assert "$@" not in start["argv"]
        assert "--max-num-batched-tokens=10000" in start["argv"]
        assert start["argv"][-2] == "--show-hidden-metrics-for-version=0.10"
    chart = tmp_path / "vllm"
    shutil.copytree(CHART, chart)
    values = chart / "values.yaml"
    text = values.read_text(encoding="utf-8")
    assert "maxNumBatchedTokens: 10000\n" in text
    values.write_text(text.replace("maxNumBatchedTokens: 10000\n", "maxNumBatchedTokens: x\n"))
    refused = [finding for finding in _findings(values) if finding["code"] == "VC201"]
    line = text[: text.index("maxNumBatchedTokens")].count("\n") + 1
    assert refused and all(finding["line"] == line for finding in refused)
