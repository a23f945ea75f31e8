"""The checks the target GPU decides, through the CLI: each rule on a failing and a passing
fixture, the target read from `--gpu`/`--gpus`, the marker comment and what a manifest, a
compose file or a batch script says; without a target they are silent. (The CPU oracle
has no GPU: these cannot be fidelity cases.)"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import GPU_MANIFEST, REPO, cli

BF16 = "model: Qwen/Qwen3-8B\ndtype: bfloat16\n"
TP8 = "model: Qwen/Qwen3-8B\ntensor-parallel-size: 8\n"


def codes(path: Path, *options: str) -> list[tuple[str, int]]:
    """(code, line) of the VC7xx findings of `check --format json`."""
    done = cli("check", "--format", "json", *options, str(path))
    assert done.returncode in (0, 1), done.stderr
    found = json.loads(done.stdout or "[]")
    rows = found if isinstance(found, list) else found.get("findings", [])
    flat = [f for row in rows for f in row.get("findings", [row])]
    return sorted((f["code"], f["line"]) for f in flat if f["code"].startswith("VC7"))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


FA_FP8 = "model: Qwen/Qwen3-8B\nattention-backend: FLASH_ATTN\nkv-cache-dtype: fp8\n"
DBO = "model: Qwen/Qwen3-30B-A3B\nenable-expert-parallel: true\nenable-dbo: true\n"
HISPARSE = (
    "model: deepseek-ai/DeepSeek-V3.2-Exp\nkv-transfer-config:\n  kv_connector: HiSparseConnector\n"
    "  kv_role: kv_both\n  kv_connector_extra_config:\n    host_pool_gib: 64\n"
)

CASES = [
    (BF16, "T4", "VC701", "A10G"),
    (BF16, "tesla-v100", "VC701", "nvidia-l4"),
    ("model: Qwen/Qwen3-8B\nquantization: fp8\n", "V100", "VC702", "T4"),
    ("model: Qwen/Qwen3-8B\nquantization: mxfp4\n", "T4", "VC702", "A100"),
    ("model: Qwen/Qwen3-8B\ndtype: half\nattention-backend: FLASH_ATTN\n", "T4", "VC704", "L4"),
    ("model: Qwen/Qwen3-8B\nattention-backend: CUTLASS_MLA\n", "H100", "VC704", "B200"),
    ("model: m\nenable-mamba-cache-stochastic-rounding: true\n", "MI300X", "VC705", "B200"),
    ("model: m\nenable-mamba-cache-stochastic-rounding: true\n", "H100", "VC705", "GB200"),
    ("model: m\nkda-prefill-backend: flashkda\n", "MI355X", "VC706", "H200"),
    ("model: m\nkda-prefill-backend: fused\n", "H200", "VC706", "MI325X"),
    ("model: m\nprofiler-config:\n  profiler: proton\n", "mi250x", "VC707", "RTX 4090"),
    (FA_FP8, "L40S", "VC704", "H100"),
    (
        DBO + "all2all-backend: deepep_high_throughput\nasync-scheduling: true\n",
        "MI325X",
        "VC709",
        "H200",
    ),
    (HISPARSE, "MI300X", "VC710", "H200"),
    (HISPARSE, "H200", "VC716", "MI300X"),
    (DBO + "all2all-backend: deepep_high_throughput\n", "MI300X", "VC717", "H100"),
    (
        "model: m\ncompilation-config:\n  pass_config:\n    fuse_rope_kvcache: true\n",
        "H100",
        "VC714",
        "MI300X",
    ),
    (
        'model: m\ncompilation-config: \'{"pass_config": {"fuse_act_padding": true}}\'\n',
        "L4",
        "VC714",
        "MI355X",
    ),
]


@pytest.mark.parametrize(("text", "gpu", "code", "passing_gpu"), CASES)
def test_fails_on_one_gpu_and_passes_on_another(
    tmp_path: Path, text: str, gpu: str, code: str, passing_gpu: str
) -> None:
    path = write(tmp_path, "serve.yaml", text)
    assert code in {c for c, _ in codes(path, "--gpu", gpu)}
    assert code not in {c for c, _ in codes(path, "--gpu", passing_gpu)}


def test_without_a_target_nothing_is_said(tmp_path: Path) -> None:
    """Except the ROCm-only fusions (VC714), which are information then."""
    for at, (text, *_rest) in enumerate(CASES):
        write(tmp_path, f"serve{at}.yaml", text)
    assert [code for code, _ in codes(tmp_path)] == ["VC714", "VC714"]


def test_rocm_only_fusion_without_a_target_is_information(tmp_path: Path) -> None:
    """vLLM turns the pass off on every platform but ROCm (compilation.py:283): unknown
    target, information that says so; AMD target, nothing; NVIDIA target, a warning."""
    path = write(tmp_path, "serve.yaml", CASES[-2][0])
    done = cli("check", "--format", "json", str(path))
    (found,) = [f for f in json.loads(done.stdout) if f["code"] == "VC714"]
    assert found["severity"] == "info"
    assert found["message"].startswith(
        "`compilation-config.pass_config.fuse_rope_kvcache` runs only on ROCm"
    )
    assert "VC714" not in {c for c, _ in codes(path, "--gpu", "MI300X")}


def test_world_size_against_the_gpus_given(tmp_path: Path) -> None:
    path = write(tmp_path, "serve.yaml", TP8)
    assert codes(path, "--gpu", "H100-80GB", "--gpus", "4") == [("VC703", 2)]
    assert codes(path, "--gpu", "H100-80GB", "--gpus", "8") == []
    assert codes(path, "--gpus", "4") == []  # which platform is unknown: CUDA checks it
    ray = write(tmp_path, "ray.yaml", TP8 + "distributed-executor-backend: ray\n")
    assert codes(ray, "--gpu", "H100", "--gpus", "4") == []


def test_the_marker_comes_before_the_cli(tmp_path: Path) -> None:
    path = write(tmp_path, "serve.yaml", "# vllm-config: gpu=T4 count=8\n" + BF16)
    assert codes(path) == [("VC701", 3)]
    assert codes(path, "--gpu", "H100") == [("VC701", 3)]


def test_an_unknown_name_is_said_and_checks_stay_off(tmp_path: Path) -> None:
    path = write(tmp_path, "serve.yaml", "# vllm-config: gpu=T5\n" + BF16)
    assert codes(path) == [("VC700", 1)]
    done = cli("check", "--gpu", "H1000", str(path))
    assert done.returncode == 2 and "did you mean" in done.stderr and "H100" in done.stderr


def test_a_manifest_says_its_gpus(tmp_path: Path) -> None:
    failing = write(tmp_path, "a.yaml", GPU_MANIFEST.format(accelerator="nvidia-tesla-t4", gpus=2))
    assert codes(failing) == [("VC701", 13), ("VC703", 13)]
    passing = write(tmp_path, "b.yaml", GPU_MANIFEST.format(accelerator="nvidia-h100-80gb", gpus=4))
    assert codes(passing) == []


def test_an_unknown_accelerator_label_is_said(tmp_path: Path) -> None:
    path = write(tmp_path, "a.yaml", GPU_MANIFEST.format(accelerator="nvidia-tesla-k80", gpus=4))
    assert codes(path) == [("VC700", 9)]


def test_a_compose_reservation_counts(tmp_path: Path) -> None:
    text = """\
services:
  vllm:
    image: vllm/vllm-openai:v0.33.0
    command: ["Qwen/Qwen3-8B", "--tensor-parallel-size", "4"]
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              count: {count}
              capabilities: [gpu]
"""
    assert codes(write(tmp_path, "compose.yaml", text.format(count=2))) == [("VC703", 4)]
    assert codes(write(tmp_path, "compose.yml", text.format(count=4))) == []


def test_a_batch_script_and_visible_devices(tmp_path: Path) -> None:
    script = """\
#!/bin/bash
#SBATCH --gres=gpu:v100:8
vllm serve Qwen/Qwen3-8B --dtype bfloat16
CUDA_VISIBLE_DEVICES=0,1 vllm serve Qwen/Qwen3-8B --dtype half --tensor-parallel-size 4
"""
    path = write(tmp_path, "serve.sh", script)
    assert codes(path) == [("VC701", 3), ("VC703", 4)]
    fixed = script.replace("bfloat16", "half").replace("size 4", "size 2")
    assert codes(write(tmp_path, "fixed.sh", fixed)) == []


def test_odd_counts_are_no_counts(tmp_path: Path) -> None:
    """Digits that are no decimal number (`²`, `٣`) say nothing; nothing crashes."""
    marked = write(tmp_path, "serve.yaml", "# vllm-config: gpu=H100 count=\u00b2\n" + TP8)
    assert codes(marked) == []
    manifest = GPU_MANIFEST.format(accelerator="nvidia-h100-80gb", gpus='"\u0663"')
    assert codes(write(tmp_path, "a.yaml", manifest)) == []
    script = "#SBATCH --gres=gpu:h100:\u0663\nvllm serve m --tensor-parallel-size 8\n"
    assert codes(write(tmp_path, "serve.sh", script)) == []


def test_claims_in_a_markdown_fence_point_at_the_document(tmp_path: Path) -> None:
    """What a script inside a Markdown fence (indented in a list item) says of its GPUs is
    reported where the document writes it."""
    text = "- On the cluster:\n\n  ```bash\n  #SBATCH --gres=gpu:k80:2\n  vllm serve m\n  ```\n"
    path = write(tmp_path, "README.md", text)
    done = cli("check", "--format", "json", str(path))
    [found] = json.loads(done.stdout)
    assert (found["code"], found["line"], found["column"]) == ("VC700", 4, 11)
    assert found["end_column"] == 11 + len("--gres=gpu:k80:2")


def test_the_marker_after_a_lone_carriage_return(tmp_path: Path) -> None:
    """The marker on the second line of a file with old Mac line ends (YAML's line breaks)."""
    text = "# serving config\r# vllm-config: gpu=T4\rmodel: Qwen/Qwen3-8B\rdtype: bfloat16\r"
    path = tmp_path / "serve.yaml"
    path.write_bytes(text.encode("utf-8"))
    assert [code for code, _ in codes(path)] == ["VC701"]


def test_the_multimodal_processor_on_the_gpu(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only an encode-only instance may run the processor on the GPU; a text model has no
    processor to place (the models' config.json files are fixtures)."""
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", str(REPO / "tests" / "fixtures" / "models"))
    vl = "model: Qwen/Qwen2.5-VL-7B-Instruct\n"
    write(tmp_path, "a.yaml", vl + "mm-processor-kwargs:\n  device: cuda:0\n")
    producer = "ec-transfer-config:\n  ec_connector: ECExampleConnector\n  ec_role: ec_producer\n"
    write(tmp_path, "b.yaml", vl + "mm-processor-device: cuda\n" + producer)
    write(tmp_path, "c.yaml", "model: Qwen/Qwen3-30B-A3B\nmm-processor-device: cuda\n")
    assert codes(tmp_path, "--gpu", "MI300X") == [("VC711", 3)]
    assert codes(tmp_path) == []
