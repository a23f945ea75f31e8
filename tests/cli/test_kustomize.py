"""kustomize patches through the CLI (tests/sources/data/kustomize/SOURCES.md): a patch whose
container sets only `args:` is read through the base the kustomization beside it names, on
disk, or as `vllm serve` arguments of the image the kustomization's `images:` sets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

from support import REPO, cli

DATA = REPO / "tests" / "sources" / "data" / "kustomize"
PATCH = DATA / "overlay" / "patch-args.yaml"
REMOTE = DATA / "remote" / "patch-args.yaml"


def _argv(path: Path) -> list[dict[str, Any]]:
    done = cli("argv", "--format", "json", str(path))
    assert done.returncode == 0, done.stderr
    entries: list[dict[str, Any]] = json.loads(done.stdout)
    return entries


def _codes(path: Path) -> list[tuple[str, int]]:
    done = cli("check", "--format", "json", "--vllm-version", "0.33.0", str(path))
    return [(found["code"], found["line"]) for found in json.loads(done.stdout)]


def test_patch_args_run_after_the_base_command() -> None:
    """The base runs `python3 -m vllm.entrypoints.openai.api_server`: `--model` is that
    module's own flag (no `vllm serve` warning about it), the patch's words are positioned
    in the patch."""
    (entry,) = _argv(PATCH)
    assert entry["argv"] == [
        "--model",
        "meta-llama/Llama-3.2-1B-Instruct",
        "--max-model-len",
        "4096",
        "--max-num-seq",
        "256",
    ]
    assert (entry["line"], entry["column"]) == (11, 15)
    assert not any(word["generated"] for word in entry["words"])
    assert _codes(PATCH) == [("VC103", 15)]


def test_the_same_patch_without_its_kustomization_is_read_as_vllm_serve(tmp_path: Path) -> None:
    alone = tmp_path / "patch-args.yaml"
    shutil.copy(PATCH, alone)
    assert ("VC384", 11) in _codes(alone)  # `vllm serve --model`: the patch alone says so


def test_base_command_words_after_the_start_are_generated(tmp_path: Path) -> None:
    """A base whose command names the model (`vllm serve MODEL`): the model reaches vLLM
    from the base, with no text in the patch, so argv marks it generated and a flag of the
    patch that repeats it is found on the patch container's name."""
    shutil.copytree(DATA, tmp_path / "kustomize")
    base = tmp_path / "kustomize" / "base" / "gpu-deployment.yaml"
    base.write_text(
        base.read_text().replace(
            'command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]',
            'command: ["vllm", "serve", "meta-llama/Llama-3.2-1B-Instruct"]',
        )
    )
    patch = tmp_path / "kustomize" / "overlay" / "patch-args.yaml"
    (entry,) = _argv(patch)
    assert entry["argv"][0] == "meta-llama/Llama-3.2-1B-Instruct"
    assert [w["text"] for w in entry["words"] if w["generated"]] == [entry["argv"][0]]
    assert ("VC384", 11) in _codes(patch)  # the patch's `--model` after `vllm serve MODEL`


def test_remote_base_runs_the_image_the_kustomization_sets() -> None:
    (entry,) = _argv(REMOTE)
    assert entry["argv"] == ["meta-llama/Llama-3.2-1B-Instruct", "--max-model-len", "4096"]
    assert "vllm/vllm-openai:v0.9.0" in entry["version_source"]
    assert entry["vllm_version"].startswith("0.9.")


def test_remote_base_with_a_second_patched_container_says_nothing_of_either(
    tmp_path: Path,
) -> None:
    """Two args-only containers over a base not on disk: which one runs the image is not
    said, so neither is read as `vllm serve` (the `server` one was, alone)."""
    shutil.copytree(DATA / "remote", tmp_path / "remote")
    patch = tmp_path / "remote" / "patch-args.yaml"
    patch.write_text(
        patch.read_text() + '        - name: router\n          args: ["--port", "9000"]\n'
    )
    assert _argv(patch) == []
