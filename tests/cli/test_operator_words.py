"""What operators and charts add to the argv, through the CLI, on real public resources
(tests/sources/data/operators/SOURCES.md): `argv --format json` lists the words they write
as `"generated": true`, and `check` sees them: a flag of the user's that repeats one is
found, reported on the text that makes the operator write it (no word of theirs is in the
file)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support import REPO, cli

DATA = REPO / "tests" / "sources" / "data" / "operators"
CORPUS = REPO / "tests" / "corpus" / "deployments" / "files"
KUBEAI = DATA / "substratusai__kubeai__manifests__models__llama-3.1-8b-instruct-fp8-l4.yaml"
VALUES = DATA / "vllm-project__production-stack__tutorials__assets__values-02-basic-config.yaml"
RUNTIME = (
    CORPUS / "cr" / "vllm-project__production-stack__operator__config__samples__"
    "production-stack_v1alpha1_vllmruntime.yaml"
)


def _argv(path: Path) -> list[dict[str, Any]]:
    done = cli("argv", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    entries: list[dict[str, Any]] = json.loads(done.stdout)
    return entries


def _generated(entry: dict[str, Any]) -> list[str]:
    return [word["text"] for word in entry["words"] if word["generated"]]


def _check(path: Path) -> list[dict[str, Any]]:
    done = cli("check", "--format", "json", "--vllm-version", "0.33.0", str(path))
    findings: list[dict[str, Any]] = json.loads(done.stdout)
    return findings


def test_kubeai_model_argv_lists_the_flags_the_controller_writes() -> None:
    (entry,) = _argv(KUBEAI)
    assert entry["argv"] == [
        "--model=neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8",
        "--served-model-name=llama-3.1-8b-instruct-fp8-l4",
        "--max-model-len=16384",
        "--max-num-batched-token=16384",
        "--gpu-memory-utilization=0.9",
    ]
    assert _generated(entry) == entry["argv"][:2]
    assert [word["text"] for word in entry["words"]] == entry["argv"]
    assert (entry["line"], entry["column"]) == (12, 7)  # the first flag the file writes


def test_kubeai_model_flag_that_repeats_a_generated_one_is_found_on_the_models_name(
    tmp_path: Path,
) -> None:
    """The published Model with one line added to its `args`: `--served-model-name`, which
    the controller already writes from `metadata.name`; argparse keeps the user's."""
    text = KUBEAI.read_text().replace(
        "    - --gpu-memory-utilization=0.9\n",
        "    - --gpu-memory-utilization=0.9\n    - --served-model-name=llama-8b\n",
    )
    path = tmp_path / "model.yaml"
    path.write_text(text)
    (repeated,) = [found for found in _check(path) if found["code"] == "VC108"]
    assert (repeated["line"], repeated["column"]) == (5, 9)  # metadata.name's value
    assert (repeated["end_line"], repeated["end_column"]) == (5, 37)
    assert "is set again on line 15" in repeated["message"]
    assert "is written by the KubeAI controller" in repeated["message"]
    assert repeated["fix"] is None
    # the published file, as is: nothing about the words the controller writes
    assert not [found for found in _check(KUBEAI) if "KubeAI controller" in found["message"]]


def test_production_stack_values_argv_lists_the_charts_host_and_port() -> None:
    (entry,) = _argv(VALUES)
    assert entry["argv"][:5] == [
        "meta-llama/Llama-3.1-8B-Instruct",
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
    ]
    assert _generated(entry) == ["--host", "0.0.0.0", "--port", "8000"]
    assert entry["argv"][5:] == [
        "--no-enable-chunked-prefill",
        "--no-enable-prefix-caching",
        "--max-model-len",
        "4096",
        "--dtype",
        "bfloat16",
        "--disable-log-requests",
        "--gpu-memory-utilization",
        "0.8",
    ]


def test_production_stack_extra_port_that_contradicts_the_charts_is_found(
    tmp_path: Path,
) -> None:
    """The published values with `--port 9000` added to `extraArgs`: the chart writes
    `--port 8000` first (its `chart.container-port`), so vLLM listens on 9000 while the
    chart's probes and Service use 8000."""
    text = VALUES.read_text().replace('"0.8"]', '"0.8", "--port", "9000"]')
    path = tmp_path / "values.yaml"
    path.write_text(text)
    (repeated,) = [found for found in _check(path) if found["code"] == "VC108"]
    assert (repeated["line"], repeated["column"]) == (7, 5)  # the `modelURL` key
    assert "--port is set again on line 22" in repeated["message"]
    assert "is written by the production-stack chart" in repeated["message"]
    assert _check(VALUES) == []


def test_vllm_runtime_argv_lists_the_operators_host() -> None:
    (entry,) = _argv(RUNTIME)
    assert entry["argv"][1:3] == ["--host", "0.0.0.0"]
    assert _generated(entry) == ["--host", "0.0.0.0"]  # its booleans are all written
