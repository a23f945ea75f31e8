"""Python engine arguments (issue 28 item 7, issue 29 item 4): `LLM(...)`, `EngineArgs(...)`,
`AsyncEngineArgs(...)` keywords and Ray Serve LLM's `LLMConfig` read as the command line
that sets the same fields, Modal's `gpu=` and Ray's `accelerator_type` as the target GPU.

Everything goes through the CLI (`argv --format json`, `check --format json`); the real
files are in `tests/sources/data/python/` (SOURCES.md cites them; stored as `.py.txt` so
that the linters leave other people's code alone, and copied back to `.py` to be read), the
KubeRay manifests in the deployments corpus. A fix is applied and the result must still be
Python (`ast.parse`)."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest
from source_support import apply_json_fix
from support import CORPUS, cli

DATA = Path(__file__).parent / "data" / "python"
KUBERAY = CORPUS / "deployments" / "files" / "cr"

#: Each real file: (line, argv) of every start `argv` lists.
REAL: dict[str, list[tuple[int, list[str]]]] = {
    "vllm-project__vllm__basic.py": [(19, ["--model", "facebook/opt-125m"])],
    "henghayan__HappyChat__awa_run.py": [
        (
            4,
            [
                *("--model", "/data2/llm3-8", "--quantization", "awq", "--dtype", "half"),
                *("--gpu-memory-utilization", "0.95", "--max-model-len", "4096"),
            ],
        )
    ],
    # `model=model_name`: the module's one assignment of it, a string, is the model
    "emirhanerbil__azure_llm_category__llm_test.py": [
        (
            6,
            [
                *("--model", "Qwen/Qwen2-7B-Instruct", "--trust-remote-code"),
                *("--tensor-parallel-size", "1", "--dtype", "float16"),
                *("--gpu-memory-utilization", "0.8", "--max-model-len", "5608"),
            ],
        )
    ],
    # the function's parameters: unknown, never reported
    "IINemo__lm-polygraph__default_vllm.py": [
        (7, ["--model", "{model_path}", "--gpu-memory-utilization", "{gpu_memory_utilization}"])
    ],
    # `LLM(**args)`: the whole command line is unknown (a splat), never reported
    "vllm-project__vllm__generate.py": [(15, ["{args}"])],
    "ray-project__ray__serve_llama_3_1_8b.py": [(5, ["--max-model-len", "8192"])],
    "ray-project__ray__serve_llama_3_1_70b.py": [
        (5, ["--max-model-len", "32768", "--tensor-parallel-size", "8"])
    ],
    "ray-project__ray__serve_qwen_VL.py": [(5, ["--max-model-len", "8192"])],
    "ray-project__ray__serve_qwen_3_32b.py": [
        (
            5,
            [
                "--tensor-parallel-size",
                "8",
                "--max-model-len",
                "32768",
                "--reasoning-parser",
                "qwen3",
            ],
        )
    ],
    "robbypambudi__ray-vllm-benchmark__qwen.py": [(4, ["--tensor-parallel-size", "1"])],
    "vllm-project__vllm__async_llm_streaming.py": [
        (70, ["--model", "meta-llama/Llama-3.2-1B-Instruct", "--enforce-eager"])
    ],
    # `subprocess.Popen(" ".join(cmd), shell=True)` of a list built in the function, its
    # items the module's constants (`MODEL_NAME = "…"`, `str(VLLM_PORT)`)
    "modal-labs__modal-examples__vllm_inference.py": [
        (
            108,
            [
                "--uvicorn-log-level=info",
                "neuralmagic/Meta-Llama-3.1-8B-Instruct-quantized.w4a16",
                "--revision",
                "a7c09948d9a632c2c840722f519672cd94af885d",
                "--host",
                "0.0.0.0",
                "--port",
                "8000",
                "--api-key",
                "super-secret-key",
            ],
        )
    ],
}


def _argv(path: Path) -> list[dict[str, Any]]:
    result = cli("argv", "--format", "json", str(path))
    assert result.returncode == 0, result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


def _check(path: Path, *options: str) -> list[dict[str, Any]]:
    result = cli("check", "--format", "json", *options, str(path))
    assert result.returncode in (0, 1), result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


def _real(name: str, folder: Path) -> Path:
    path = folder / name
    path.write_text((DATA / f"{name}.txt").read_text(encoding="utf-8"), encoding="utf-8")
    return path


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_files_are_read_and_pass(name: str, tmp_path: Path) -> None:
    path = _real(name, tmp_path)
    assert [(start["line"], start["argv"]) for start in _argv(path)] == REAL[name]
    assert [f for f in _check(path) if f["severity"] == "error"] == []


@pytest.mark.parametrize(
    "name", ["ray-project__kuberay__ray-operator__config__samples__ray-service.deepseek.yaml"]
)
def test_kuberay_accelerator_type_is_the_target(name: str, tmp_path: Path) -> None:
    """The corpus manifest, unchanged, says `accelerator_type: "H100"`: the same manifest
    with a T4 there gets the bf16 refusal a `--config` file gets with `--gpu T4`."""
    text = (KUBERAY / name).read_text(encoding="utf-8")
    assert 'accelerator_type: "H100"' in text
    assert [f for f in _check(KUBERAY / name) if f["code"] == "VC701"] == []
    changed = tmp_path / name
    changed.write_text(
        text.replace('accelerator_type: "H100"', 'accelerator_type: "T4"').replace(
            'dtype: "auto"', 'dtype: "bfloat16"'
        ),
        encoding="utf-8",
    )
    [found] = [f for f in _check(changed) if f["code"] == "VC701"]
    assert "from Ray Serve accelerator_type" in found["message"]


def test_a_removed_keyword_in_a_real_modal_class(tmp_path: Path) -> None:
    """Modal's Mixtral example (`@app.cls(gpu=modal.gpu.A100(size="80GB", count=2))`)
    passes `disable_log_requests=True`: a dataclass field up to 0.9, a property from 0.10
    on (vllm/engine/arg_utils.py `AsyncEngineArgs`), so `__init__` refuses it."""
    path = _real("modal-labs__modal-examples__vllm_mixtral.py", tmp_path)
    [start] = _argv(path)
    assert start["argv"] == [
        "--model",
        "/model",  # `MODEL_DIR = "/model"`, the module's
        "--tensor-parallel-size",
        "{GPU_CONFIG.count}",
        "--gpu-memory-utilization",
        "0.9",
        "--disable-log-stats",
        "--disable-log-requests",
    ]
    [found] = [f for f in _check(path) if f["severity"] == "error"]
    assert (found["code"], found["line"]) == ("VC101", 118)
    assert found["message"] == (
        "AsyncEngineArgs.__init__() got an unexpected keyword argument 'disable_log_requests'"
        ": did you mean `enable_log_requests`?"
    )
    assert [f for f in _check(path, "--vllm-version", "0.9.2") if f["code"] == "VC101"] == []


# -- the GPU reaches the hardware rules ------------------------------------------------------

MODAL_LLM = """\
import modal
from vllm import LLM

app = modal.App("bf16")


@app.function(gpu={gpu})
def run():
    llm = LLM("Qwen/Qwen2.5-1.5B-Instruct", dtype="bfloat16")
    return llm
"""
MODAL_ARGV = """\
import subprocess

import modal

app = modal.App("bf16")


@app.function(gpu={gpu})
def serve():
    cmd = ["vllm", "serve", "Qwen/Qwen2.5-1.5B-Instruct"]
    cmd += ["--dtype", "bfloat16"]
    subprocess.Popen(cmd)
"""


def _bf16_message(path: Path, *options: str) -> list[str]:
    return [
        f["message"].split(" (target")[0] for f in _check(path, *options) if f["code"] == "VC701"
    ]


@pytest.mark.parametrize("template", [MODAL_LLM, MODAL_ARGV], ids=["LLM", "argv"])
@pytest.mark.parametrize("gpu", ['"T4"', '"T4:1"', "modal.gpu.T4()", "GPU"])
def test_a_modal_gpu_gets_the_finding_a_config_file_gets(
    template: str, gpu: str, tmp_path: Path
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("model: Qwen/Qwen2.5-1.5B-Instruct\ndtype: bfloat16\n", encoding="utf-8")
    expected = _bf16_message(config, "--gpu", "T4")
    assert len(expected) == 1
    source = tmp_path / "app.py"
    text = template.format(gpu=gpu)
    if gpu == "GPU":  # a module constant, as Modal's examples write it
        text = text.replace('app = modal.App("bf16")', 'GPU = "T4"\napp = modal.App("bf16")')
    source.write_text(text, encoding="utf-8")
    assert _bf16_message(source) == expected


def test_modal_imported_by_name(tmp_path: Path) -> None:
    source = tmp_path / "app.py"
    text = MODAL_LLM.format(gpu='"T4"').replace("import modal\n", "from modal import App\n")
    source.write_text(text.replace("modal.App(", "App("), encoding="utf-8")
    assert len(_bf16_message(source)) == 1


def test_gpu_alternatives_are_no_single_target(tmp_path: Path) -> None:
    source = tmp_path / "app.py"
    source.write_text(MODAL_LLM.format(gpu='["T4", "H100"]'), encoding="utf-8")
    assert _bf16_message(source) == []


def test_ray_accelerator_type_in_python_is_the_target(tmp_path: Path) -> None:
    source = tmp_path / "serve.py"
    text = (DATA / "ray-project__ray__serve_qwen_VL.py.txt").read_text(encoding="utf-8")
    source.write_text(
        text.replace('"L40S"', '"T4"').replace("max_model_len=8192,", 'dtype="bfloat16",'),
        encoding="utf-8",
    )
    [found] = [f for f in _check(source) if f["code"] == "VC701"]
    assert found["line"] == 18 and "from Ray Serve accelerator_type" in found["message"]


def test_ray_model_id_is_the_model_when_no_model_source_is_given(tmp_path: Path) -> None:
    """Ray loads `model_id` as a Hugging Face id when `model_source` is left out
    (`sources.ray_serve.MODEL_ID_ORIGIN`): the real Qwen 3 32B example without its
    `model_source`, and 3 GPUs for its 64 heads, gets the model's refusal and its fix."""
    source = tmp_path / "serve.py"
    text = (DATA / "ray-project__ray__serve_qwen_3_32b.py.txt").read_text(encoding="utf-8")
    changed = text.replace('model_id="my-qwen-3-32b",', 'model_id="Qwen/Qwen3-32B",').replace(
        '        model_source="Qwen/Qwen3-32B",\n', ""
    )
    changed = changed.replace("tensor_parallel_size=8", "tensor_parallel_size=3")
    assert "model_source" not in changed and "tensor_parallel_size=3" in changed
    source.write_text(changed, encoding="utf-8")
    [found] = [f for f in _check(source) if f["code"] == "VC601"]
    assert "Qwen/Qwen3-32B has 64 heads" in found["message"]
    fixed = apply_json_fix(changed, found)
    assert fixed == changed.replace("tensor_parallel_size=3", "tensor_parallel_size=2")
    ast.parse(fixed)
    source.write_text(fixed, encoding="utf-8")
    assert [f for f in _check(source) if f["code"] == "VC601"] == []


def test_a_serve_config_file_is_read(tmp_path: Path) -> None:
    """`serve run config.yaml`: `applications[].args.llm_configs[]`."""
    config = tmp_path / "serve_config.yaml"
    config.write_text(
        "applications:\n- name: llms\n  import_path: ray.serve.llm:build_openai_app\n"
        "  args:\n    llm_configs:\n      - model_loading_config:\n          model_id: q\n"
        "          model_source: Qwen/Qwen2.5-7B-Instruct\n        accelerator_type: T4\n"
        "        engine_kwargs:\n          dtype: bfloat16\n          max_model_len: 8192\n",
        encoding="utf-8",
    )
    assert [start["argv"] for start in _argv(config)] == [
        ["--dtype", "bfloat16", "--max-model-len", "8192"]
    ]
    assert [f["code"] for f in _check(config)] == ["VC701"]


# -- keywords the constructor does not take ------------------------------------------------


def _apply(text: str, fix: dict[str, Any]) -> str:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for edit in sorted(fix["edits"], key=lambda e: (e["line"], e["column"]), reverse=True):
        start = starts[edit["line"] - 1] + edit["column"] - 1
        end = starts[edit["end_line"] - 1] + edit["end_column"] - 1
        text = text[:start] + edit["new_text"] + text[end:]
    return text


OFFLINE = """\
from vllm import LLM

llm = LLM(
    model="facebook/opt-125m",
    max_model_len=2048,
    {keyword},
)
"""


@pytest.mark.parametrize(
    ("keyword", "message"),
    [
        # a frontend flag is no field: argparse would take `--port`, EngineArgs does not
        ("port=8000", "EngineArgs.__init__() got an unexpected keyword argument 'port'"),
        (
            "gpu_memory_utilisation=0.5",
            "EngineArgs.__init__() got an unexpected keyword argument 'gpu_memory_utilisation'"
            ": did you mean `gpu_memory_utilization`?",
        ),
    ],
)
def test_an_unexpected_keyword_is_the_type_error_and_its_fix_keeps_python(
    keyword: str, message: str, tmp_path: Path
) -> None:
    source = tmp_path / "offline.py"
    text = OFFLINE.format(keyword=keyword)
    source.write_text(text, encoding="utf-8")
    [found] = [f for f in _check(source) if f["severity"] == "error"]
    assert (found["code"], found["message"], found["line"]) == ("VC101", message, 6)
    fixed = _apply(text, found["fix"])
    ast.parse(fixed)
    source.write_text(fixed, encoding="utf-8")
    assert [f for f in _check(source) if f["severity"] == "error"] == []


@pytest.mark.parametrize(
    "keyword",
    [
        "model_weights='/weights'",  # an EngineArgs field without a flag
        "chat_template='t.jinja'",  # LLM keeps it (vllm/entrypoints/llm.py:194)
        "enforce_eager=args.eager",  # unresolved: unknown, never reported
        "max_num_seqs=f'{n}'",
        "**extra",
        "seed=None",
        "enable_prefix_caching=False",
    ],
)
def test_accepted_and_unresolved_keywords_are_not_reported(keyword: str, tmp_path: Path) -> None:
    source = tmp_path / "offline.py"
    source.write_text(OFFLINE.format(keyword=keyword), encoding="utf-8")
    assert [f for f in _check(source) if f["severity"] == "error"] == []


def test_async_engine_args_and_imports_decide(tmp_path: Path) -> None:
    source = tmp_path / "engine.py"
    source.write_text(
        "import vllm\nfrom vllm.engine.arg_utils import AsyncEngineArgs as A\n"
        "from langchain.llms import LLM\n\n"
        "a = A(model='m', enable_log_requests=True, tensor_parallel_size=2)\n"
        "b = vllm.EngineArgs('m', enable_log_requests=True)\n"
        "c = LLM(port=1)  # not vLLM's\n",
        encoding="utf-8",
    )
    starts = _argv(source)
    assert [(s["line"], s["argv"]) for s in starts] == [
        (5, ["--model", "m", "--enable-log-requests", "--tensor-parallel-size", "2"]),
        (6, ["--model", "m", "--enable-log-requests"]),
    ]
    # `enable_log_requests` is AsyncEngineArgs' own field (vllm/engine/arg_utils.py:3244)
    [found] = [f for f in _check(source) if f["code"] == "VC101"]
    assert found["line"] == 6
    assert found["message"].startswith(
        "EngineArgs.__init__() got an unexpected keyword argument 'enable_log_requests'"
    )


SUBPROCESS = """\
import os
import shlex
import subprocess


def a(model, tp):
    cmd = ["vllm", "serve", model] + ["--tensor-parallel-size", str(tp)]
    cmd += ["--max-model-len", "4096"]
    cmd.extend(["--dtype", "half"])
    cmd.append(f"--port={8000 + tp}")
    subprocess.Popen(cmd)


def b():
    subprocess.run(shlex.split("vllm serve Qwen/Qwen3-8B --max-num-seqs 8 --enforce-eager"))


def c(extra):
    os.system(" ".join(["vllm", "serve", "m", "--gpu-memory-utilization", "0.9", *extra]))


def d(port):
    os.system(f"vllm serve m --port {port} --max-num-seqs 4")
"""


def test_subprocess_argv_lists_in_every_form(tmp_path: Path) -> None:
    """`[...] + [...]`, `+=`, `.extend()`, `.append()`, f-strings, `shlex.split("…")`,
    `" ".join([...])` given to `subprocess` or `os.system`: what Python computes stays
    unknown and is never reported."""
    source = tmp_path / "launch.py"
    source.write_text(SUBPROCESS, encoding="utf-8")
    assert [(start["line"], start["argv"]) for start in _argv(source)] == [
        (
            7,
            [
                "{model}",
                "--tensor-parallel-size",
                "{str(tp)}",
                "--max-model-len",
                "4096",
                "--dtype",
                "half",
                "--port={8000 + tp}",
            ],
        ),
        (15, ["Qwen/Qwen3-8B", "--max-num-seqs", "8", "--enforce-eager"]),
        (19, ["m", "--gpu-memory-utilization", "0.9", "{*extra}"]),
        (23, ["m", "--port", "{port}", "--max-num-seqs", "4"]),
    ]
    assert [f for f in _check(source) if f["severity"] == "error"] == []


KWARGS_CONSTANT = """\
import modal

GPU = "h100"
vllm_throughput_kwargs = {
    "max_model_len": 4096 * 4,  # based on data
    "attention_backend": "flashinfer",  # best for throughput
    "async_scheduling": True,  # usually faster, but not all features supported
}
app = modal.App("x")


@app.cls(gpu=GPU)
class Vllm:
    @modal.enter()
    def start(self):
        import vllm

        self.llm = vllm.LLM(model="Qwen/Qwen3-8B-FP8", **vllm_throughput_kwargs)
"""


@pytest.mark.parametrize(
    ("change", "argv"),
    [
        (
            "",
            [
                "--model",
                "Qwen/Qwen3-8B-FP8",
                "--max-model-len",
                "{4096 * 4}",
                "--attention-backend",
                "flashinfer",
                "--async-scheduling",
            ],
        ),
        # changed in place: what it holds is not what the module wrote
        (
            'vllm_throughput_kwargs["max_num_seqs"] = 8\n',
            ["--model", "Qwen/Qwen3-8B-FP8", "{vllm_throughput_kwargs}"],
        ),
    ],
)
def test_a_module_dict_of_engine_arguments_is_read_where_it_is_written(
    change: str, argv: list[str], tmp_path: Path
) -> None:
    """The form of modal-labs/modal-examples 06_gpu_and_ml/llm-serving/vllm_throughput.py
    @763c2fdb: `vllm.LLM(model=..., **vllm_throughput_kwargs)`, the dict at module level,
    `@app.cls(gpu=GPU)` with `GPU = "h100"`."""
    source = tmp_path / "throughput.py"
    source.write_text(
        KWARGS_CONSTANT.replace('app = modal.App("x")\n', change + 'app = modal.App("x")\n'),
        encoding="utf-8",
    )
    assert [start["argv"] for start in _argv(source)] == [argv]
    if not change:
        text = source.read_text(encoding="utf-8").replace('"flashinfer"', '"flashinfr"')
        source.write_text(text, encoding="utf-8")
        [found] = [f for f in _check(source) if f["severity"] == "error"]
        assert found["line"] == 6  # on the value, where the dict writes it


def test_the_real_modal_gpu_f_string_is_the_target(tmp_path: Path) -> None:
    """`gpu=f"H100:{N_GPU}"` with `N_GPU = 1` (Modal's vllm_inference.py): one H100, so a
    tensor-parallel size of 2 is vLLM's world-size refusal, naming where the GPUs came from."""
    path = _real("modal-labs__modal-examples__vllm_inference.py", tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(
        text.replace(
            '        "--api-key",\n',
            '        "--tensor-parallel-size",\n        "2",\n        "--api-key",\n',
        ),
        encoding="utf-8",
    )
    [found] = [f for f in _check(path) if f["code"] == "VC703"]
    assert "(GPUs per node: 1, from Modal @function(gpu=...))" in found["message"]


def test_a_module_constant_is_the_keyword_value_unless_the_function_binds_its_name(
    tmp_path: Path,
) -> None:
    """`LLM(model=MODEL, tensor_parallel_size=TP)`: the module's one `MODEL = "…"` is the
    model, read (and reported) where the module writes it; inside a function whose
    parameter is `MODEL`, the name is that parameter's, unknown."""
    path = tmp_path / "serve.py"
    path.write_text(
        'from vllm import LLM\n\nMODEL = "Qwen/Qwen3-8B"\nTP = "two"\n\n\n'
        "def build(MODEL):\n    return LLM(model=MODEL)\n\n\n"
        "llm = LLM(MODEL, tensor_parallel_size=TP)\n",
        encoding="utf-8",
    )
    inner, outer = _argv(path)
    assert inner["argv"] == ["--model", "{MODEL}"]
    assert outer["argv"] == ["--model", "Qwen/Qwen3-8B", "--tensor-parallel-size", "two"]
    (found,) = [f for f in _check(path, "--vllm-version", "0.11.2") if f["severity"] == "error"]
    assert (found["code"], found["line"], found["column"]) == ("VC201", 4, 7)  # `TP = "two"`
