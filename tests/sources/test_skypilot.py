"""SkyPilot tasks and Ray cluster launcher configs (`sources.skypilot`), on the real files of
`data/skypilot/` (SOURCES.md cites repository, path and commit of each) and the two SkyPilot
tasks of `data/not-config/`: the `run:` script's starts with `envs:` filled in, the task's
environment, the accelerators as the GPU claim (alternatives agree or say nothing), the
image and the release `setup:` installs, and `num_nodes` as a group where the run starts Ray.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from source_support import line_column, single, texts
from support import cli
from vllm_config_lsp import engine
from vllm_config_lsp.findings import apply_edits
from vllm_config_lsp.sources import markdown
from vllm_config_lsp.sources.hosts import host_of
from vllm_config_lsp.sources.invocation import GpuClaim, Invocation
from vllm_config_lsp.sources.skypilot import find_invocations

DATA = Path(__file__).resolve().parent / "data"
REAL = DATA / "skypilot"
NOT_CONFIG = DATA / "not-config" / "skypilot" / "skypilot"
FILES = sorted(REAL.glob("*.yaml")) + sorted(NOT_CONFIG.glob("*.yaml"))
SGLANG = "skypilot-org__skypilot__llm__deepseek-r1__deepseek-r1-671B.yaml"
QWEN = "skypilot-org__skypilot__llm__qwen__qwen25-72b.yaml"


def _read(path: Path) -> tuple[str, list[Invocation]]:
    text = path.read_text(encoding="utf-8")
    return text, find_invocations(text)


def _claim(invocation: Invocation) -> tuple[str | None, int | None] | None:
    claims = [c for c in invocation.gpus if c.origin == "resources.accelerators"]
    return (claims[0].name, claims[0].count) if claims else None


def _group(invocation: Invocation) -> GpuClaim | None:
    return next((c for c in invocation.gpus if c.group is not None), None)


def _ray_world(model: str) -> list[str]:
    """The argv of SkyPilot's two-node Ray examples: TP over a node's 8 GPUs, PP over the
    nodes."""
    flags = "--port 8081 --tensor-parallel-size 8 --pipeline-parallel-size 2"
    return [model, *flags.split(), "--max-model-len", "32768", "--trust-remote-code"]


#: file → (line and column of the start, its argv, the accelerators claim (name, count),
#: the image, the release pinned in `setup:`, the group's nodes and GPUs).
EXPECTED: dict[str, tuple[tuple[int, int], list[str], object, str | None, str | None, object]] = {
    "skypilot-org__skypilot__llm__vllm__vllm-multinode.sky.yaml": (
        (52, 5),
        _ray_world("meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8"),
        ("H100", 8),
        None,
        None,  # `vllm>=0.10.0`: no one release
        (2, 16),
    ),
    "skypilot-org__skypilot__llm__kimi-k2__kimi-k2.sky.yaml": (
        (59, 5),
        _ray_world("moonshotai/Kimi-K2-Instruct"),
        ("H100", 8),
        "vllm/vllm-openai:v0.10.0",
        None,
        (2, 16),
    ),
    "skypilot-org__skypilot__llm__vllm__serve-openai-api-docker.yaml": (
        (16, 3),
        [
            "--model",
            "meta-llama/Llama-2-7b-chat-hf",
            "--tokenizer",
            "hf-internal-testing/llama-tokenizer",
            "--host",
            "0.0.0.0",
        ],
        (None, 1),  # {L4:1, A10G:1, …}: one GPU, which one is SkyPilot's choice
        "vllm/vllm-openai:latest",
        None,
        None,
    ),
    "skypilot-org__skypilot__llm__deepseek-r1__deepseek-r1-vllm.yaml": (
        (20, 3),
        [
            "--host",
            "0.0.0.0",
            "--tensor-parallel-size",
            "1",
            "--model",
            "deepseek-ai/DeepSeek-R1-Distill-Llama-8B",
            "--max-model-len",
            "4096",
        ],
        (None, 1),
        None,
        "0.6.6.post1",
        None,
    ),
    "skypilot-org__skypilot__llm__gpt-oss__gpt-oss-vllm.sky.yaml": (
        (24, 3),
        ["openai/gpt-oss-120b", "--host", "0.0.0.0", "--port", "8000", "--trust-remote-code"],
        (None, 1),
        None,
        "0.10.1+gptoss",
        None,
    ),
    "skypilot-org__skypilot__llm__llama-4__llama4.yaml": (
        (24, 3),
        [
            "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
            "--port",
            "8081",
            "--tensor-parallel-size",
            "$SKYPILOT_NUM_GPUS_PER_NODE",  # H100:8 or H100:12: not one count
            "--max-model-len",
            "430000",
        ],
        None,
        None,
        None,
        None,
    ),
    "skypilot-org__skypilot__llm__qwen__qwen25-72b.yaml": (
        (32, 3),
        [
            "Qwen/Qwen2.5-72B-Instruct",
            "--host",
            "0.0.0.0",
            "--tensor-parallel-size",
            "$SKYPILOT_NUM_GPUS_PER_NODE",
            "--max-model-len",
            "1024",
        ],
        None,  # {A100:8, A100-80GB:4, A100-80GB:8}: no name nor count they all share
        None,
        "0.6.1.post2",
        None,
    ),
    # `LD_PRELOAD=… nohup "$VLLM_ENV/bin/python" \\ -m vllm.entrypoints.openai.api_server`:
    # `--model "${LLM_MODEL}"` is the `envs:` default; `LLM_API_KEY: ""` is required at launch
    "Adam-D-Lewis__skyllm__sky__sky.yaml": (
        (109, 51),
        [
            *("--model", "Qwen/Qwen2.5-0.5B-Instruct", "--api-key", "${LLM_API_KEY}"),
            *("--host", "0.0.0.0", "--port", "8080"),
        ],
        (None, 1),  # {RTX4090:1, RTX3090:1, …}: one GPU, SkyPilot's choice
        None,
        None,
        None,
    ),
    "serve.yaml": ((25, 3), ["--model", "lmsys/vicuna-7b-v1.3"], ("A100", 1), None, None, None),
    "vllm.sky.yaml": (
        (26, 3),
        [
            "meta-llama/Llama-4-Maverick-17B-128E-Instruct-FP8",
            "--port",
            "8081",
            "--tensor-parallel-size",
            "8",
            "--max-model-len",
            "430000",
        ],
        (None, 8),
        None,
        None,
        None,
    ),
}


def test_every_real_file_is_a_skypilot_host_and_expected() -> None:
    assert len(FILES) >= 10
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        assert host_of(path.as_posix(), text) == "skypilot", path
    assert {path.name for path in FILES} == {*EXPECTED, SGLANG}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_start_of_each_real_file(name: str) -> None:
    path = REAL / name if (REAL / name).exists() else NOT_CONFIG / name
    text, found = _read(path)
    start = single(found)
    where, argv, claim, image, pinned, group = EXPECTED[name]
    assert start.source == "skypilot"
    assert line_column(text, start.start) == where
    assert texts(start) == argv
    assert _claim(start) == claim
    assert start.image == image
    assert start.pinned_version == pinned
    found_group = _group(start)
    if group is None:
        assert found_group is None
    else:
        assert found_group is not None and found_group.group is not None
        assert (found_group.group.nodes, found_group.group.gpus) == group
        assert found_group.group.launcher == "ray"
        assert text[found_group.start : found_group.end] == "2"


def test_sglang_task_starts_no_vllm() -> None:
    """SkyPilot's DeepSeek-R1 task runs `python -m sglang.launch_server` over two nodes."""
    _text, found = _read(REAL / SGLANG)
    assert found == []


def test_filled_words_point_at_the_reference() -> None:
    """`$MODEL_NAME` takes the `envs:` value; its characters map to the `$MODEL_NAME` the
    run script writes, and `$SKYPILOT_NUM_GPUS_PER_NODE` to the accelerators' count."""
    text, found = _read(NOT_CONFIG / "vllm.sky.yaml")
    start = single(found)
    model, tp = start.args[0], start.args[4]
    assert model.resolved and not model.splat
    assert text[model.start : model.end] == "$MODEL_NAME"
    assert text[model.starts[0] : model.ends[-1]] == "$MODEL_NAME"
    assert tp.text == "8" and text[tp.start : tp.end] == "$SKYPILOT_NUM_GPUS_PER_NODE"


def test_envs_and_secrets_are_the_environment_before_the_script_exports() -> None:
    text, found = _read(REAL / "skypilot-org__skypilot__llm__kimi-k2__kimi-k2.sky.yaml")
    start = single(found)
    assert [(var.name.text, var.origin) for var in start.environ] == [
        ("MODEL_NAME", "envs"),
        ("HF_TOKEN", "secrets"),
        ("VLLM_HOST_IP", "export"),
    ]
    model = start.environment()["MODEL_NAME"]
    assert model.value is not None and model.value.text == "moonshotai/Kimi-K2-Instruct"
    assert start.environment()["HF_TOKEN"].value is None  # `--secret HF_TOKEN` at launch
    name = model.name
    assert line_column(text, name.start) == (8, 3)


def test_accelerator_forms() -> None:
    """A name alone is one GPU; a mapping's values are counts; a list or `any_of` are
    alternatives: only what they all say is claimed; templates and fractions say nothing."""
    cases = {
        "accelerators: L4": ("L4", 1),
        "accelerators: {A100-80GB: 4}": ("A100-80GB", 4),
        "accelerators: [H100:8, H200:8]": (None, 8),
        "accelerators: [A100:4, A100:8]": ("A100", None),
        "accelerators: {L4:1, A100:8}": None,
        "accelerators: '{gpu}:{gpu_count}'": None,
        "accelerators: T4:0.5": ("T4", None),
        "any_of:\n    - accelerators: H100:8\n    - accelerators: H200:8": (None, 8),
    }
    for written, claim in cases.items():
        text = f"resources:\n  {written}\nrun: |\n  vllm serve m\n"
        assert _claim(single(find_invocations(text))) == claim, written


def test_no_group_without_a_launcher_and_the_script_assignment_wins() -> None:
    """Two nodes that each run their own server are no group; a name the script assigns
    itself is not filled from `envs:`."""
    text = (
        "num_nodes: 2\nresources:\n  accelerators: H100:8\nenvs:\n  TP: 4\n"
        "run: |\n  TP=2\n  vllm serve m --tensor-parallel-size $TP --pipeline-parallel-size "
        "$SKYPILOT_NUM_NODES\n"
    )
    start = single(find_invocations(text))
    assert _group(start) is None
    assert texts(start)[2:] == ["2", "--pipeline-parallel-size", "2"]


def test_a_start_in_setup_is_read_too() -> None:
    text = (
        "envs:\n  M: Qwen/Qwen3-8B\nsetup: |\n  pip install vllm==0.10.2\n"
        "  vllm serve $M --max-model-len 1024 &\nrun: |\n  python client.py\n"
    )
    start = single(find_invocations(text))
    assert texts(start) == ["Qwen/Qwen3-8B", "--max-model-len", "1024"]
    assert start.pinned_version == "0.10.2"


def test_ray_cluster_config() -> None:
    """A Ray cluster launcher config whose head starts vLLM after Ray: the head commands
    are one script, the head node type's resources the claim."""
    text = (
        "cluster_name: vllm\n"
        "docker:\n  image: vllm/vllm-openai:v0.9.0\n  container_name: vllm\n"
        "head_node_type: head\n"
        "available_node_types:\n"
        "  head:\n    resources: {GPU: 4, 'accelerator_type:L4': 1}\n"
        "    node_config: {InstanceType: g6.12xlarge}\n"
        "setup_commands:\n  - export VLLM_LOGGING_LEVEL=DEBUG\n"
        "head_start_ray_commands:\n"
        "  - ray stop\n"
        "  - ray start --head --port=6379\n"
        "  - nohup vllm serve m --tensor-parallel-size 4 &\n"
    )
    assert host_of("cluster.yaml", text) == "skypilot"
    start = single(find_invocations(text))
    assert texts(start) == ["m", "--tensor-parallel-size", "4"]
    assert start.image == "vllm/vllm-openai:v0.9.0"
    [claim] = start.gpus
    assert (claim.name, claim.count, text[claim.start : claim.end]) == ("L4", 4, "4")
    assert [var.name.text for var in start.environ] == ["VLLM_LOGGING_LEVEL"]


# -- through the CLI ---------------------------------------------------------------------


def test_check_finds_no_error_on_the_real_files() -> None:
    for path in FILES:
        result = cli("check", str(path))
        assert " error " not in result.stdout, (path, result.stdout)
        assert result.returncode == 0, (path, result.stdout, result.stderr)


def test_argv_json_shows_the_environment() -> None:
    path = REAL / "skypilot-org__skypilot__llm__kimi-k2__kimi-k2.sky.yaml"
    [entry] = json.loads(cli("argv", "--format", "json", str(path)).stdout)
    assert entry["source"] == "skypilot" and (entry["line"], entry["column"]) == (59, 5)
    assert entry["argv"][:1] == ["moonshotai/Kimi-K2-Instruct"]
    assert entry["environment"][:2] == [
        {"name": "MODEL_NAME", "value": "moonshotai/Kimi-K2-Instruct", "origin": "envs"},
        {"name": "HF_TOKEN", "value": None, "origin": "secrets"},
    ]
    assert entry["environment_open"] is True  # `sky launch --env` adds to it
    assert "vllm/vllm-openai:v0.10.0" in entry["version_source"]


def test_check_dir_finds_skypilot_files(tmp_path: Path) -> None:
    for path in (NOT_CONFIG / "vllm.sky.yaml", REAL / QWEN):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    listed = json.loads(cli("argv", "--format", "json", str(tmp_path)).stdout)
    assert sorted(Path(entry["file"]).name for entry in listed) == [
        "skypilot-org__skypilot__llm__qwen__qwen25-72b.yaml",
        "vllm.sky.yaml",
    ]
    result = cli("check", "-v", str(tmp_path))
    assert result.returncode == 0 and "not a vLLM file" not in result.stderr, result.stderr


_T4_TASK = (
    "resources:\n  accelerators: T4:1\n"
    "envs:\n  MODEL_NAME: Qwen/Qwen2.5-7B-Instruct\n"
    "run: |\n  vllm serve $MODEL_NAME --dtype bfloat16 --tensor-parallel-size 2\n"
)
_T4_CONFIG = "model: Qwen/Qwen2.5-7B-Instruct\ndtype: bfloat16\ntensor-parallel-size: 2\n"


def _findings(path: Path, *options: str) -> dict[str, str]:
    result = cli("check", "--format", "json", *options, str(path))
    return {row["code"]: row["message"] for row in json.loads(result.stdout)}


def test_the_accelerators_reach_the_hardware_rules(tmp_path: Path) -> None:
    """`accelerators: T4:1` gets what a `--config` file gets with `--gpu T4 --gpus 1`:
    bf16 refused on the T4 (VC701), a tensor-parallel size above the node's GPUs (VC703)."""
    task = tmp_path / "t4.sky.yaml"
    task.write_text(_T4_TASK, encoding="utf-8")
    config = tmp_path / "t4.yaml"
    config.write_text(_T4_CONFIG, encoding="utf-8")
    from_task = _findings(task)
    from_config = _findings(config, "--gpu", "T4", "--gpus", "1")
    for code in ("VC701", "VC703"):
        assert from_task[code].split(" (")[0] == from_config[code].split(" (")[0], code
    assert "resources.accelerators" in from_task["VC701"]


def test_the_hardware_fixes_apply_inside_the_run_block() -> None:
    """VC701's and VC703's fixes edit the `run: |` block's characters: the task stays
    YAML, the script says what was fixed, and the findings are gone."""
    text = _T4_TASK.replace(" --dtype", " \\\n    --dtype")
    checked = engine.check(engine.Document(text, path=Path("/nonexistent/t4.sky.yaml")))
    fixes = sorted(
        (fix for f in checked.findings if f.code in ("VC701", "VC703") for fix in f.fixes),
        key=lambda fix: -fix.edits[0].start,
    )
    assert len(fixes) == 2
    fixed = text
    for fix in fixes:
        fixed = apply_edits(fixed, fix.edits)
    assert yaml.safe_load(fixed)["run"] == (
        "vllm serve $MODEL_NAME \\\n  --dtype half --tensor-parallel-size 1\n"
    )
    again = engine.check(engine.Document(fixed, path=Path("/nonexistent/t4.sky.yaml")))
    assert not {"VC701", "VC703"} & {f.code for f in again.findings}


def test_vllm_docs_skypilot_tasks_in_markdown() -> None:
    """vLLM's own SkyPilot page writes its tasks as ```` ```yaml ```` blocks: the three whose
    `run:` starts the API server are read (the GUI task's is Gradio's), `$MODEL_NAME` from
    `envs:`, `$SKYPILOT_NUM_GPUS_PER_NODE` from `{L4, A10g, …}` (one GPU each), the release
    from `setup:`'s `pip install vllm==0.4.0.post1`."""
    path = REAL / "vllm-project__vllm__docs__deployment__frameworks__skypilot.md"
    text = path.read_text(encoding="utf-8")
    found = markdown.find_invocations(text)
    assert [line_column(text, start.start)[0] for start in found] == [51, 149, 265]
    for start in found:
        assert texts(start) == [
            "--port",
            "8081",
            "--model",
            "meta-llama/Meta-Llama-3-8B-Instruct",
            "--trust-remote-code",
            "--tensor-parallel-size",
            "1",
        ]
        assert start.entrypoint == "api_server" and start.pinned_version == "0.4.0.post1"
        assert _claim(start) == (None, 1)
        assert [var.name.text for var in start.environ][:2] == ["MODEL_NAME", "HF_TOKEN"]
    result = cli("check", str(path))
    assert result.returncode == 0 and " error " not in result.stdout, result.stdout
