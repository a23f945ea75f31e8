"""Real dstack run configurations (`data/dstack/SOURCES.md`; issue 28, item 2), through the
CLI. Two misreadings they showed, each a class: the run's `env:` list did not fill the
`$NAME`s of the commands (the model was `$MODEL_ID`, unknown, so no model check ran), and a
vLLM installed from a wheel file (`pip install vllm-0.6.0+rocm614-…whl`) pinned no release."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from source_support import apply_json_fix, cli_json
from support import cli

DATA = Path(__file__).resolve().parent / "data" / "dstack"
AMD = DATA / "dstackai__dstack__examples__deployment__vllm__amd__service.dstack.yml"
TPU = DATA / "dstackai__dstack__examples__deployment__vllm__service-tpu.dstack.yml"


def _argv(path: Path) -> list[dict[str, Any]]:
    """`argv --format json` with no release given: what the file itself says."""
    found: list[dict[str, Any]] = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    return found


def test_the_env_list_fills_the_commands_and_the_wheel_pins_the_release() -> None:
    starts = {Path(s["file"]).name: s for s in _argv(DATA)}
    amd, tpu = starts[AMD.name], starts[TPU.name]
    assert (amd["source"], amd["line"]) == ("dstack", 32)
    assert amd["argv"] == [
        "meta-llama/Meta-Llama-3.1-70B-Instruct",
        *("--max-model-len", "126192", "--port", "8000"),
    ]
    names = [var["name"] for var in amd["environment"]]
    assert names[:3] == ["HUGGING_FACE_HUB_TOKEN", "MODEL_ID", "MAX_MODEL_LEN"]
    assert amd["vllm_version"].startswith("0.6.")
    assert "0.6.0+rocm614" in amd["version_source"]
    assert (tpu["line"], tpu["argv"][0], tpu["argv"][-4:]) == (
        23,
        "meta-llama/Meta-Llama-3.1-8B-Instruct",
        ["--max-model-len", "4096", "--port", "8000"],
    )
    assert cli_json("check", DATA, "0.33.0") == []


def test_the_model_from_env_is_checked(tmp_path: Path) -> None:
    """`MODEL_ID` set to Qwen3 8B (32 heads; the file's Llama is not in the offline model
    table): 3 GPUs are refused, as on a command line that writes the model itself; the
    fix keeps the multi-line plain scalar YAML."""
    text = (
        TPU.read_text(encoding="utf-8")
        .replace("--tensor-parallel-size 8 ", "--tensor-parallel-size 3 ")
        .replace("MODEL_ID=meta-llama/Meta-Llama-3.1-8B-Instruct", "MODEL_ID=Qwen/Qwen3-8B")
    )
    path = tmp_path / TPU.name
    path.write_text(text, encoding="utf-8")
    [found] = [f for f in cli_json("check", path, "0.33.0") if f["code"] == "VC601"]
    assert "Qwen/Qwen3-8B has 32 heads" in found["message"]
    fixed = apply_json_fix(text, found)
    assert fixed == text.replace("--tensor-parallel-size 3 ", "--tensor-parallel-size 2 ")
    command = yaml.safe_load(fixed)["commands"][-1]
    assert "--tensor-parallel-size 2 --max-model-len $MAX_MODEL_LEN" in command
    path.write_text(fixed, encoding="utf-8")
    assert [f for f in cli_json("check", path, "0.33.0") if f["code"] == "VC601"] == []


WHEEL_SCRIPT = "#!/bin/sh\npip install {wheel}\nvllm serve Qwen/Qwen3-8B --max-num-seqs 8\n"


@pytest.mark.parametrize(
    ("wheel", "said"),
    [
        ("https://example.org/w/vllm-0.8.5%2Bcu121-cp38-abi3-manylinux1_x86_64.whl", "0.8.5+cu121"),
        ("dist/vllm-0.8.5-1-cp38-abi3-manylinux1_x86_64.whl", "0.8.5"),
    ],
)
def test_a_wheel_by_url_or_file_pins_the_release(tmp_path: Path, wheel: str, said: str) -> None:
    """A URL (`%2B` for the local version's `+`) or a file with a build tag, in a script."""
    (tmp_path / "serve.sh").write_text(WHEEL_SCRIPT.format(wheel=wheel), encoding="utf-8")
    [start] = _argv(tmp_path / "serve.sh")
    assert (start["vllm_version"][:4], f"(for {said})" in start["version_source"]) == ("0.8.", True)


@pytest.mark.parametrize(
    "spec", ["H100:2", "nvidia:H100:80GB:2", "{name: H100, count: 2}", "nvidia:80GB:2..2"]
)
def test_resources_gpu_is_the_target(tmp_path: Path, spec: str) -> None:
    """The real AMD service asked for `gpu: MI300X`; with two NVIDIA GPUs written in any of
    dstack's spellings and Qwen3 8B on 4, the world is refused as for a pod's limit, and the
    lower size applied clears it. The TPU service's `v5litepod-4` claims no GPU (no
    "unknown GPU" warning): the real folder gets nothing."""
    text = (
        AMD.read_text(encoding="utf-8")
        .replace("  gpu: MI300X\n", f"  gpu: {spec}\n")
        .replace("MODEL_ID=meta-llama/Meta-Llama-3.1-70B-Instruct", "MODEL_ID=Qwen/Qwen3-8B")
        .replace("      --port 8000\n", "      --port 8000 --tensor-parallel-size 4\n")
        .replace("  - pip install vllm-0.6.0+rocm614-cp310-cp310-linux_x86_64.whl\n", "")
    )
    path = tmp_path / AMD.name
    path.write_text(text, encoding="utf-8")
    [found] = [f for f in cli_json("check", path, "0.33.0") if f["code"] == "VC703"]
    assert found["message"].endswith("(GPUs per node: 2, from resources.gpu)")
    fixed = apply_json_fix(text, found)
    assert fixed == text.replace("--tensor-parallel-size 4", "--tensor-parallel-size 2")
    yaml.safe_load(fixed)
    path.write_text(fixed, encoding="utf-8")
    assert [f for f in cli_json("check", path, "0.33.0") if f["code"] == "VC703"] == []
