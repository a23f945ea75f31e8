"""Multi-node worlds through the CLI: a LeaderWorkerSet group or a Slurm job of several
nodes that starts Ray, and a launch with `--nnodes`, on real public files
(tests/fixtures/multinode/SOURCES.md cites them and records what the real vLLM 0.33.0
`ParallelConfig` says of each case).

vLLM 0.33.0 refuses a world above one node's GPUs while the executor backend is unset,
Ray cluster or not (vllm/config/parallel.py:1071): the error stays, says what the group
holds, and its fix, applied here, adds `--distributed-executor-backend ray`.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

from support import REPO, cli, cli_command

FIXTURES = REPO / "tests" / "fixtures" / "multinode"
_CORPUS = REPO / "tests" / "corpus" / "deployments" / "files"
_SINGLE_NODE = (
    _CORPUS
    / "slurm"
    / "KempnerInstitute__distributed-inference-vllm__examples__workshop__70b_slurm.sh"
)
_LWS = _CORPUS / "k8s" / "kubernetes-sigs__lws__docs__examples__vllm__GPU__lws.yaml"


def _check(path: Path, *options: str) -> list[dict[str, Any]]:
    done = cli("check", "--format", "json", *options, str(path))
    assert done.returncode in (0, 1), done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout or "[]")
    return found


def _vc703(path: Path, *options: str) -> list[dict[str, Any]]:
    return [f for f in _check(path, *options) if f["code"] == "VC703"]


def _apply(text: str, fix: dict[str, Any]) -> str:
    """The CLI's edits (1-based lines and columns) applied, last first."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits = sorted(fix["edits"], key=lambda e: (e["line"], e["column"]), reverse=True)
    for edit in edits:
        start = starts[edit["line"] - 1] + edit["column"] - 1
        end = starts[edit["end_line"] - 1] + edit["end_column"] - 1
        text = text[:start] + edit["new_text"] + text[end:]
    return text


def _copy(tmp_path: Path, name: str, text: str | None = None) -> Path:
    path = tmp_path / name
    path.write_text(text if text is not None else (FIXTURES / name).read_text())
    return path


def _lws(tmp_path: Path, text: str | None = None) -> Path:
    return _copy(tmp_path, "lws.yaml", text if text is not None else _LWS.read_text())


def test_lws_example_on_its_image_release_gets_no_world_size_error() -> None:
    """kubernetes-sigs/lws's vLLM example runs v0.8.5, which picks Ray itself when the world
    exceeds the node: TP 8 x PP 2 on two 8-GPU pods is accepted."""
    assert _vc703(_LWS) == []


def test_lws_example_on_0_33_needs_the_ray_backend_and_the_fix_gives_it(tmp_path: Path) -> None:
    path = _lws(tmp_path)
    [found] = _vc703(path, "--vllm-version", "0.33.0")
    assert found["severity"] == "error"
    assert found["message"].startswith("World size (16) is larger than the number of available")
    assert "makes 2 nodes one Ray cluster (16 GPUs, from LeaderWorkerSet" in found["message"]
    assert found["fix"]["title"] == "Add `--distributed-executor-backend ray`"
    path.write_text(_apply(path.read_text(), found["fix"]))
    assert '--pipeline_parallel_size 2 --distributed-executor-backend ray"' in path.read_text()
    after = _check(path, "--vllm-version", "0.33.0")
    assert [f for f in after if f["severity"] == "error"] == []


def test_the_issue_27_group_of_one_gpu_pods(tmp_path: Path) -> None:
    """TP 1 x PP 2 on a group of two 1-GPU pods whose leader starts Ray."""
    path = _copy(tmp_path, "lws-1gpu-pods.yaml")
    [found] = _vc703(path)
    assert "World size (2) is larger than the number of available GPUs (1)" in found["message"]
    assert "(2 GPUs, from LeaderWorkerSet leaderWorkerTemplate.size)" in found["message"]
    path.write_text(_apply(path.read_text(), found["fix"]))
    assert [f for f in _check(path) if f["severity"] == "error"] == []


def test_a_group_too_small_for_the_world_gets_no_ray_fix(tmp_path: Path) -> None:
    text = _LWS.read_text().replace('nvidia.com/gpu: "8"', 'nvidia.com/gpu: "4"')
    path = _lws(tmp_path, text)
    [found] = _vc703(path, "--vllm-version", "0.33.0")
    assert "the group's 8 GPUs cannot hold a world of 16 either" in found["message"]
    assert found.get("fix") is None


def test_slurm_job_that_starts_ray_over_its_nodes(tmp_path: Path) -> None:
    """4 nodes x 4 GPUs, a Ray head started with srun, `--tensor-parallel-size 16`."""
    path = _copy(tmp_path, "llama_3.1_405b_slurm.sh")
    [found] = _vc703(path, "--gpu", "H100-80GB")
    assert "(GPUs per node: 4, from #SBATCH --gpus-per-node)" in found["message"]
    assert "makes 4 nodes one Ray cluster (16 GPUs, from #SBATCH --nodes)" in found["message"]
    path.write_text(_apply(path.read_text(), found["fix"]))
    assert "--enforce-eager --distributed-executor-backend ray\n" in path.read_text()
    assert _vc703(path, "--gpu", "H100-80GB") == []


def test_slurm_job_without_ray_is_judged_by_one_node(tmp_path: Path) -> None:
    text = (FIXTURES / "llama_3.1_405b_slurm.sh").read_text().replace("ray start --head", "true")
    path = _copy(tmp_path, "no-ray.sh", text)
    [found] = _vc703(path, "--gpu", "H100-80GB")
    assert "Ray cluster" not in found["message"]


def test_a_single_node_job_gets_no_world_size_error() -> None:
    """`--nodes=1`, `--gpus-per-node=4`, a Ray head and `--tensor-parallel-size 4`."""
    assert _vc703(_SINGLE_NODE, "--gpu", "H100-80GB") == []


def test_nnodes_from_the_group_is_vllms_own_multi_node_launch() -> None:
    """`--nnodes $(LWS_GROUP_SIZE)`: `mp` across the nodes (accepted by 0.33.0 with
    nnodes 2), not a world on one node."""
    assert _vc703(FIXTURES / "lws-nnodes.yaml") == []


def _memory_case(tmp_path: Path, backend: str) -> Path:
    """The issue 27 group (two 1-GPU pods, Ray leader) serving Llama 3.1 70B (the
    hand-written config.json and safetensors index under tests/fixtures/models) on one
    GPU per stage."""
    args = "--tensor-parallel-size 1 --pipeline_parallel_size 2"
    text = (
        (FIXTURES / "lws-1gpu-pods.yaml")
        .read_text()
        .replace(
            f"--model Qwen/Qwen3-8B {args}",
            f"--model meta-llama/Llama-3.1-70B-Instruct --max-model-len 8192{backend}",
        )
    )
    return _copy(tmp_path, "lws-70b.yaml", text)


def _memory(path: Path) -> list[dict[str, Any]]:
    command = [*cli_command(), "check", "--format", "json", "--gpu", "H100-80GB", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, env=_MODELS, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    return [f for f in json.loads(done.stdout or "[]") if f["code"] == "VC680"]


_MODELS = {**os.environ, "VLLM_CONFIG_MODEL_DIRS": str(REPO / "tests" / "fixtures" / "models")}


def test_weights_fix_spreads_over_the_ray_group(tmp_path: Path) -> None:
    """131 GiB of weights do not fit one H100; with the Ray backend the world may take
    both pods' GPUs, so the fix is `--tensor-parallel-size 2`, and applied it fits."""
    path = _memory_case(tmp_path, " --distributed-executor-backend ray")
    [found] = _memory(path)
    assert found["fix"]["title"] == "Add `--tensor-parallel-size 2`"
    path.write_text(_apply(path.read_text(), found["fix"]))
    assert _memory(path) == []
    assert _vc703(path, "--gpu", "H100-80GB") == []


def test_weights_fix_stays_on_one_node_without_the_ray_backend(tmp_path: Path) -> None:
    [found] = _memory(_memory_case(tmp_path, ""))
    assert found.get("fix") is None


_KUBEAI = FIXTURES / "kubeai-llama-3.1-405b-instruct-fp8-h100.yaml"


def test_kubeai_resource_profile_states_the_gpus(tmp_path: Path) -> None:
    """`resourceProfile: nvidia-gpu-h100:8`: eight H100s, so TP 8 fits and TP 16 does not."""
    assert _vc703(_KUBEAI) == []
    path = _copy(tmp_path, "kubeai.yaml", _KUBEAI.read_text().replace("size=8", "size=16"))
    [found] = _vc703(path)
    assert "(GPUs per node: 8, from KubeAI resourceProfile)" in found["message"]
    path.write_text(_apply(path.read_text(), found["fix"]))
    assert "--tensor-parallel-size=8" in path.read_text()
    assert _vc703(path) == []


def test_nnodes_launch_whose_share_of_the_world_exceeds_a_node(tmp_path: Path) -> None:
    """VC712: TP 8 x PP 2 over `--nnodes $(LWS_GROUP_SIZE)` (the group's 2 pods of 4 GPUs)
    puts 8 workers on each node; vLLM 0.33.0's worker asserts its local rank is a GPU."""
    assert [f for f in _check(FIXTURES / "lws-nnodes.yaml") if f["code"] == "VC712"] == []
    text = (FIXTURES / "lws-nnodes.yaml").read_text().replace("size 4 --pipe", "size 8 --pipe")
    [found] = [f for f in _check(_copy(tmp_path, "lws.yaml", text)) if f["code"] == "VC712"]
    assert found["severity"] == "error"
    assert "16 over 2 nodes, from LeaderWorkerSet leaderWorkerTemplate.size" in found["message"]
    assert "8 workers on each node, which has 4 GPUs" in found["message"]
    assert _vc703(tmp_path / "lws.yaml") == []


def test_an_explicit_nnodes_of_one_is_still_one_node(tmp_path: Path) -> None:
    text = "# vllm-config: gpu=H100-80GB count=4\nmodel: Qwen/Qwen3-8B\n"
    path = _copy(tmp_path, "one.yaml", text + "tensor-parallel-size: 8\nnnodes: 1\n")
    [found] = _vc703(path)
    assert found["fix"]["title"] == "Set `tensor-parallel-size: 4`"
