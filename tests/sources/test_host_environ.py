"""The environment each host gives a start of vLLM (`Invocation.environ`), read from real
public files of the deployment corpus (tests/corpus/deployments/SOURCES.md cites each:
repository, path, commit):

- Kubernetes `env:` (value, valueFrom): vllm-project/production-stack
  `src/gateway_inference_extension/configs/vllm/gpu-deployment.yaml` (fc9adce9abe4);
- compose `environment:` mapping: opea-project/GenAIExamples
  `ChatQnA/docker_compose/intel/hpu/gaudi/compose.yaml` (5113bebd9a77), with `${VAR}`
  values; compose `entrypoint:` script prefixes: the same repository's
  `EdgeCraftRAG/docker_compose/intel/gpu/arc/compose.yaml` (15b0d468f6dd);
- Dockerfile `ENV`: llm-d/llm-d `Dockerfile` (2ce3325ad09f);
- shell `export`: SemiAnalysisAI/InferenceX
  `benchmarks/single_node/agentic/kimik3_fp4_mi355x_mtp.sh` (39324e4417de);
- workflow `env:`: deepset-ai/haystack-core-integrations `.github/workflows/vllm.yml`
  (a24cf55721d2);
- compose `environment:` list: av/harbor `compose.vllm.yml` (297c97495706) and
  tungedng2710/IDP `services/dotsocr/docker-compose.yaml` (c43f7289492a);
- Ray Serve `runtime_env.env_vars` in a RayService: ray-project/kuberay
  `ray-operator/config/samples/ray-service.deepseek.yaml` (b4cd1e279c7f).
"""

from __future__ import annotations

import pytest
from support import CORPUS
from vllm_config_lsp.sources import (
    compose,
    dockerfile,
    kubernetes,
    markdown,
    python_argv,
    shell,
    workflow,
)
from vllm_config_lsp.sources.invocation import Invocation

FILES = CORPUS / "deployments" / "files"


def _read(folder: str, name: str) -> str:
    return (FILES / folder / name).read_text(encoding="utf-8")


def _settings(text: str, invocation: Invocation) -> dict[str, tuple[str | None, str]]:
    """name → (value or None, the name's text in the document)."""
    found = {}
    for var in invocation.environ:
        value = None if var.value is None or not var.value.resolved else var.value.text
        found[var.name.text] = (value, text[var.name.start : var.name.end])
    return found


def test_kubernetes_env_list() -> None:
    text = _read(
        "k8s",
        "vllm-project__production-stack__src__gateway_inference_extension__configs__vllm"
        "__gpu-deployment.yaml",
    )
    [start] = kubernetes.find_invocations(text)
    env = _settings(text, start)
    assert env["VLLM_USE_V1"] == ("1", "VLLM_USE_V1")
    assert env["VLLM_ALLOW_RUNTIME_LORA_UPDATING"] == ("true", "VLLM_ALLOW_RUNTIME_LORA_UPDATING")
    assert env["HUGGING_FACE_HUB_TOKEN"][0] is None  # valueFrom: a secret, not known here
    assert not start.environ_open
    value = start.environment()["VLLM_USE_V1"].value
    assert value is not None and text[value.start : value.end] == '"1"'


def test_compose_environment_mapping_and_script_prefixes() -> None:
    text = _read(
        "compose",
        "opea-project__GenAIExamples__ChatQnA__docker_compose__intel__hpu__gaudi__compose.yaml",
    )
    starts = compose.find_invocations(text)
    env = _settings(text, starts[0])
    assert env["VLLM_TORCH_PROFILER_DIR"] == ("/mnt", "VLLM_TORCH_PROFILER_DIR")
    assert env["HF_TOKEN"][0] is None  # `${HF_TOKEN}`: compose fills it in
    text = _read(
        "compose",
        "opea-project__GenAIExamples__EdgeCraftRAG__docker_compose__intel__gpu__arc__compose.yaml",
    )
    [start] = [s for s in compose.find_invocations(text) if "VLLM_USE_V1" in start_names(s)]
    env = _settings(text, start)
    assert env["VLLM_USE_V1"][0] == "1" and env["VLLM_WORKER_MULTIPROC_METHOD"][0] == "spawn"
    assert start.environment()["VLLM_USE_V1"].origin == "prefix"


def start_names(invocation: Invocation) -> set[str]:
    return {var.name.text for var in invocation.environ}


def test_compose_environment_list() -> None:
    """The list form (`- NAME=value`, `- NAME` passed through) as compose's reference
    writes it; env_file opens the environment."""
    text = (
        "services:\n  vllm:\n    image: vllm/vllm-openai:v0.33.0\n    env_file: .env\n"
        "    environment:\n      - VLLM_LOGGING_LEVEL=DEBUG\n      - HF_TOKEN\n"
        '      - "VLLM_USE_DEEP_GEMM=${DEEP:-1}"\n'
    )
    [start] = compose.find_invocations(text)
    env = _settings(text, start)
    assert env["VLLM_LOGGING_LEVEL"] == ("DEBUG", "VLLM_LOGGING_LEVEL")
    assert env["HF_TOKEN"][0] is None and env["VLLM_USE_DEEP_GEMM"][0] is None
    assert start.environ_open


def test_compose_environment_list_real_files() -> None:
    """`- NAME=${…}` items: the name where the file writes it, the value compose's to fill
    in; `env_file:` opens the environment. Another service's `- VLLM_PORT=8000` (a
    client's) is not the server's."""
    text = _read("compose", "av__harbor__compose.vllm.yml")
    [start] = compose.find_invocations(text)
    env = _settings(text, start)
    assert env == {
        "HUGGING_FACE_HUB_TOKEN": (None, "HUGGING_FACE_HUB_TOKEN"),
        "VLLM_ATTENTION_BACKEND": (None, "VLLM_ATTENTION_BACKEND"),
    }
    assert start.environ_open and {var.origin for var in start.environ} == {"environment"}
    text = _read("compose", "tungedng2710__IDP__services__dotsocr__docker-compose.yaml")
    [start] = compose.find_invocations(text)
    assert _settings(text, start) == {"CUDA_VISIBLE_DEVICES": ("1", "CUDA_VISIBLE_DEVICES")}
    assert not start.environ_open


def test_ray_serve_runtime_env_real_file() -> None:
    text = _read(
        "cr", "ray-project__kuberay__ray-operator__config__samples__ray-service.deepseek.yaml"
    )
    [start] = kubernetes.find_invocations(text)
    assert _settings(text, start) == {"VLLM_USE_V1": ("1", "VLLM_USE_V1")}
    assert start.environ[0].origin == "runtime_env"
    value = start.environment()["VLLM_USE_V1"].value
    assert value is not None and text[value.start : value.end] == '"1"'


def test_dockerfile_env() -> None:
    text = _read("dockerfile", "llm-d__llm-d__Dockerfile")
    starts = dockerfile.find_invocations(text)
    assert starts
    env = _settings(text, starts[-1])
    assert env["VLLM_COMMIT_SHA"] == (
        "db9a82dd8b7b85af3d0a6956bae92e1a5d986413",
        "VLLM_COMMIT_SHA",
    )


def test_shell_exports() -> None:
    text = _read(
        "shell",
        "SemiAnalysisAI__InferenceX__benchmarks__single_node__agentic__kimik3_fp4_mi355x_mtp.sh",
    )
    [start] = shell.find_invocations(text)
    env = _settings(text, start)
    assert env["VLLM_ROCM_USE_AITER"] == ("1", "VLLM_ROCM_USE_AITER")
    assert env["VLLM_USE_BREAKABLE_CUDAGRAPH"] == ("0", "VLLM_USE_BREAKABLE_CUDAGRAPH")
    assert env["VLLM_ENGINE_READY_TIMEOUT_S"][0] is None  # "${…:-7200}": the caller's
    assert all(var.origin == "export" for var in start.environ)


def test_shell_prefix_and_env_wrapper() -> None:
    text = "export A=1\nVLLM_USE_V1=0 env VLLM_PORT=$P exec vllm serve m\n"
    [start] = shell.find_invocations(text)
    assert [(v.name.text, v.origin) for v in start.environ] == [
        ("A", "export"),
        ("VLLM_USE_V1", "prefix"),
        ("VLLM_PORT", "prefix"),
    ]
    assert _settings(text, start)["VLLM_PORT"][0] is None


def test_workflow_env() -> None:
    text = _read(
        "github-workflow", "deepset-ai__haystack-core-integrations__.github__workflows__vllm.yml"
    )
    starts = workflow.find_invocations(text)
    assert len(starts) == 3
    for start in starts:
        env = _settings(text, start)
        assert env["VLLM_TARGET_DEVICE"] == ("cpu", "VLLM_TARGET_DEVICE")
        assert env["VLLM_CPU_KVCACHE_SPACE"][0] == "4"


def test_ray_serve_runtime_env() -> None:
    """Ray Serve LLM's `runtime_env.env_vars` (as in ray-project/ray's LLMConfig examples;
    written here in a RayService's serveConfigV2, whose offsets map to the manifest)."""
    text = (
        "apiVersion: ray.io/v1\nkind: RayService\nspec:\n  serveConfigV2: |\n"
        "    applications:\n    - name: llm\n      import_path: ray.serve.llm:build_openai_app\n"
        "      args:\n        llm_configs:\n        - model_loading_config:\n"
        "            model_id: qwen\n            model_source: Qwen/Qwen2.5-7B-Instruct\n"
        "          engine_kwargs:\n            max_model_len: 8192\n"
        '          runtime_env:\n            env_vars:\n              VLLM_USE_V1: "1"\n'
    )
    [start] = kubernetes.find_invocations(text)
    assert _settings(text, start) == {"VLLM_USE_V1": ("1", "VLLM_USE_V1")}
    assert start.environ[0].origin == "runtime_env"


def test_docker_run_env_options() -> None:
    """`docker run -e NAME=value` (the container gets only what `-e` passes, not the
    script's exports): the command of tungedng2710/IDP `services/chandra_api/run_vllm.sh`
    (27ce567512221a9f07b96f45b7d15f5078ae1926), after an export of our own."""
    text = (
        "export VLLM_LOGGING_LEVEL=DEBUG\n"
        'docker run --runtime nvidia --gpus="device=0" -dit \\\n'
        "  --name chandra_api \\\n"
        "  -v /root/.cache/huggingface:/root/.cache/huggingface \\\n"
        "  -e VLLM_ATTENTION_BACKEND=TORCH_SDPA \\\n"
        "  -p 7871:8000 \\\n"
        "  --ipc=host \\\n"
        "  vllm/vllm-openai:nightly \\\n"
        "  --model datalab-to/chandra \\\n"
        "  --served-model-name chandra \\\n"
        "  --quantization fp8\n"
    )
    [start] = shell.find_invocations(text)
    assert _settings(text, start) == {
        "VLLM_ATTENTION_BACKEND": ("TORCH_SDPA", "VLLM_ATTENTION_BACKEND")
    }
    assert start.environ[0].origin == "docker -e" and not start.environ_open


#: `docker run -e` wherever the start matcher meets it: inside `bash -c '…'` (mapped back
#: through the string's quoting, none of the script's exports), before an entrypoint script
#: that runs in the container, in a Python `subprocess` list.
_DOCKER_ENV_CASES = {
    "shell-string": (
        shell.find_invocations,
        "export VLLM_LOGGING_LEVEL=DEBUG\n"
        "bash -c 'docker run --env VLLM_USE_V1=0 --env-file vllm.env"
        " vllm/vllm-openai:v0.9.0 --model m'\n",
    ),
    "entrypoint-script": (
        shell.find_invocations,
        "docker run -e VLLM_USE_V1=0 --entrypoint bash vllm/vllm-openai:v0.9.0 -c 'vllm serve m'\n",
    ),
    "python-argv": (
        python_argv.find_invocations,
        "import subprocess\n"
        'subprocess.run(["docker", "run", "-e", "VLLM_USE_V1=0", "vllm/vllm-openai:v0.9.0",'
        ' "--model", "m"])\n',
    ),
}


@pytest.mark.parametrize("case", sorted(_DOCKER_ENV_CASES))
def test_docker_env_through_the_start_matcher(case: str) -> None:
    find, text = _DOCKER_ENV_CASES[case]
    [start] = find(text)
    assert _settings(text, start) == {"VLLM_USE_V1": ("0", "VLLM_USE_V1")}
    value = start.environ[0].value
    assert value is not None and text[value.starts[0] : value.ends[-1]] == "0"
    assert start.environ_open == ("--env-file" in text)


def test_markdown_block_exports_land_in_the_document() -> None:
    """An export in a Markdown shell block: its name and value at their document offsets
    (the block's `SourceMap`)."""
    text = "# Serve\n\n```bash\nexport VLLM_USE_V1=0\nvllm serve m\n```\n"
    [start] = markdown.find_invocations(text)
    assert _settings(text, start) == {"VLLM_USE_V1": ("0", "VLLM_USE_V1")}
    value = start.environ[0].value
    assert value is not None and text[value.start : value.end] == "0"
