"""VC680 (weights do not fit) and VC681 (one max-length request's KV cache does not fit) on
real model shapes: hand-written config.json files and safetensors indexes of Llama 3.1
8B and 70B under tests/fixtures/models/meta-llama/, judged against an H100 (79.65 GiB, as
`torch.cuda.mem_get_info` reports an 80 GB card). The target is set on the model as the
front ends set it once they have read it (tests/rules/test_memory_budget_e2e.py goes
through the marker comment and the CLI); every fix offered must make the finding go away.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from support import REPO, apply_fix
from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules import rule_by_code
from vllm_config_lsp.rules.memory import budget, memory_summary
from vllm_config_lsp.vllm.catalogue import load_catalogue
from vllm_config_lsp.vllm.config_model import ConfigModel, build_model
from vllm_config_lsp.vllm.hardware import Gpu, Target

MODELS = REPO / "tests" / "fixtures" / "models"
H100 = Gpu("H100-80GB", "nvidia", 85_520_809_984, (9, 0), None, frozenset({"bf16", "fp8"}))
L70 = "model: meta-llama/Llama-3.1-70B-Instruct\n"
L8 = "model: meta-llama/Meta-Llama-3.1-8B-Instruct\n"


def model_of(text: str, count: int | None = 1, gpu: Gpu | None = H100) -> ConfigModel:
    model = build_model(text, load_catalogue("0.33.0"), model_dirs=(MODELS,))
    model.target = Target(gpu, count, origin="test")
    return model


def run(code: str, text: str, count: int | None = 1) -> list[Finding]:
    rule = rule_by_code(code)
    assert rule is not None
    return list(rule.check(model_of(text, count)))


def assert_fixes_work(code: str, text: str, finding: Finding, count: int | None) -> list[str]:
    titles = []
    for fix in finding.fixes:
        fixed = apply_fix(text, fix)
        assert not run(code, fixed, count), (fix.title, fixed)
        titles.append(fix.title)
    return titles


def test_70b_on_one_h100_is_refused_for_its_weights() -> None:
    """141.1 GB of bf16 weights against 0.92 * 79.65 GiB = 73.3 GiB: nothing left for the
    cache, and more than the whole card (vLLM's load runs out of memory)."""
    (found,) = run("VC680", L70)
    assert found.severity == Severity.ERROR
    assert "131.42 GiB of weights per GPU" in found.message
    assert "CUDA out of memory" in found.message
    assert not run("VC681", L70)  # nothing left at all is VC680's alone


def test_weights_fix_offers_a_tensor_parallel_size_within_the_gpus() -> None:
    text = L70 + "max-model-len: 8192\n"
    (found,) = run("VC680", text, count=8)
    titles = assert_fixes_work("VC680", text, found, count=8)
    assert titles == ["Add `tensor-parallel-size: 2`"]
    (alone,) = run("VC680", text, count=1)
    assert not alone.fixes  # one GPU: no size fits, and no utilization either


def test_weights_that_fit_the_card_but_not_the_utilization() -> None:
    """8B on a 16 GiB card at 0.92: 14.96 GiB of weights, 14.72 GiB requested."""
    small = Gpu("T4-16GB", "nvidia", 16 * 2**30, (7, 5))
    model = model_of(L8 + "max-model-len: 1024\n", gpu=small)
    (found,) = rule_by_code("VC680").check(model)  # type: ignore[union-attr]
    assert "No available memory for the cache blocks" in found.message
    assert "CUDA out of memory" not in found.message


def test_70b_on_two_h100s_cannot_hold_its_full_context() -> None:
    """0.92 (the default) * 79.65 GiB less 65.71 GiB of weights per GPU and a 2.5 MiB null
    block leave 7.56 GiB; 131,072 tokens * 80 layers * 4 KV heads * 2 * 128 * 2 bytes (160
    KiB a token) = 20 GiB. 8,122,817,250 / 160 KiB = 49,577 tokens: 3,098 whole blocks."""
    text = L70 + "tensor-parallel-size: 2\n"
    (found,) = run("VC681", text, count=2)
    assert found.message.startswith(
        "To serve at least one request with the model's max seq len (131072), (20.0 GiB KV "
        "cache is needed, which is larger than the available KV cache memory (7.56 GiB). "
        "Based on the available memory, the estimated maximum model length is 49568."
    )
    titles = assert_fixes_work("VC681", text, found, count=2)
    assert titles == ["Add `max-model-len: 49568`"]
    (wider,) = run("VC681", text, count=4)
    assert assert_fixes_work("VC681", text, wider, count=4) == [
        "Add `max-model-len: 49568`",
        "Set tensor-parallel-size to 4",
    ]


def test_utilization_fix_when_a_little_more_would_do() -> None:
    """8B on one H100 with 0.3: 23.9 GiB requested, 14.96 GiB weights, 16 GiB needed:
    30.96 GiB of 79.65 is 0.389, so 0.39."""
    text = L8 + "gpu-memory-utilization: 0.3\n"
    (found,) = run("VC681", text)
    assert "Set gpu-memory-utilization to 0.39" in [fix.title for fix in found.fixes]
    assert_fixes_work("VC681", text, found, 1)


def test_fp8_kv_cache_halves_what_one_request_needs() -> None:
    """65,536 tokens of bf16 KV are 10 GiB per GPU, in fp8 5 GiB: 7.56 GiB are left."""
    text = L70 + "tensor-parallel-size: 2\nmax-model-len: 65536\n"
    assert run("VC681", text, count=2)
    assert not run("VC681", text + "kv-cache-dtype: fp8\n", count=2)


@pytest.mark.parametrize(
    "text",
    [
        L8,  # 16 GiB of KV for 128k tokens in 56.7 GiB: fits
        L70 + "tensor-parallel-size: 4\n",
        L70 + "tensor-parallel-size: 2\nmax-model-len: 16384\n",
        L70 + "tensor-parallel-size: 2\nmax-model-len: auto\n",  # vLLM fits it itself
        L70 + "kv-cache-memory-bytes: 1G\n",  # sized by hand
    ],
)
def test_configs_that_fit_are_left_alone(text: str) -> None:
    assert not run("VC680", text, count=4)
    assert not run("VC681", text, count=4)


def test_without_a_target_or_a_gpu_nothing_is_said() -> None:
    model = build_model(L70, load_catalogue("0.33.0"), model_dirs=(MODELS,))
    assert model.target is None and budget(model) is None
    assert not list(rule_by_code("VC680").check(model))  # type: ignore[union-attr]
    counted_only = model_of(L70, count=8, gpu=None)
    assert budget(counted_only) is None


def test_summary_of_a_config_that_fits() -> None:
    """73.28 GiB requested less 14.96 GiB of weights: 58.32 GiB, 477k tokens of 128 KiB,
    14.6 requests of 32,768 tokens (4 GiB each)."""
    summary = memory_summary(model_of(L8 + "max-model-len: 32768\n"))
    assert summary is not None
    assert summary.startswith(
        "weights 15.0 GiB/GPU · KV 128 KiB/token · ≈ 477k tokens of KV cache · 14 concurrent "
        "sequences at max length 32768 (estimate: leaves out activations"
    )
    assert memory_summary(model_of(L70)) is None  # refused: the error says it


@pytest.mark.parametrize(
    "changes",
    [
        {"num_hidden_layers": 10**18},
        {"num_attention_heads": 10**18, "num_key_value_heads": 10**18},
        {"max_position_embeddings": 10**18, "rope_scaling": None},
        {"layer_types": ["sliding_attention"] * 80, "sliding_window": 10**18},
        {"hidden_size": 0, "head_dim": 0},
    ],
)
def test_hostile_shapes_end_in_an_answer(tmp_path: Path, changes: dict[str, object]) -> None:
    """Numbers no model has (but config.json may hold) give an answer or none, quickly: no
    list of 10**18 layers, no search over 10**18 tensor-parallel sizes."""
    folder = tmp_path / "m"
    folder.mkdir()
    raw = json.loads((MODELS / "meta-llama" / "Llama-3.1-70B-Instruct" / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**raw, **changes}))
    text = f"model: {folder}\ntensor-parallel-size: 2\n"
    for code in ("VC680", "VC681"):
        for finding in run(code, text, count=None):
            assert finding.severity == Severity.ERROR
    memory_summary(model_of(text, count=None))


def test_mtp_layers_in_the_index_are_not_counted(tmp_path: Path) -> None:
    """A DeepSeek-style checkpoint's index counts its MTP layer, which `vllm serve` without
    speculative decoding does not load: 80 of 81 layers' share of the total is."""
    folder = tmp_path / "mtp"
    shutil.copytree(MODELS / "meta-llama" / "Llama-3.1-70B-Instruct", folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "num_nextn_predict_layers": 1}))
    found = budget(model_of(f"model: {folder}\n"))
    assert found is not None
    assert found.weights.total == 141107412992 * 80 // 81
    assert found.weights.source == "the safetensors index's total_size, less 1 MTP layer"


@pytest.mark.parametrize(
    "setting",
    [
        "num-gpu-blocks-override: 100\n",
        "cpu-offload-gb: 40\n",
        "decode-context-parallel-size: 2\n",
    ],
)
def test_settings_that_move_memory_silence_the_budget(setting: str) -> None:
    """Blocks sized by hand, weights offloaded to the CPU, tokens sharded across GPUs: the
    arithmetic above does not hold, so nothing is said."""
    assert run("VC680", L70)
    assert not run("VC680", L70 + setting, count=8)
    assert not run("VC681", L70 + setting, count=8)


def test_expert_parallelism_spreads_the_experts_over_data_parallel_ranks(tmp_path: Path) -> None:
    """An MoE on 8 GPUs with `data-parallel-size: 8` and expert parallelism holds an eighth
    of the experts per GPU: divided by 8, not by TP * PP = 1."""
    folder = tmp_path / "moe"
    shutil.copytree(MODELS / "meta-llama" / "Llama-3.1-70B-Instruct", folder)
    config = json.loads((folder / "config.json").read_text())
    (folder / "config.json").write_text(json.dumps({**config, "num_local_experts": 8}))
    text = f"model: {folder}\ndata-parallel-size: 8\nmax-model-len: 8192\n"
    assert run("VC680", text, count=8)
    spread = budget(model_of(text + "enable-expert-parallel: true\n", count=8))
    assert spread is not None and spread.shards == 8
    assert not run("VC680", text + "enable-expert-parallel: true\n", count=8)
