"""`vllm-config-lsp models pull MODEL…` against a local stand-in of the Hub's file
endpoints (tests/hub_server.py, through HF_ENDPOINT): only config.json, the safetensors
index and params.json are asked for, into the standard cache; gated, missing and offline
cases say so and exit 1. Never the network."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from hub_server import FakeHub, model_files, serve_hub
from support import REPO, cli_command

FIXTURE = REPO / "tests" / "fixtures" / "models" / "meta-llama" / "Meta-Llama-3.1-8B-Instruct"
MODEL = "meta-llama/Llama-3.1-8B-Instruct"


def run(tmp_path: Path, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HOME", "HF_TOKEN")}
    env.update(HF_HUB_CACHE=str(tmp_path / "hub"), HF_HUB_DISABLE_TELEMETRY="1", **extra)
    return subprocess.run(
        [*cli_command(), "models", "pull", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_pull_fetches_only_the_config_files(tmp_path: Path) -> None:
    files = {**model_files(FIXTURE), "model-00001-of-00004.safetensors": b"x" * 10}
    hub = FakeHub({MODEL: files})
    with serve_hub(hub) as url:
        done = run(tmp_path, MODEL, HF_ENDPOINT=url)
    assert done.returncode == 0, done.stderr
    snapshots = tmp_path / "hub" / "models--meta-llama--Llama-3.1-8B-Instruct" / "snapshots"
    (snapshot,) = snapshots.iterdir()
    assert sorted(p.name for p in snapshot.iterdir()) == [
        "config.json",
        "model.safetensors.index.json",
    ]
    asked = {line.split()[1].rsplit("/", 1)[-1] for line in hub.requests if "/resolve/" in line}
    assert asked == {"config.json", "model.safetensors.index.json", "params.json"}


def test_gated_and_missing_repositories_say_so(tmp_path: Path) -> None:
    hub = FakeHub({}, gated=frozenset({"meta-llama/Llama-3.1-70B"}))
    with serve_hub(hub) as url:
        done = run(tmp_path, "meta-llama/Llama-3.1-70B", "nobody/nothing", HF_ENDPOINT=url)
    assert done.returncode == 1
    assert "meta-llama/Llama-3.1-70B: not fetched: meta-llama/Llama-3.1-70B is gated" in done.stderr
    assert "HF_TOKEN" in done.stderr
    assert "nobody/nothing: not fetched: nobody/nothing was not found on the Hub" in done.stderr


def test_a_repository_without_config_json(tmp_path: Path) -> None:
    hub = FakeHub({"org/weights-only": {"README.md": b"#"}})
    with serve_hub(hub) as url:
        done = run(tmp_path, "org/weights-only", HF_ENDPOINT=url)
    assert done.returncode == 1
    assert "org/weights-only has no config.json" in done.stderr


def test_offline_fetches_nothing(tmp_path: Path) -> None:
    hub = FakeHub({MODEL: model_files(FIXTURE)})
    with serve_hub(hub) as url:
        done = run(tmp_path, MODEL, HF_ENDPOINT=url, HF_HUB_OFFLINE="1")
    assert done.returncode == 1
    assert "HF_HUB_OFFLINE is set" in done.stderr
    assert not [line for line in hub.requests if "/resolve/" in line]


def test_token_is_sent(tmp_path: Path) -> None:
    """HF_TOKEN reaches the endpoint (huggingface_hub sends it as a bearer token)."""
    seen: list[str] = []
    hub = FakeHub({MODEL: model_files(FIXTURE)})
    with serve_hub(hub, headers=seen) as url:
        done = run(tmp_path, MODEL, HF_ENDPOINT=url, HF_TOKEN="hf_test_token")
    assert done.returncode == 0, done.stderr
    assert "Bearer hf_test_token" in seen


def test_not_a_repository_id(tmp_path: Path) -> None:
    done = run(tmp_path, "./local/folder")
    assert done.returncode == 1
    assert "is not a Hugging Face repository id" in done.stderr
