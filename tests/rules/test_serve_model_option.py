"""VC384 (`--model` on the `vllm serve` command line) through the CLI: where a host runs
`vllm serve` with `--model`, and not where the model is an engine keyword argument that
never reaches argparse (Triton's model.json)."""

from __future__ import annotations

import json
from pathlib import Path

from support import CORPUS, cli

TRITON = (
    CORPUS
    / "deployments"
    / "files"
    / "other"
    / "triton-inference-server__vllm_backend__samples__model_repository__vllm_model__1__model.json"
)


def _codes(path: Path) -> list[tuple[int, str]]:
    report = cli("check", "--format", "json", str(path))
    return [(row["line"], row["code"]) for row in json.loads(report.stdout)]


def test_compose_command_with_model_option_warns(tmp_path: Path) -> None:
    compose = tmp_path / "docker-compose.yaml"
    compose.write_text(
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n"
        "    command: --model Qwen/Qwen3-8B --max-model-len 8192\n",
        encoding="utf-8",
    )
    assert (4, "VC384") in _codes(compose)


def test_positional_model_and_engine_kwargs_do_not_warn(tmp_path: Path) -> None:
    script = tmp_path / "serve.sh"
    script.write_text("vllm serve Qwen/Qwen3-8B --max-model-len 8192\n", encoding="utf-8")
    assert [code for _, code in _codes(script) if code == "VC384"] == []
    assert [code for _, code in _codes(TRITON) if code == "VC384"] == []
