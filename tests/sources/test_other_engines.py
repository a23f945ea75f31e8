"""Other engines next to vLLM, and NVIDIA Dynamo's vLLM worker (issue 28 item 10), on the
real scripts of tests/sources/data/dynamo/SOURCES.md, through the CLI.

SGLang (`python3 -m sglang.launch_server --model-path`), TGI, LMDeploy and TensorRT-LLM are
never read as vLLM, even in a script that also starts vLLM. `python3 -m dynamo.vllm` hands
vLLM its engine arguments once Dynamo's own flags are taken out (`sources.dynamo`), so a
Dynamo flag is never an unknown vLLM flag while a misspelt one still is."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support import cli

DATA = Path(__file__).resolve().parent / "data" / "dynamo"
DISAGG = DATA / "ai-dynamo__dynamo__examples__backends__vllm__launch__disagg.sh"
BENCHMARK = DATA / "vllm-project__vllm__.buildkite__nightly-benchmarks__scripts__launch-server.sh"


def _argv(path: Path) -> list[dict[str, Any]]:
    done = cli("argv", "--format", "json", "--vllm-version", "0.11.2", str(path))
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _check(path: Path) -> list[dict[str, Any]]:
    done = cli("check", "--format", "json", "--vllm-version", "0.11.2", str(path))
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def test_dynamo_workers_pass_vllm_their_engine_arguments_only() -> None:
    decode, prefill = _argv(DISAGG)
    assert (decode["line"], decode["column"]) == (13, 25)  # `python3`
    assert decode["argv"] == ["--model", "Qwen/Qwen3-0.6B", "--enforce-eager"]
    assert prefill["line"] == 17
    assert prefill["argv"][:3] == ["--model", "Qwen/Qwen3-0.6B", "--enforce-eager"]
    assert prefill["argv"][3] == "--kv-events-config"
    assert "--disaggregation-mode" not in prefill["argv"] + decode["argv"]


def test_dynamo_flags_are_not_unknown_vllm_flags_but_a_typo_is(tmp_path: Path) -> None:
    assert _check(DISAGG) == []
    text = DISAGG.read_text(encoding="utf-8").replace(
        "--disaggregation-mode prefill", "--disaggregation-mode prefill --is-prefil-worker"
    )
    (tmp_path / "disagg.sh").write_text(text, encoding="utf-8")
    (found,) = _check(tmp_path / "disagg.sh")
    assert (found["code"], found["line"], found["column"]) == ("VC101", 20, 35)
    assert "--is-prefil-worker" in found["message"]


def test_sglang_tgi_and_lmdeploy_next_to_vllm_are_never_vllm() -> None:
    """vLLM's own benchmark launcher starts TGI, LMDeploy, SGLang and vLLM from one script;
    only vLLM's commands may be found (`--model-path`, `--model-id`, `--server-port` are
    the other engines' flags)."""
    found = _argv(BENCHMARK)
    for start in found:
        assert start["argv"][:1] != ["--model-path"]
        assert not {"--model-path", "--model-id", "--server-port"} & set(start["argv"])
    assert _check(BENCHMARK) == []


def test_more_real_dynamo_launchers_hand_vllm_its_arguments_only() -> None:
    """Dynamo's `agg_router.sh` (two workers, Dynamo's `--connector none`) and `dep.sh` (one
    worker in a `for` loop): each `python3 -m dynamo.vllm` is one start, `python -m
    dynamo.frontend` none, and nothing is reported."""
    router = DATA / "ai-dynamo__dynamo__examples__backends__vllm__launch__agg_router.sh"
    first, second = _argv(router)
    assert [(first["line"], first["column"]), (second["line"], second["column"])] == [
        (30, 24),
        (39, 24),
    ]
    for start in (first, second):
        # the script's own `MODEL="Qwen/Qwen3-0.6B"` and `BLOCK_SIZE=64`
        assert start["argv"][:5] == [
            "--model",
            "Qwen/Qwen3-0.6B",
            "--block-size",
            "64",
            "--enforce-eager",
        ]
        assert "--connector" not in start["argv"] and "none" not in start["argv"]
    dep = DATA / "ai-dynamo__dynamo__examples__backends__vllm__launch__dep.sh"
    (worker,) = _argv(dep)
    assert (worker["line"], worker["argv"][:4]) == (
        21,
        ["--model", "Qwen/Qwen3-30B-A3B", "--data-parallel-rank", "$i"],
    )
    assert _check(router) == [] and _check(dep) == []
