"""kustomize overlays of the llm-d guides, as published (tests/sources/data/kustomize/
SOURCES.md, `llm-d/`), through `vllm-config-lsp argv`/`check`: the start of each patch is
the one `kubectl kustomize` builds (the oracle, where kubectl is installed): the args of an
args-only patch after the `command` a patch of its base sets, the image the base's
component names, and the `"$@"` of a `sh -c` command filled with the container's args."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import REPO, cli

GUIDES = REPO / "tests" / "sources" / "data" / "kustomize" / "llm-d" / "guides"
LATENCY = GUIDES / "predicted-latency-routing" / "modelserver" / "gpu" / "vllm" / "base"
BASELINE = GUIDES / "optimized-baseline" / "modelserver" / "gpu" / "vllm" / "base"
P2P = GUIDES / "p2p-kv-cache-sharing" / "modelserver" / "gpu" / "vllm" / "base"
#: overlay → (line, column) of the start (`vllm`, or the first arg of an args-only
#: patch), what is written there, its release.
EXPECTED = {
    LATENCY: ((12, 15), '"Qwen/Qwen3-32B"', "0.26.0"),
    BASELINE: ((11, 21), '"vllm", "serve"]', "0.26.0"),
    P2P: ((16, 87), 'vllm serve \\"$@\\""', "0.27.1"),
}


def _json(command: str, path: Path, *options: str) -> list[dict[str, Any]]:
    done = cli(command, "--format", "json", *options, str(path))
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    return found


def _built(overlay: Path) -> tuple[list[str], list[str], str]:
    """The `modelserver` container kubectl's kustomize builds: command, args, image."""
    out = subprocess.run(
        ["kubectl", "kustomize", str(overlay)], capture_output=True, text=True, check=True
    ).stdout
    for document in yaml.safe_load_all(out):
        if document and document.get("kind") == "Deployment":
            for container in document["spec"]["template"]["spec"]["containers"]:
                if container["name"] == "modelserver":
                    return container["command"], container["args"], container["image"]
    raise AssertionError("no modelserver container")


@pytest.mark.parametrize("overlay", sorted(EXPECTED), ids=lambda path: path.parts[-5])
def test_each_patch_is_the_start_kustomize_builds(overlay: Path) -> None:
    (start,) = _json("argv", overlay / "patch-vllm.yaml")
    (line, column), there, release = EXPECTED[overlay]
    assert (start["line"], start["column"], start["vllm_version"]) == (line, column, release)
    written = (overlay / "patch-vllm.yaml").read_text(encoding="utf-8").splitlines()
    assert written[line - 1][column - 1 :].startswith(there)
    if shutil.which("kubectl") is None:
        return
    command, args, image = _built(overlay)
    assert image.endswith(f":v{release}")
    if command[:2] == ["vllm", "serve"]:
        assert start["argv"] == args
    else:  # `sh -c '… exec vllm serve "$@"' sh`: the args are the script's "$@"
        assert command[:2] == ["sh", "-c"] and 'vllm serve "$@"' in command[2]
        assert start["argv"] == args


def test_args_only_patch_is_checked_with_nothing_on_its_unresolved_words(tmp_path: Path) -> None:
    """The real overlay checks clean for its release; a typo put in one of its args is
    found on that line of the patch (the base's command words are not the patch's)."""
    assert _json("check", LATENCY / "patch-vllm.yaml") == []
    assert _json("check", P2P / "patch-vllm.yaml") == []  # `$(POD_IP)`: Kubernetes', unknown
    copy = tmp_path / "guides"
    shutil.copytree(GUIDES, copy)
    patch = copy / LATENCY.relative_to(GUIDES) / "patch-vllm.yaml"
    text = patch.read_text(encoding="utf-8").replace("--max-model-len=", "--max-modl-len=")
    patch.write_text(text, encoding="utf-8")
    (found,) = _json("check", patch)
    assert (found["code"], found["line"]) == ("VC101", 15)


def test_a_shell_script_hands_its_sh_c_script_the_words_after_it(tmp_path: Path) -> None:
    """The same form in a script: `sh -c '… "$@"' NAME ARGS…` runs vLLM with ARGS (`$0` is
    NAME); `$1` is the first of them. A typo among them is found where it is written."""
    script = tmp_path / "run.sh"
    script.write_text(
        "sh -c 'exec vllm serve \"$@\"' sh Qwen/Qwen3-8B --max_modl_len 4096\n"
        "bash -c 'vllm serve $1 --port 8001' bash Qwen/Qwen3-8B\n",
        encoding="utf-8",
    )
    first, second = _json("argv", script, "--vllm-version", "0.11.2")
    assert first["argv"] == ["Qwen/Qwen3-8B", "--max_modl_len", "4096"]
    assert second["argv"] == ["Qwen/Qwen3-8B", "--port", "8001"]
    (found,) = _json("check", script, "--vllm-version", "0.11.2")
    assert (found["code"], found["line"], found["column"]) == ("VC101", 1, 47)
