"""vLLM's imperative start-up checks the differential fuzz found missing (issue 20), through
the real CLI: each refusal is an error where the file decides it, and nothing (or a warning)
where the host, the hardware or the environment still could."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import REPO, check_file, cli

MODELS = REPO / "tests" / "fixtures" / "models"


def _codes(rows: list[dict[str, object]], severity: str = "error") -> list[str]:
    return sorted(str(row["code"]) for row in rows if row["severity"] == severity)


@pytest.fixture(autouse=True)
def _no_rust_frontend(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VLLM_USE_RUST_FRONTEND", raising=False)
    monkeypatch.setenv("VLLM_CONFIG_MODEL_DIRS", str(MODELS))


@pytest.mark.parametrize(
    ("kv", "extra", "codes"),
    [
        ("  kv_role: kv_both\n", "", ["VC361"]),
        ("  kv_connector: null\n  kv_role: kv_both\n", "", ["VC361"]),
        # vLLM asks the connector class only while it settles HMA itself
        ("  kv_role: kv_both\n", "disable-hybrid-kv-cache-manager: true\n", []),
        ("  kv_role: kv_both\n", "no-disable-hybrid-kv-cache-manager: true\n", []),
        # kv-offloading-size names the connector
        ("  kv_role: kv_both\n", "kv-offloading-size: 4\n", []),
        ("  kv_connector: NixlConnector\n  kv_role: kv_both\n", "", []),
        ("  kv_connector: MyConnector\n  kv_role: kv_both\n", "", ["VC361"]),
        # a name of the user's own module is not known here
        (
            "  kv_connector: MyConnector\n  kv_role: kv_both\n"
            "  kv_connector_module_path: my_pkg.connectors\n",
            "",
            [],
        ),
        (
            "  kv_connector: NixlConnector\n  kv_role: kv_both\n  kv_connector_module_path: ''\n",
            "",
            ["VC361"],
        ),
    ],
)
def test_kv_connector_name(tmp_path: Path, kv: str, extra: str, codes: list[str]) -> None:
    rows = check_file(tmp_path, f"model: m\nkv-transfer-config:\n{kv}{extra}")
    assert _codes(rows) == codes


def test_kv_connector_misspelt_is_offered_the_registered_name(tmp_path: Path) -> None:
    rows = check_file(
        tmp_path,
        "model: m\nkv-transfer-config:\n  kv_connector: NixlConector\n  kv_role: kv_both\n",
    )
    (row,) = [r for r in rows if r["code"] == "VC361"]
    assert "Unsupported connector type: NixlConector" in str(row["message"])
    assert "Did you mean `NixlConnector`?" in str(row["message"])


def test_grpc_port_warns_without_the_environment_and_is_silent_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "model: m\ngrpc-port: 50051\n"
    rows = check_file(tmp_path, text)
    assert _codes(rows) == [] and _codes(rows, "warning") == ["VC508"]
    monkeypatch.setenv("VLLM_USE_RUST_FRONTEND", "1")
    assert [r for r in check_file(tmp_path, text) if r["code"] == "VC508"] == []


def test_grpc_port_on_the_api_server_module_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VLLM_USE_RUST_FRONTEND", "1")
    script = "python -m vllm.entrypoints.openai.api_server --model m --grpc-port 50051\n"
    assert "VC508" in _codes(check_file(tmp_path, script, "run.sh"))


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("tensor-parallel-size: 2\nray-workers-use-nsight: true\n", ["VC319"]),
        (
            "tensor-parallel-size: 2\nray-workers-use-nsight: true\n"
            "distributed-executor-backend: ray\n",
            [],
        ),
        ("data-parallel-size: 2\ndata-parallel-backend: ray\nray-workers-use-nsight: true\n", []),
    ],
)
def test_nsight_with_several_gpus(tmp_path: Path, text: str, codes: list[str]) -> None:
    assert _codes(check_file(tmp_path, "model: m\n" + text)) == codes


def test_nsight_with_several_gpus_elsewhere_than_vllm_serve_is_not_judged(tmp_path: Path) -> None:
    """Ray Serve runs vLLM inside a placement group, where vLLM picks the Ray executor."""
    sample = REPO / "tests/corpus/deployments/files/cr"
    manifest = (
        sample / "ray-project__kuberay__ray-operator__config__samples__ray-service.llm-serve.yaml"
    ).read_text()
    nsight = "ray_workers_use_nsight: true\n            tensor_parallel_size: {}"
    one = manifest.replace("dtype: bfloat16", nsight.format(1))
    assert "VC319" in _codes(check_file(tmp_path, one, "rayservice.yaml"))  # uni on one GPU
    two = manifest.replace("dtype: bfloat16", nsight.format(2))
    assert "VC319" not in _codes(check_file(tmp_path, two, "rayservice.yaml"))


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("max-num-active-seqs: 1025\n", ["VC311"]),
        # vLLM's default max_num_seqs may be 1024 (a large GPU): not judged
        ("max-num-active-seqs: 1024\n", []),
        ("max-num-active-seqs: 2048\ntensor-parallel-size: 8\n", []),
        ("max-num-active-seqs: 2049\ntensor-parallel-size: 8\n", ["VC311"]),
        ("max-num-active-seqs: 2048\nperformance-mode: throughput\n", []),
        ("max-num-active-seqs: 2048\nmax-num-seqs: 4096\nmax-num-batched-tokens: 8192\n", []),
    ],
)
def test_active_seqs_against_the_default_max_num_seqs(
    tmp_path: Path, text: str, codes: list[str]
) -> None:
    assert _codes(check_file(tmp_path, "model: m\n" + text)) == codes


@pytest.mark.parametrize(
    ("text", "errors", "warnings"),
    [
        ("ubatch-size: 64\n", ["VC320"], ["VC362"]),  # default thresholds 32 and 512
        ("ubatch-size: 32\n", [], ["VC362"]),  # the default all2all backend: ROCm only
        ("enable-dbo: true\nall2all-backend: deepep_v2\n", ["VC362"], []),
        ("enable-dbo: true\nall2all-backend: deepep_low_latency\n", [], []),
        ("enable-dbo: true\nall2all-backend: pplx\n", [], ["VC362"]),
        ("ubatch-size: 2\nmoe-backend: flashinfer_moe_ep_cutedsl\n", [], []),
    ],
)
def test_micro_batching(tmp_path: Path, text: str, errors: list[str], warnings: list[str]) -> None:
    rows = check_file(tmp_path, "model: m\n" + text)
    assert _codes(rows) == errors
    assert [c for c in _codes(rows, "warning") if c == "VC362"] == warnings


@pytest.mark.parametrize(("gpu", "errors"), [("B200", ["VC362"]), ("MI300X", [])])
def test_micro_batching_on_the_target_gpu(tmp_path: Path, gpu: str, errors: list[str]) -> None:
    """The default all2all backend is ROCm's only: the target decides error or nothing."""
    rows = check_file(tmp_path, f"# vllm-config: gpu={gpu}\nmodel: m\nenable-dbo: true\n")
    assert _codes(rows) == errors
    assert "VC362" not in _codes(rows, "warning")


@pytest.mark.parametrize(
    ("backend", "codes"),
    [
        ("multiprocessing", ["VC363"]),
        ("Ray", ["VC363"]),
        ("a,b", ["VC363"]),
        ("mp", []),
        ("my_pkg.MyExecutor", []),
    ],
)
def test_executor_backend_name(tmp_path: Path, backend: str, codes: list[str]) -> None:
    assert (
        _codes(check_file(tmp_path, f"model: m\ndistributed-executor-backend: {backend}\n"))
        == codes
    )


def test_executor_backend_synonym_fix(tmp_path: Path) -> None:
    path = tmp_path / "serve.yaml"
    path.write_text("model: m\ndistributed-executor-backend: multiprocessing\n", encoding="utf-8")
    rows = json.loads(cli("check", str(path), "--format", "json").stdout)
    (row,) = [r for r in rows if r["code"] == "VC363"]
    assert "Did you mean `mp`?" in str(row["message"])


@pytest.mark.parametrize(
    ("items", "codes"), [("- a.b:C\n- null\n", ["VC209"]), ("- ''\n", ["VC209"]), ("- a.b:C\n", [])]
)
def test_logits_processors_items(tmp_path: Path, items: str, codes: list[str]) -> None:
    assert _codes(check_file(tmp_path, f"model: m\nlogits-processors:\n{items}")) == codes


def test_stochastic_rounding_reads_the_model(tmp_path: Path) -> None:
    on = "enable-mamba-cache-stochastic-rounding: true\n"
    rows = check_file(tmp_path, "model: state-spaces/mamba-130m-hf\n" + on)
    assert _codes(rows) == ["VC325"]  # no NemotronH/Qwen3.5 hook: the SSM cache stays auto
    unknown = check_file(tmp_path, "model: someone/unseen-model\n" + on)
    assert _codes(unknown) == [] and "VC325" in _codes(unknown, "warning")


def test_model_class_override_target(tmp_path: Path) -> None:
    text = "model: m\nmodel-class-overrides:\n  LlamaForCausalLM: my_models.llama.MyLlama\n"
    path = tmp_path / "serve.yaml"
    path.write_text(text, encoding="utf-8")
    rows = json.loads(cli("check", str(path), "--format", "json").stdout)
    assert [r["code"] for r in rows if r["severity"] == "error"] == ["VC364"]
    ok = "model: m\nmodel-class-overrides:\n  LlamaForCausalLM: my_models.llama:MyLlama\n"
    assert _codes(check_file(tmp_path, ok)) == []


@pytest.mark.parametrize(
    ("text", "codes"),
    [
        ("runner: pooling\npooler-config:\n  seq_pooling_type: MEAN\n", ["VC311"]),
        ('runner: pooling\npooler-config: \'{"pooling_type": "CLS"}\'\n', ["VC311"]),
        ("runner: pooling\npooler-config:\n  seq_pooling_type: LAST\n", []),
        # a generative model given a MEAN pooler loses chunked prefill too:
        # is_chunked_prefill_supported reads the file's pooler whatever the runner
        # (the real vLLM 0.33.0 in refusals/pooler-mean-generative-runner.yaml)
        ("pooler-config:\n  seq_pooling_type: MEAN\n", ["VC311"]),
        (
            "runner: pooling\npooler-config:\n  seq_pooling_type: MEAN\n"
            "enable-chunked-prefill: true\n",
            [],
        ),
    ],
)
def test_pooling_that_turns_chunked_prefill_off(
    tmp_path: Path, text: str, codes: list[str]
) -> None:
    lengths = "max-model-len: 4096\nmax-num-batched-tokens: 2048\n"
    rows = check_file(tmp_path, "model: Qwen/Qwen2.5-0.5B-Instruct\n" + text + lengths)
    assert _codes(rows) == codes
