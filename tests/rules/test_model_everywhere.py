"""The model of every invocation (issue 29): `vllm serve MODEL` (the positional
`model_tag`), `--model`, `model:` of a `--config` file and the operators' own model fields
(KubeAI `url`, KServe `storageUri`, Ray Serve `model_source`) all resolve the same way, so
the model-aware and memory checks give the same findings in every host that names the same
model, with its config.json in a model folder or in the Hugging Face cache. Run through the
CLI, as a user does.

The config.json used is tests/fixtures/models/meta-llama/Meta-Llama-3.1-8B-Instruct's
(32 attention heads, 8 KV heads, 131072 positions).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from support import REPO, cli_command

MODEL = "meta-llama/Meta-Llama-3.1-8B-Instruct"
FIXTURE = REPO / "tests" / "fixtures" / "models" / MODEL
COMMIT = "0e9e39f249a16976918f6564b8830bc894c89659"
#: Two cases: a size that does not divide the heads, and a context the L4's KV cache cannot
#: hold for one request.
CASES = {
    "VC601": ("--tensor-parallel-size", "3"),
    "VC681": ("--max-model-len", "131072"),
}


def hosts(model: str, flag: str, value: str) -> dict[str, str]:
    """One file per host, each starting vLLM on `model` with `flag value`."""
    key = flag.removeprefix("--")
    return {
        "config.vllm.yaml": f"model: {model}\n{key}: {value}\n",
        "serve.sh": f"#!/bin/bash\nvllm serve {model} {flag} {value}\n",
        "serve-model-flag.sh": f"#!/bin/bash\nvllm serve --model {model} {flag} {value}\n",
        "deployment.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: vllm}\nspec:\n"
            "  template:\n    spec:\n      containers:\n      - name: vllm\n"
            "        image: vllm/vllm-openai:latest\n"
            f'        command: ["vllm", "serve"]\n        args: ["{model}", "{flag}", "{value}"]\n'
        ),
        "compose.yaml": (
            "services:\n  vllm:\n    image: vllm/vllm-openai:latest\n"
            f'    command: ["{model}", "{flag}", "{value}"]\n'
        ),
        "README.md": f"# Serving\n\n```bash\nvllm serve {model} \\\n  {flag} {value}\n```\n",
        "kubeai-model.yaml": (
            "apiVersion: kubeai.org/v1\nkind: Model\nmetadata: {name: llama}\nspec:\n"
            f"  url: hf://{model}\n  engine: VLLM\n  args:\n  - {flag}={value}\n"
        ),
        "ray-service.yaml": (
            "apiVersion: ray.io/v1\nkind: RayService\nmetadata: {name: llm}\nspec:\n"
            "  serveConfigV2: |\n    applications:\n    - name: llm\n      args:\n"
            "        llm_configs:\n        - model_loading_config:\n"
            f"            model_id: llama\n            model_source: {model}\n"
            f"          engine_kwargs:\n            {key.replace('-', '_')}: {value}\n"
        ),
    }


def check(folder: Path, env: dict[str, str]) -> dict[str, list[tuple[str, str]]]:
    """(code, message) of the model-aware findings in each file, as `check --format json`
    prints them for an L4 target."""
    names = sorted(p.name for p in folder.iterdir())
    done = cli_env(env, "check", "--format", "json", "--gpu", "L4", *names, cwd=folder)
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, list[tuple[str, str]]] = {name: [] for name in names}
    for item in json.loads(done.stdout):
        if item["code"] in ("VC601", "VC681", "VC600"):
            found[item["file"]].append((item["code"], item["message"]))
    return found


def cli_env(env: dict[str, str], *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The console command with `env` as its whole environment."""
    return subprocess.run(
        [*cli_command(), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=120,
        check=False,
    )


def base_env(tmp_path: Path) -> dict[str, str]:
    drop = ("HF_HOME", "HF_HUB_CACHE", "VIRTUAL_ENV", "VLLM_CONFIG_MODEL_DIRS", "HF_ENDPOINT")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-hub")
    return env


def write_hosts(folder: Path, model: str = MODEL) -> Path:
    """Each case's hosts in a folder of its own (`folder/VC601/serve.sh`, …)."""
    for code, (flag, value) in CASES.items():
        (folder / code).mkdir(parents=True, exist_ok=True)
        for name, text in hosts(model, flag, value).items():
            (folder / code / name).write_text(text, encoding="utf-8")
    return folder


def hf_cache(hub: Path, model: str = MODEL) -> None:
    """`model` in a Hugging Face cache laid out as huggingface_hub writes it (the files
    `models pull` fetches: config.json and the safetensors index)."""
    repo = hub / ("models--" + model.replace("/", "--"))
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    for name in ("config.json", "model.safetensors.index.json"):
        shutil.copy(FIXTURE / name, snapshot / name)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT, encoding="utf-8")


def assert_same_everywhere(folder: Path, env: dict[str, str]) -> None:
    """Each case gives its one finding, with the same words, in every host."""
    for code in CASES:
        found = check(folder / code, env)
        codes = {name: [c for c, _ in items] for name, items in found.items()}
        assert all(items == [code] for items in codes.values()), codes
        messages = {tuple(items) for items in found.values()}
        assert len(messages) == 1, messages


def test_model_folder_every_host(tmp_path: Path) -> None:
    folder = write_hosts(tmp_path / "files")
    env = {**base_env(tmp_path), "VLLM_CONFIG_MODEL_DIRS": str(REPO / "tests/fixtures/models")}
    assert_same_everywhere(folder, env)


def test_hf_cache_every_host(tmp_path: Path) -> None:
    """The issue's case: the positional model with its config.json in the HF cache."""
    folder = write_hosts(tmp_path / "files")
    env = base_env(tmp_path)
    env["HF_HUB_CACHE"] = str(tmp_path / "hub")
    hf_cache(tmp_path / "hub")
    assert_same_everywhere(folder, env)


def test_positional_model_wins_over_model_flag(tmp_path: Path) -> None:
    """`args.model = args.model_tag` (vllm/entrypoints/cli/serve.py): the positional model
    replaces `--model`."""
    script = tmp_path / "serve.sh"
    script.write_text(f"vllm serve {MODEL} --model ./nowhere --tensor-parallel-size 3\n")
    env = {**base_env(tmp_path), "VLLM_CONFIG_MODEL_DIRS": str(REPO / "tests/fixtures/models")}
    done = cli_env(env, "check", "--format", "json", "serve.sh", cwd=tmp_path)
    codes = [item["code"] for item in json.loads(done.stdout)]
    assert "VC601" in codes and "VC600" not in codes, codes


@pytest.mark.parametrize("tag", ["$MODEL", "${MODEL:-x/y}"])
def test_positional_variable_is_unknown(tmp_path: Path, tag: str) -> None:
    """A positional model that is a variable is unknown: `--model` after it is not used."""
    script = tmp_path / "serve.sh"
    script.write_text(f'vllm serve "{tag}" --model {MODEL} --tensor-parallel-size 3\n')
    env = {**base_env(tmp_path), "VLLM_CONFIG_MODEL_DIRS": str(REPO / "tests/fixtures/models")}
    done = cli_env(env, "check", "--format", "json", "serve.sh", cwd=tmp_path)
    codes = [item["code"] for item in json.loads(done.stdout)]
    assert "VC601" not in codes, codes


def test_registry_every_host(tmp_path: Path) -> None:
    """No files anywhere: the registry's config.json facts of Qwen/Qwen3-32B (64 heads)
    give the same VC601 in every host, and hover-free `check` says nothing is missing."""
    folder = write_hosts(tmp_path / "files", "Qwen/Qwen3-32B")
    found = check(folder / "VC601", base_env(tmp_path))
    codes = {name: [c for c, _ in items] for name, items in found.items()}
    assert all(items == ["VC601"] for items in codes.values()), codes
    assert len({tuple(items) for items in found.values()}) == 1
    assert "64 heads" in next(iter(found.values()))[0][1]


def test_registry_off_leaves_the_model_unknown(tmp_path: Path) -> None:
    folder = write_hosts(tmp_path / "files", "Qwen/Qwen3-32B")
    env = {**base_env(tmp_path), "VLLM_CONFIG_MODEL_REGISTRY": "off"}
    assert not any(check(folder / "VC601", env).values())


def test_after_models_pull_every_host(tmp_path: Path) -> None:
    """`models pull` from a local stand-in of the Hub (HF_ENDPOINT) puts config.json and the
    safetensors index in the cache; then every host gets the same findings."""
    from hub_server import FakeHub, model_files, serve_hub

    folder = write_hosts(tmp_path / "files")
    env = base_env(tmp_path)
    env["HF_HUB_CACHE"] = str(tmp_path / "hub")
    env["HF_HUB_DISABLE_TELEMETRY"] = "1"
    before = check(folder / "VC601", env)
    assert not any(before.values()), before
    hub = FakeHub({MODEL: model_files(FIXTURE)})
    with serve_hub(hub) as url:
        done = cli_env({**env, "HF_ENDPOINT": url}, "models", "pull", MODEL, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "config.json, model.safetensors.index.json" in done.stdout
    assert_same_everywhere(folder, env)
