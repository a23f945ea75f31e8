"""The Kubernetes/Helm source: which containers and operator resources start vLLM, and the
argv (with positions) each gets."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from source_support import (
    CORPUS,
    arg,
    assert_words_inside,
    generated_texts,
    line_column,
    single,
    texts,
    written_texts,
)
from support import apply_fix
from vllm_config_lsp.engine import lint
from vllm_config_lsp.sources.invocation import Invocation, Word
from vllm_config_lsp.sources.kubernetes import find_invocations

FORMATS = ("k8s", "cr", "helm-template", "helm-values", "launcher-config")


def only(text: str) -> Invocation:
    return single(find_invocations(text))


def at(text: str, word: Word) -> tuple[int, int]:
    """Line and column of the word's first character (the first `-` of a flag)."""
    return line_column(text, word.starts[0] if word.starts else word.start)


def written(text: str, word: Word) -> str:
    return text[word.start : word.end]


def pod(containers: str) -> str:
    return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n" + containers


# -- containers --------------------------------------------------------------------------


def test_command_and_args_lists_are_one_argv_with_item_positions() -> None:
    text = pod(
        "  - name: vllm\n"
        "    image: vllm/vllm-openai:v0.10.0\n"
        '    command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]\n'
        "    args:\n"
        "    - --model=google/gemma-3-27b-it\n"
        '    - "--max-model-len"\n'
        "    - '4096'\n"
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert invocation.source == "kubernetes"
    assert written(text, invocation.args[0]) == "--model=google/gemma-3-27b-it"
    assert text[invocation.start : invocation.end] == '"python3"'
    assert texts(invocation) == ["--model=google/gemma-3-27b-it", "--max-model-len", "4096"]
    assert at(text, arg(invocation, "--max-model-len")) == (12, 8)  # inside the quotes
    assert written(text, arg(invocation, "4096")) == "'4096'"
    assert all(word.quoting == "yaml-list" for word in invocation.args)
    assert invocation.image == "vllm/vllm-openai:v0.10.0"
    assert invocation.insert_at == text.index("'4096'") + 6


def test_args_written_before_command_still_follow_it() -> None:
    text = pod(
        "  - image: vllm/vllm-openai\n    args: [--port, '8000']\n    command: [vllm, serve, m]\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["m", "--port", "8000"]
    assert line_column(text, invocation.start) == (9, 15)


def test_dependent_env_is_unresolved_and_dollar_dollar_is_a_literal_dollar() -> None:
    text = pod(
        "  - image: vllm/vllm-openai\n"
        "    command: [vllm, serve]\n"
        '    args: ["--model=$(MODEL_ID)", "--served-model-name=$$(NAME)"]\n'
    )
    invocation = only(text)
    model, name = invocation.args
    assert model.text == "--model=$(MODEL_ID)"
    assert model.unresolved == ("$(MODEL_ID)",)
    assert not model.resolved
    assert name.text == "--served-model-name=$(NAME)"
    assert name.resolved
    dollar = name.text.index("$")
    assert text[name.starts[dollar] : name.ends[dollar]] == "$$"


def test_dependent_env_expands_from_the_container_env_when_asked() -> None:
    text = pod(
        "  - image: vllm/vllm-openai\n"
        '    args: ["--model=$(MODEL_ID)", "--port=$(PORT)", "--x=$(FROM_SECRET)"]\n'
        "    env:\n"
        "    - name: MODEL_ID\n"
        "      value: google/gemma-3-27b-it\n"
        "    - name: PORT\n"
        "      value: '$(BASE)0'\n"
        "    - name: FROM_SECRET\n"
        "      valueFrom: {secretKeyRef: {name: s, key: k}}\n"
    )
    assert texts(only(text))[0] == "--model=$(MODEL_ID)"  # as written, by default
    model, port, secret = single(find_invocations(text, expand_env=True)).args
    assert model.text == "--model=google/gemma-3-27b-it" and model.resolved
    value = model.text.index("g")
    assert text[model.starts[value] : model.ends[-1]] == "google/gemma-3-27b-it"
    assert port.text == "--port=$(BASE)0" and port.unresolved == ("$(BASE)",)
    assert secret.text == "--x=$(FROM_SECRET)" and not secret.resolved


def test_sh_c_double_quoted_scalar_folds_its_line_break_and_keeps_positions() -> None:
    text = pod(
        "  - name: leader\n"
        "    image: vllm/vllm-openai:v0.8.5\n"
        "    command:\n"
        "      - sh\n"
        "      - -c\n"
        '      - "bash multi-node-serving.sh leader --ray_cluster_size=$(LWS_GROUP_SIZE); \n'
        "         python3 -m vllm.entrypoints.openai.api_server --port 8080 --model m"
        ' --pipeline_parallel_size 2"\n'
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    assert texts(invocation) == ["--port", "8080", "--model", "m", "--pipeline_parallel_size", "2"]
    assert line_column(text, invocation.start) == (13, 10)  # `python3` on the folded line
    assert at(text, arg(invocation, "--port")) == (13, 56)
    assert invocation.image == "vllm/vllm-openai:v0.8.5"


def test_bash_exc_literal_block_script_with_setup_commands_and_trailing_comment() -> None:
    text = pod(
        "  - name: app\n"
        "    image: ubuntu:22.04\n"
        "    command:\n"
        "      - /bin/bash\n"
        '      - "-exc"\n'
        "      - |\n"
        "        apt-get update\n"
        "        python -m vllm.entrypoints.openai.api_server \\\n"
        "          --host 0.0.0.0 \\\n"
        "          --port ${PORT}\n"
        "          # --enable-lora\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["--host", "0.0.0.0", "--port", "${PORT}"]
    assert at(text, arg(invocation, "--port")) == (16, 11)
    assert arg(invocation, "${PORT}").unresolved == ("${PORT}",)
    assert invocation.image == "ubuntu:22.04"


def test_command_sh_c_with_the_script_in_args() -> None:
    text = pod(
        "  - image: example/vllm-openai:v0.10.0\n"
        '    command: ["sh", "-c"]\n'
        "    args:\n"
        "      - |\n"
        "        vllm serve \\\n"
        '        --port "8000" \\\n'
        '        --kv-transfer-config \'{"kv_connector":"NixlConnector"}\'\n'
    )
    invocation = only(text)
    assert texts(invocation) == [
        "--port",
        "8000",
        "--kv-transfer-config",
        '{"kv_connector":"NixlConnector"}',
    ]
    assert at(text, arg(invocation, "8000")) == (12, 17)
    assert line_column(text, invocation.start) == (11, 9)


@pytest.mark.parametrize(
    ("image", "entrypoint"),
    [
        ("vllm/vllm-openai:v0.9.2", "serve"),
        ("docker.io/vllm/vllm-openai:latest", "serve"),
        ("vllm/vllm-openai:v0.6.3", "api_server"),
        ("lmcache/vllm-openai:2025-05-27-v1", "serve"),
        ("vllm/vllm-tpu:nightly", "serve"),
        ("opea/vllm-gaudi:1.22.0", "api_server"),
    ],
)
def test_without_command_the_image_entrypoint_gets_the_args(image: str, entrypoint: str) -> None:
    text = pod(f"  - image: {image}\n    args: [--model, m, --port, '8000']\n")
    invocation = only(text)
    assert invocation.entrypoint == entrypoint
    assert texts(invocation) == ["--model", "m", "--port", "8000"]
    assert text[invocation.start : invocation.end] == "--model"  # the first argument
    assert invocation.image == image


def test_a_vllm_image_without_args_is_a_start_at_the_image() -> None:
    text = pod("  - image: vllm/vllm-openai:v0.9.0\n")
    invocation = only(text)
    assert invocation.args == []
    assert text[invocation.start : invocation.end] == "vllm/vllm-openai:v0.9.0"


@pytest.mark.parametrize(
    "container",
    [
        "  - name: router\n    image: lmcache/lmstack-router:latest\n    args: [--port, '80']\n",
        "  - name: epp\n    image: registry.k8s.io/gateway-api-inference-extension/epp:v0.3\n"
        "    args: [-poolName, p, --v, '4']\n",
        "  - name: tei\n    image: ghcr.io/huggingface/text-embeddings-inference:1.7\n"
        "    args: [--model-id, BAAI/bge]\n",
        "  - name: mock\n    image: aibrix/vllm-mock:nightly\n    args: [--port, '8000']\n",
        "  - name: bench\n    image: python:3.12\n    command: [python3, bench.py, --model, m]\n",
        "  - name: echo\n    image: busybox\n    command: [echo, vllm, serve, m]\n",
    ],
)
def test_sidecars_and_other_containers_are_not_vllm(container: str) -> None:
    assert find_invocations(pod(container)) == []


def test_comments_after_items_are_not_part_of_the_words() -> None:
    text = pod(
        "  - image: vllm/vllm-openai\n"
        "    args:\n"
        "    - --trust-remote-code # new arguments\n"
        "    # - --enforce-eager\n"
        "    - --port=8000\n"
    )
    assert texts(only(text)) == ["--trust-remote-code", "--port=8000"]


def test_args_only_container_named_vllm_whose_base_holds_image_and_command() -> None:
    text = (
        "apiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n"
        "      containers:\n      - name: vllm\n        args: [--max-model-len, '4096']\n"
        "      - name: sidecar\n        args: [--port, '1']\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["--max-model-len", "4096"]
    assert text[invocation.start : invocation.end] == "--max-model-len"


def test_kserve_inference_service_model_args_on_the_vllm_runtime() -> None:
    text = (
        "apiVersion: serving.kserve.io/v1beta1\n"
        "kind: InferenceService\n"
        "spec:\n"
        "  predictor:\n"
        "    model:\n"
        "      modelFormat:\n"
        "        name: vLLM\n"
        "      args: [--max-model-len=4096, --dtype=half]\n"
        "---\n"
        "kind: InferenceService\n"
        "spec:\n  predictor:\n    model:\n      modelFormat: {name: sklearn}\n      args: [--x]\n"
    )
    invocation = only(text)
    assert invocation.entrypoint == "api_server"
    # kserve-vllmserver's own args first (config/runtimes/kserve-vllmserver.yaml), then the
    # model's; the service's name is not written here, so the served name is unknown
    assert generated_texts(invocation) == [
        "--port=8080",
        "--served-model-name={{.Name}}",
        "--model=/mnt/models",
    ]
    assert written_texts(invocation) == ["--max-model-len=4096", "--dtype=half"]
    assert texts(invocation)[3:] == written_texts(invocation)
    assert [w.resolved for w in invocation.args[:3]] == [True, False, True]
    assert line_column(text, invocation.start) == (8, 14)


def test_null_command_is_no_command() -> None:
    text = pod("  - image: vllm/vllm-openai\n    command:\n    args: [--port, '1']\n")
    assert texts(only(text)) == ["--port", "1"]


def test_configmap_shell_scripts_are_read_by_the_shell_source() -> None:
    text = (
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: scripts\ndata:\n"
        "  serve.sh: |\n"
        "    #!/bin/bash\n"
        "    exec vllm serve m \\\n"
        "      --port 8000\n"
        "  notes.txt: |\n    vllm serve is started by serve.sh\n"
    )
    invocation = only(text)
    assert texts(invocation) == ["m", "--port", "8000"]
    assert at(text, arg(invocation, "--port")) == (9, 7)


def test_every_container_of_every_document_is_read() -> None:
    text = (
        pod("  - image: vllm/vllm-openai\n    args: [--port, '1']\n")
        + "---\n"
        + "apiVersion: leaderworkerset.x-k8s.io/v1\n"
        "kind: LeaderWorkerSet\n"
        "spec:\n"
        "  leaderWorkerTemplate:\n"
        "    leaderTemplate:\n"
        "      spec:\n"
        "        containers:\n"
        "          - image: vllm/vllm-openai\n"
        "            command: [vllm, serve, leader]\n"
        "    workerTemplate:\n"
        "      spec:\n"
        "        containers:\n"
        "          - image: vllm/vllm-openai\n"
        "            command: [sh, -c, 'ray start --block']\n"
        "        initContainers:\n"
        "          - image: vllm/vllm-openai\n"
        "            command: [vllm, serve, init]\n"
    )
    found = find_invocations(text)
    assert [texts(inv)[0] for inv in found] == ["--port", "leader", "init"]
    assert [inv.start for inv in found] == sorted(inv.start for inv in found)


def test_broken_yaml_still_yields_the_containers_it_can_read() -> None:
    text = pod("  - image: vllm/vllm-openai\n    args: [--port, '1']\n") + "  oops: [unclosed\n"
    assert [texts(inv) for inv in find_invocations(text)] == [["--port", "1"]]


# -- templates ---------------------------------------------------------------------------


HELM = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "chart.fullname" . }}
  labels:
    {{- include "chart.labels" . | nindent 4 }}
spec:
  template:
    spec:
      containers:
      - name: {{ .Chart.Name }}
        image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
        command: ["vllm", "serve"]
        args:
        - --tensor-parallel-size={{ .Values.tensorParallelSize }}
        {{- if .Values.chunked }}
        - "--enable-chunked-prefill"
        {{- else }}
        - "--no-enable-chunked-prefill"
        {{- end }}
        - "--max-model-len"
        - {{ .Values.maxModelLen | quote }}
        - --kv-transfer-config
        - '{"kv_connector":"LMCacheConnectorV1","kv_role":"{{ $kv_role }}"}'
        resources:
          {{- toYaml .Values.resources | nindent 12 }}
"""


def test_helm_template_keeps_every_branch_and_exact_positions() -> None:
    invocation = only(HELM)
    assert invocation.source == "helm"
    assert texts(invocation) == [
        "--tensor-parallel-size={{ .Values.tensorParallelSize }}",
        "--enable-chunked-prefill",
        "--no-enable-chunked-prefill",
        "--max-model-len",
        "{{ .Values.maxModelLen | quote }}",
        "--kv-transfer-config",
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"{{ $kv_role }}"}',
    ]
    assert at(HELM, arg(invocation, "--no-enable-chunked-prefill")) == (19, 12)
    assert at(HELM, arg(invocation, "--max-model-len")) == (21, 12)
    assert invocation.image == "{{ .Values.image.repository }}:{{ .Values.image.tag }}"


def test_helm_expressions_are_unresolved_parts_of_their_words() -> None:
    invocation = only(HELM)
    tp = invocation.args[0]
    assert tp.unresolved == ("{{ .Values.tensorParallelSize }}",)
    assert written(HELM, tp) == tp.text
    value = arg(invocation, "{{ .Values.maxModelLen | quote }}")
    assert value.unresolved == ("{{ .Values.maxModelLen | quote }}",)
    kv = invocation.args[-1]
    assert kv.unresolved == ("{{ $kv_role }}",)
    assert arg(invocation, "--max-model-len").resolved


def test_kserve_go_template_in_a_valid_manifest_is_unresolved_but_not_helm() -> None:
    text = (
        "apiVersion: serving.kserve.io/v1alpha1\n"
        "kind: ClusterServingRuntime\n"
        "spec:\n"
        "  containers:\n"
        "    - image: vllmserver:replace\n"
        "      command: [python, -m, vllm.entrypoints.openai.api_server]\n"
        '      args: ["--port=8080", "--served-model-name={{.Name}}"]\n'
    )
    invocation = only(text)
    assert invocation.source == "kubernetes"
    name = invocation.args[1]
    assert name.text == "--served-model-name={{.Name}}"
    assert name.unresolved == ("{{.Name}}",)


TFTPL = """kind: Deployment
metadata:
  namespace: ${namespace}
spec:
  template:
    spec:
      volumes:
%{ for secret in secrets ~}
        - name: ${secret}
%{ endfor ~}
      containers:
        - image: "vllm/vllm-openai:v0.5.5"
          command: ["python3", "-m", "vllm.entrypoints.openai.api_server"]
          args: ["--model", "${model_id}", "--tensor-parallel-size", "${gpu_count}"]
"""


def test_terraform_template_directives_and_interpolations() -> None:
    invocation = only(TFTPL)
    assert texts(invocation) == ["--model", "${model_id}", "--tensor-parallel-size", "${gpu_count}"]
    assert arg(invocation, "${model_id}").unresolved == ("${model_id}",)
    assert at(TFTPL, arg(invocation, "--tensor-parallel-size")) == (14, 45)
    assert invocation.source == "kubernetes"


@pytest.mark.parametrize(
    "text",
    [
        "{{- if .Values.x }}\nkind: Pod\n{{- end }}\n",
        "{{ unclosed\nkind: Pod\n",
        "%{ for x in y }\n${\n",
        "a: {{ {{ }} }}\n",
        "{{/* comment }} */}}\n",
        "\x00\ufeff---\n- [",
    ],
)
def test_malformed_templates_do_not_raise(text: str) -> None:
    assert find_invocations(text) == []


# -- operators ---------------------------------------------------------------------------


def test_kubeai_model_args_follow_the_flags_the_controller_writes() -> None:
    text = (
        "apiVersion: kubeai.org/v1\n"
        "kind: Model\n"
        "metadata:\n"
        "  name: llama\n"
        "spec:\n"
        "  url: hf://meta-llama/Llama-3.1-8B\n"
        "  engine: VLLM\n"
        "  args:\n"
        "    - --max-model-len=8192\n"
        "    - --enable-prefix-caching\n"
    )
    invocation = only(text)
    assert texts(invocation) == [
        "--model=meta-llama/Llama-3.1-8B",
        "--served-model-name=llama",
        "--max-model-len=8192",
        "--enable-prefix-caching",
    ]
    assert generated_texts(invocation) == texts(invocation)[:2]
    # no text of their own: what is found on them goes to `url` and `metadata.name`
    model, served = (w.generated for w in invocation.args[:2])
    assert model is not None and served is not None
    assert text[model.start : model.end] == "hf://meta-llama/Llama-3.1-8B"
    assert text[served.start : served.end] == "llama"
    assert line_column(text, invocation.start) == (9, 7)
    # engine_vllm.go runs `python3 -m vllm.entrypoints.openai.api_server`
    assert invocation.entrypoint == "api_server"


def test_kubeai_other_engines_are_not_vllm() -> None:
    text = "kind: Model\nspec:\n  engine: OLlama\n  args: [--x]\n"
    assert find_invocations(text) == []


KAITO = """apiVersion: v1
kind: ConfigMap
metadata:
  name: params
data:
  inference_config.yaml: |
    max_probe_steps: 6
    vllm:
      gpu-memory-utilization: 0.95  # comment
      enable-chunked-prefill: true
      max-model-len: 131072
"""


def test_kaito_inner_yaml_maps_keys_to_flags_with_python_str_values() -> None:
    invocation = only(KAITO)
    assert invocation.entrypoint == "api_server"
    assert texts(invocation) == [
        "--gpu-memory-utilization",
        "0.95",
        "--enable-chunked-prefill",
        "True",
        "--max-model-len",
        "131072",
    ]
    assert line_column(KAITO, invocation.start) == (8, 5)  # the `vllm:` key
    flag = arg(invocation, "--enable-chunked-prefill")
    assert at(KAITO, flag) == (10, 7)
    assert written(KAITO, flag) == "enable-chunked-prefill"
    assert flag.quoting == "yaml-key"
    assert flag.source_range(2, len(flag.text)) == (flag.start, flag.end)
    true = arg(invocation, "True")
    assert written(KAITO, true) == "true"
    assert true.quoting == "yaml-value"
    assert written(KAITO, arg(invocation, "131072")) == "131072"


def test_kaito_mapping_outside_its_config_file_is_not_read() -> None:
    text = KAITO.replace("inference_config.yaml", "other.yaml")
    assert find_invocations(text) == []


RAY = """apiVersion: ray.io/v1
kind: RayService
spec:
  serveConfigV2: |
    applications:
    - args:
        llm_configs:
        - model_loading_config:
            model_id: qwen
          engine_kwargs:
            max_model_len: 1024
            trust_remote_code: true
            enforce_eager: false
            speculative_config: {method: ngram, num_speculative_tokens: 2}
            dtype: bfloat16
"""


def test_ray_serve_engine_kwargs_as_the_equivalent_command_line() -> None:
    invocation = only(RAY)
    # `enforce_eager: false` keeps the default: a command line leaves the flag out
    assert texts(invocation) == [
        "--max-model-len",
        "1024",
        "--trust-remote-code",
        "--speculative-config",
        '{"method": "ngram", "num_speculative_tokens": 2}',
        "--dtype",
        "bfloat16",
    ]
    assert line_column(RAY, invocation.start) == (10, 11)
    assert at(RAY, arg(invocation, "--trust-remote-code")) == (12, 13)
    assert at(RAY, arg(invocation, "bfloat16")) == (15, 20)


def test_ray_engine_kwargs_fixes_edit_the_field_not_a_flag() -> None:
    text = RAY.replace("max_model_len: 1024", "max_model_leng: 1024")
    [found] = lint(text, version="0.33.0", host="kubernetes").findings
    assert found.code == "VC101" and text[found.start : found.end] == "max_model_leng"
    rename, removal = found.fixes
    assert "            max_model_len: 1024\n" in apply_fix(text, rename)
    removed = apply_fix(text, removal)
    assert "max_model_len" not in removed
    assert "          engine_kwargs:\n            trust_remote_code: true\n" in removed


def test_engine_kwargs_outside_a_ray_llm_config_is_not_read() -> None:
    assert find_invocations("x:\n  engine_kwargs:\n    max_model_len: 1\n") == []


AIBRIX = """kind: ConfigMap
data:
  templates.yaml: |
    - name: prod
      spec:
        engine:
          type: vllm
          image: "vllm/vllm-openai:v0.6.3"
          serve_args:
            - "--port=8000"
        model_source:
          uri: "s3://models/llama/"
          tokenizer_path: tokenizer/
        parallelism:
          tp: 4
          pp: 1
        engine_args:
          max_model_len: 32768
          gpu_memory_utilization: 0.90
          enable_prefix_caching: true
          enable_chunked_prefill: false
          zeta_extra: [a, b]
          alpha_extra: 3
        quantization:
          weight: fp8
    - name: mock
      spec:
        engine:
          type: mock
        model_source:
          uri: /m
"""


def test_aibrix_batch_template_in_engine_adapter_order() -> None:
    invocation = only(AIBRIX)
    assert texts(invocation) == [
        "--model",
        "s3://models/llama/",
        "--tokenizer",
        "tokenizer/",
        "--tensor-parallel-size",
        "4",
        "--max-model-len",
        "32768",
        "--gpu-memory-utilization",
        "0.9",
        "--enable-prefix-caching",
        "--alpha-extra",
        "3",
        "--zeta-extra",
        "a",
        "--zeta-extra",
        "b",
        "--quantization",
        "fp8",
        "--port=8000",
    ]
    assert line_column(AIBRIX, invocation.start) == (4, 7)
    assert at(AIBRIX, arg(invocation, "--model")) == (12, 11)
    assert at(AIBRIX, arg(invocation, "--port=8000")) == (10, 16)
    assert invocation.image == "vllm/vllm-openai:v0.6.3"


VLLM_RUNTIME = """apiVersion: production-stack.vllm.ai/v1alpha1
kind: VLLMRuntime
spec:
  model:
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    enableLoRA: true
    maxModelLen: 4096
  vllmConfig:
    enableChunkedPrefill: false
    gpuMemoryUtilization: "0.8"
    v1: true
    port: 8000
    extraArgs: ["--max-num-batched-tokens", "2048"]
  lmCacheConfig:
    enabled: true
"""


def test_vllm_runtime_as_the_operator_builds_it() -> None:
    invocation = only(VLLM_RUNTIME)
    assert generated_texts(invocation) == ["--host", "0.0.0.0", "--no-enable-prefix-caching"]
    assert texts(invocation) == [
        "meta-llama/Llama-3.1-8B-Instruct",
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
        "--enable-lora",
        "--no-enable-chunked-prefill",
        "--no-enable-prefix-caching",
        "--max-model-len",
        "4096",
        "--gpu_memory_utilization",
        "0.8",
        "--max-num-batched-tokens",
        "2048",
        "--kv-transfer-config",
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}',
    ]
    assert line_column(VLLM_RUNTIME, invocation.start) == (4, 3)
    assert at(VLLM_RUNTIME, arg(invocation, "--no-enable-chunked-prefill")) == (9, 5)
    assert at(VLLM_RUNTIME, invocation.args[0]) == (5, 16)


PRODUCTION_STACK_VALUES = """servingEngineSpec:
  modelSpec:
  - name: "llama"
    repository: "lmcache/vllm-openai"
    tag: "latest"
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    vllmConfig:
      enablePrefixCaching: false
      maxModelLen: 1048576
      gpuMemoryUtilization: 0.9
      extraArgs: ["--disable-log-requests"]
    lmcacheConfig:
      enabled: true
      kvRole: kv_producer
routerSpec:
  extraArgs: ["--routing-logic", "roundrobin"]
"""


def test_production_stack_values_as_the_chart_renders_them() -> None:
    invocation = only(PRODUCTION_STACK_VALUES)
    assert invocation.source == "helm"
    assert generated_texts(invocation) == ["--host", "0.0.0.0", "--port", "8000"]
    assert texts(invocation) == [
        "meta-llama/Llama-3.1-8B-Instruct",
        "--host",
        "0.0.0.0",
        "--port",
        "8000",
        "--no-enable-prefix-caching",
        "--max-model-len",
        "1.048576e+06",  # Helm's `quote` of a float64
        "--gpu_memory_utilization",
        "0.9",
        "--disable-log-requests",
        "--kv-transfer-config",
        '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_producer"}',
    ]
    assert line_column(PRODUCTION_STACK_VALUES, invocation.start) == (6, 5)
    assert invocation.image == "lmcache/vllm-openai:latest"


def test_llm_inference_service_additional_args_env_and_args() -> None:
    text = (
        "apiVersion: serving.kserve.io/v1alpha2\n"
        "kind: LLMInferenceService\n"
        "spec:\n"
        "  template:\n"
        "    containers:\n"
        "      - name: main\n"
        "        env:\n"
        "          - name: VLLM_ADDITIONAL_ARGS\n"
        '            value: "--max-model-len 8192 --kv-transfer-config \'{\\"a\\": 1}\'"\n'
        "        args: [--enforce-eager]\n"
    )
    invocation = only(text)
    assert texts(invocation) == [
        "--max-model-len",
        "8192",
        "--kv-transfer-config",
        '{"a": 1}',
        "--enforce-eager",
    ]
    assert at(text, invocation.args[0]) == (9, 21)


# -- robustness --------------------------------------------------------------------------

_PIECES = st.sampled_from(
    [
        "kind: Pod\n",
        "spec:\n",
        "  containers:\n",
        "  - image: vllm/vllm-openai\n",
        "    command: [sh, -c, 'vllm serve m --port 1']\n",
        "    args: [--x, '$(Y)', \"$$\"]\n",
        "    command: |\n      vllm serve \\\n",
        "{{- if .Values.a }}\n",
        "  - {{ .Values.b | quote }}\n",
        "%{ for x in y ~}\n",
        "---\n",
        "  engine: VLLM\n  args: [--a]\n",
        "  engine_kwargs: {a: 1}\n  type: VLLMEngine\n",
        "data:\n  inference_config.yaml: |\n    vllm:\n      a: 1\n",
        "kind: ConfigMap\n",
        "kind: VLLMRuntime\nspec:\n  model:\n    modelURL: m\n",
        "servingEngineSpec:\n  modelSpec:\n  - modelURL: m\n",
        "[",
        "'",
        '"\\',
        "\t",
        "&a *a\n",
        "<<: *a\n",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PIECES, max_size=12), st.text(max_size=20))
def test_never_raises_on_fragments(pieces: list[str], noise: str) -> None:
    text = "".join(pieces) + noise
    assert_words_inside(find_invocations(text), text)


def test_a_large_file_is_read_whole() -> None:
    def manifest(count: int) -> str:
        return "".join(
            "---\nkind: Pod\nspec:\n  containers:\n  - image: vllm/vllm-openai\n"
            f"    command: [sh, -c, 'vllm serve m --port {i} --x {{{{ .Values.v }}}}']\n"
            for i in range(count)
        )

    found = find_invocations(manifest(1500))
    assert len(found) == 1500
    assert [inv.args[2].text for inv in found[::500]] == ["0", "500", "1000"]


# -- the corpus --------------------------------------------------------------------------

#: Cases the Kubernetes layer cannot know, with the reason.
XFAIL = {
    "helm-values/GoogleCloudPlatform__kubernetes-engine-samples__app-design-center__ai-inference"
    "__values.yaml": "a values file reaches vLLM only through its chart's templates, which "
    "the corpus stores flattened; laid out as a chart it is read with them "
    "(tests/sources/test_helm_chart.py::"
    "test_corpus_values_reach_vllm_through_the_template_on_their_own_lines)",
}
XFAIL_FORMATS = {
    "launcher-config": "launcher configs (vec-inf, InferenceX, ramalama, recipes, vllm-ascend) "
    "are not Kubernetes, compose or workflow files: no source reads them in this round",
}
#: Ground-truth rows that disagree with the file or with the operator code they cite
#: (invocations.jsonl is written by hand and is not edited here).
ROW_FIXES: dict[tuple[str, int], dict[str, object]] = {
    (
        "cr/vllm-project__aibrix__samples__batch__batch_v1alpha1_model_deployment_templates.yaml",
        69,
    ): {
        # The template item `- name: qwen-7b-dev` is at line 73 (line 69 is the blank line
        # after the first template, whose row rightly says 25, its `- name:` line), and
        # engine_adapter.py emits `--revision` for its `revision: main`.
        "line": 73,
        "insert": {1: ("--revision", 89, 11)},
    },
    ("helm-values/substratusai__kubeai__charts__models__values.yaml", 126): {
        # Line 131 is a YAML comment that quotes the flag; the list item is at 149:7.
        "move": {"--distributed-executor-backend": (149, 7)},
    },
}


def _rows() -> list[dict[str, object]]:
    rows = [json.loads(line) for line in (CORPUS / "invocations.jsonl").read_text().splitlines()]
    return [row for row in rows if row["format"] in FORMATS]


def _fix(row: dict[str, object]) -> dict[str, object]:
    return ROW_FIXES.get((str(row["file"]), int(str(row["line"]))), {})


def _line(row: dict[str, object]) -> int:
    return int(str(_fix(row).get("line", row["line"])))


def _is_flag(text: str) -> bool:
    return text.startswith("-") and len(text) > 1 and not text[1].isdigit()


def _found_flags(text: str, invocation: Invocation) -> list[tuple[str, int, int]]:
    return [
        (word.text.split("=", 1)[0], *at(text, word))
        for word in invocation.args
        if _is_flag(word.text) and word.generated is None
    ]


def _expected_flags(row: dict[str, object]) -> tuple[list[tuple[str, int, int]], list[int]]:
    """The flags with text in the file, and the lines of keys that hold a positional (the
    production-stack `modelURL`, listed as `--model` though argv has no such flag)."""
    argv = row["argv"]
    assert isinstance(argv, list)
    names = {str(item).split("=", 1)[0] for item in argv if _is_flag(str(item))}
    moves: dict[str, tuple[int, int]] = _fix(row).get("move", {})  # type: ignore[assignment]
    inserts: dict[int, tuple[str, int, int]] = _fix(row).get("insert", {})  # type: ignore[assignment]
    flags: list[tuple[str, int, int]] = []
    positional_lines: list[int] = []
    for entry in row["flags"]:  # type: ignore[attr-defined]
        if entry.get("generated"):
            continue
        if entry["flag"] not in names:
            positional_lines.append(entry["line"])
            continue
        line, column = moves.get(entry["flag"], (entry["line"], entry["column"]))
        flags.append((entry["flag"], line, column))
    for index, flag in sorted(inserts.items()):
        flags.insert(index, flag)
    return flags, positional_lines


def _params() -> list[object]:
    params: list[object] = []
    for row in _rows():
        file = str(row["file"])
        reason = XFAIL.get(file) or XFAIL_FORMATS.get(str(row["format"]))
        marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
        params.append(pytest.param(row, marks=marks, id=f"{file.split('/')[-1]}:{row['line']}"))
    return params


@pytest.mark.parametrize("row", _params())
def test_corpus_invocation_is_found_with_its_flags_at_their_positions(
    row: dict[str, object],
) -> None:
    text = (CORPUS / "files" / str(row["file"])).read_text()
    found = {line_column(text, inv.start)[0]: inv for inv in find_invocations(text)}
    invocation = found.get(_line(row))
    assert invocation is not None, f"no invocation at line {_line(row)}: {sorted(found)}"
    flags, positional_lines = _expected_flags(row)
    assert _found_flags(text, invocation) == flags
    for line in positional_lines:
        assert any(at(text, w)[0] == line for w in invocation.args if not _is_flag(w.text))
    keyed = any(entry.get("key") for entry in row["flags"])  # type: ignore[attr-defined]
    if not keyed:  # the argv vLLM receives, the flags an operator writes included
        assert texts(invocation) == row["argv"]


def _files() -> list[object]:
    files = sorted({str(row["file"]) for row in _rows() if row["format"] != "launcher-config"})
    return [
        pytest.param(file, marks=[pytest.mark.xfail(strict=True, reason=XFAIL[file])])
        if file in XFAIL
        else file
        for file in files
    ]


@pytest.mark.parametrize("file", _files(), ids=lambda file: str(file).split("/")[-1])
def test_corpus_file_has_no_extra_invocations(file: str) -> None:
    text = (CORPUS / "files" / file).read_text()
    expected = sorted(_line(row) for row in _rows() if row["file"] == file)
    assert sorted(line_column(text, inv.start)[0] for inv in find_invocations(text)) == expected


def test_corpus_sources_and_images() -> None:
    def first(name: str) -> Invocation:
        path = next((CORPUS / "files").glob(f"*/{name}*"))
        return find_invocations(path.read_text())[0]

    assert (
        first("GoogleCloudPlatform__kubernetes-engine-samples__app-design-center").source == "helm"
    )
    assert first("vllm-project__production-stack__tutorials__assets__values-16").source == "helm"
    assert first("kubernetes-sigs__lws__docs__examples__vllm__GPU").source == "kubernetes"
    assert (
        first("kubernetes-sigs__lws__docs__examples__vllm__GPU").image == "vllm/vllm-openai:v0.8.5"
    )
    tftpl = first("GoogleCloudPlatform__ai-on-gke")
    assert tftpl.source == "kubernetes"
    assert arg(tftpl, "${model_id}").unresolved == ("${model_id}",)


# -- streams ------------------------------------------------------------------------------

_DEPLOYMENT = pod(
    "  - name: vllm\n    image: vllm/vllm-openai:v0.9.0\n"
    '    command: ["vllm", "serve", "m", "--max-num-seqs", "8"]\n'
)


def test_each_document_of_a_stream_keeps_its_positions_after_an_edit_above_it() -> None:
    text = f"{_DEPLOYMENT}---\n{_DEPLOYMENT}---\n{_DEPLOYMENT}"
    assert len(find_invocations(text)) == 3
    edited = text.replace("name: p", "name: pod-with-a-longer-name", 1)  # in document one
    found = find_invocations(edited)
    assert len(found) == 3
    for invocation in found:  # every word still stands where it is written
        assert [written(edited, w) for w in invocation.args] == [
            '"m"',
            '"--max-num-seqs"',
            '"8"',
        ]
    assert_words_inside(found, edited)


def test_a_template_in_one_document_makes_every_document_helm() -> None:
    templated = _DEPLOYMENT.replace("name: p", "name: {{ .Release.Name }}")
    found = find_invocations(f"{_DEPLOYMENT}---\n{templated}")
    assert [inv.source for inv in found] == ["helm", "helm"]
    assert [inv.source for inv in find_invocations(f"{_DEPLOYMENT}---\n{_DEPLOYMENT}")] == [
        "kubernetes",
        "kubernetes",
    ]


def test_a_dashes_line_inside_a_block_scalar_ends_the_document_as_yaml_says() -> None:
    """YAML forbids `---` + blank at a line's start inside any scalar: the stream splits
    there whatever the indentation around it, so splitting the text first changes nothing."""
    import yaml

    text = f"{_DEPLOYMENT}  notes: |\n    one\n---\n{_DEPLOYMENT}"
    assert len(list(yaml.safe_load_all(text))) == 2
    assert len(find_invocations(text)) == 2
