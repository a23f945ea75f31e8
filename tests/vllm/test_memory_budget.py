"""The memory budget's arithmetic against vLLM's own numbers.

KV cache: tests/vllm/data/kv_cache_specs-0.33.0.json holds, for a tiny model of each
attention family, the KV-cache spec every layer of the real vLLM 0.33.0 makes and its
`max_memory_usage_bytes` (recorded by tools/record_kv_cache_specs.py in the CPU oracle);
the budget's formula must give the same bytes, layer by layer, and vLLM's refusal (its
words, its estimated length) for a memory that holds two thirds of one request. Weights:
shards the safetensors library wrote (tests/vllm/data/safetensors/, same tool) and tiny
files written here (header JSON + zero bytes, as the format is specified), read back. The
budget itself: cases computed by hand.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from support import REPO
from vllm_config_lsp.vllm.memory_budget import (
    GIB,
    Budget,
    CacheLayer,
    KvCache,
    Weights,
    checkpoint_weights,
    kv_cache,
    pp_layers,
    refusal,
    safetensors_bytes,
    summary,
)
from vllm_config_lsp.vllm.model_files import HfConfig, ModelFolder

RECORDED = json.loads((REPO / "tests" / "vllm" / "data" / "kv_cache_specs-0.33.0.json").read_text())
SPEC_KINDS = {
    "FullAttentionSpec": "full",
    "SlidingWindowSpec": "sliding",
    "MLAAttentionSpec": "mla",
    "MambaSpec": "mamba",
}
CASES = [
    pytest.param(
        family, case, id=f"{family.split()[0]}-{case['max_model_len']}-{case['kv_cache_dtype']}"
    )
    for family, entry in RECORDED["families"].items()
    for case in entry["cases"]
]


def hf_config(raw: dict[str, Any], folder: Path = Path("/nonexistent")) -> HfConfig:
    return HfConfig(raw, ModelFolder("test/model", folder, "local folder"), "0.33.0")


def test_every_family_was_recorded() -> None:
    """The oracle built every family (a family it cannot build would prove nothing)."""
    assert len(RECORDED["families"]) == 7
    assert all("error" not in case for _, case in (p.values for p in CASES))


@pytest.mark.parametrize(("family", "case"), CASES)
def test_kv_bytes_per_layer_match_vllm(family: str, case: dict[str, Any]) -> None:
    config = hf_config(RECORDED["families"][family]["config"])
    ours = kv_cache(
        config,
        tp=1,
        pp=1,
        kv_cache_dtype=case["kv_cache_dtype"],
        element=2,
        block_size=16,
        in_flight_tokens=case["max_in_flight_tokens"],
        prefix_caching=case["mamba_cache_mode"] == "align",
    )
    assert ours is not None
    assert len(ours.layers) == len(case["layers"])
    for layer, row in zip(ours.layers, case["layers"], strict=True):
        assert layer.kind == SPEC_KINDS[row["spec"]], row["layer"]
        # the CPU backend picks its own block size for sliding layers: size with vLLM's
        block = KvCache((layer,), row["block_size"], ours.in_flight_tokens, ours.mamba_states)
        if layer.kind != "mamba":
            assert layer.state_bytes * row["block_size"] == row["page_size_bytes"]
        assert block.request_bytes(case["max_model_len"]) == row["max_memory_usage_bytes"]


@pytest.mark.parametrize(("family", "case"), CASES[::2])
@pytest.mark.parametrize("tp", [1, 2, 4, 8, 16])
def test_kv_heads_per_gpu_match_vllm(family: str, case: dict[str, Any], tp: int) -> None:
    """`max(1, heads // tp)`: split by TP, replicated past the KV head count; MLA's one latent
    is never split."""
    config = hf_config(RECORDED["families"][family]["config"])
    single = kv_cache(
        config, tp=1, pp=1, kv_cache_dtype="auto", element=2, block_size=16, in_flight_tokens=1
    )
    split = kv_cache(
        config, tp=tp, pp=1, kv_cache_dtype="auto", element=2, block_size=16, in_flight_tokens=1
    )
    assert single is not None and split is not None
    attention = [
        (a, b) for a, b in zip(single.layers, split.layers, strict=True) if a.kind != "mamba"
    ]
    heads = case["kv_heads_per_gpu"]
    for one, many in attention:
        assert one.state_bytes * heads[str(tp)] == many.state_bytes * heads["1"]


def test_pipeline_stages_take_the_remainder_before_the_last() -> None:
    """`get_pp_indices`: 10 layers over 4 stages are 2, 3, 3, 2; the busiest has 3."""
    assert len(pp_layers(10, 4)) == 3
    assert pp_layers(10, 4) == range(2, 5)
    assert pp_layers(8, 1) == range(0, 8)


def test_unfollowed_layouts_give_no_numbers() -> None:
    raw = RECORDED["families"]["llama (full attention, GQA)"]["config"]
    args: dict[str, Any] = {"tp": 1, "pp": 1, "element": 2, "block_size": 16, "in_flight_tokens": 1}
    assert kv_cache(hf_config(raw), kv_cache_dtype="fp8_per_token_head", **args) is None
    windowed = {**raw, "model_type": "qwen3", "sliding_window": 4096, "use_sliding_window": True}
    assert kv_cache(hf_config(windowed), kv_cache_dtype="auto", **args) is None


def write_safetensors(path: Path, tensors: dict[str, tuple[str, list[int]]]) -> int:
    """A valid safetensors file (header, then the tensors' bytes, zeros); its tensor bytes."""
    sizes = {"BF16": 2, "F32": 4, "I8": 1, "F8_E4M3": 1}
    header: dict[str, Any] = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, (dtype, shape) in tensors.items():
        count = sizes[dtype]
        for dim in shape:
            count *= dim
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + count]}
        offset += count
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + bytes(offset))
    return offset


def test_weights_from_safetensors_headers(tmp_path: Path) -> None:
    first = write_safetensors(
        tmp_path / "model-00001-of-00002.safetensors", {"a": ("BF16", [64, 32]), "b": ("F32", [10])}
    )
    second = write_safetensors(
        tmp_path / "model-00002-of-00002.safetensors", {"c": ("F8_E4M3", [128, 3])}
    )
    write_safetensors(tmp_path / "consolidated.safetensors", {"a": ("BF16", [999])})
    assert (first, second) == (64 * 32 * 2 + 40, 384)
    weights = checkpoint_weights(ModelFolder("m", tmp_path, "local folder"))
    assert weights == Weights(first + second, "2 safetensors headers", True)
    assert safetensors_bytes(tmp_path / "model-00002-of-00002.safetensors") == 384


def test_weights_from_shards_the_safetensors_library_wrote() -> None:
    """Shards `safetensors.torch.save_file` wrote (bf16, f32, a 0-d f16, fp8, int8), and the
    bytes torch counted in their tensors."""
    folder = REPO / "tests" / "vllm" / "data" / "safetensors"
    counted = RECORDED["safetensors"]
    for name, count in counted.items():
        assert safetensors_bytes(folder / name) == count
    weights = checkpoint_weights(ModelFolder("m", folder, "local folder"))
    assert weights is not None and weights.total == sum(counted.values())


def test_weights_from_the_index_first(tmp_path: Path) -> None:
    write_safetensors(tmp_path / "model.safetensors", {"a": ("BF16", [8])})
    (tmp_path / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {"total_size": 123456}, "weight_map": {}})
    )
    weights = checkpoint_weights(ModelFolder("m", tmp_path, "local folder"))
    assert weights is not None and (weights.total, weights.exact) == (123456, True)


def test_a_truncated_or_foreign_file_is_no_weights(tmp_path: Path) -> None:
    write_safetensors(tmp_path / "model.safetensors", {"a": ("BF16", [8])})
    (tmp_path / "model.safetensors").write_bytes((tmp_path / "model.safetensors").read_bytes()[:20])
    assert checkpoint_weights(ModelFolder("m", tmp_path, "local folder")) is None
    (tmp_path / "model.safetensors").write_bytes(struct.pack("<Q", 1 << 62))
    assert safetensors_bytes(tmp_path / "model.safetensors") is None


def test_a_header_that_is_not_a_safetensors_header_is_refused_before_parsing(
    tmp_path: Path,
) -> None:
    """Nested arrays (`{"__metadata__": [[],[],…]}`, issue 30) never occur in a real header:
    the file is no weights, whatever its length; a metadata list is no header either."""
    path = tmp_path / "model.safetensors"
    for body in (b'{"__metadata__": [' + b"[]," * 100_000 + b"[]]}", b'{"__metadata__": [1]}'):
        path.write_bytes(struct.pack("<Q", len(body)) + body)
        assert safetensors_bytes(path) is None


def test_a_header_is_read_again_when_the_file_changes(tmp_path: Path) -> None:
    """Headers are remembered per version of the file: a shard rewritten is read anew."""
    path = tmp_path / "model.safetensors"
    assert safetensors_bytes(path) is None
    write_safetensors(path, {"a": ("BF16", [8])})
    assert safetensors_bytes(path) == 16
    write_safetensors(path, {"a": ("BF16", [8, 8])})
    assert safetensors_bytes(path) == 128


def llama_budget(memory_gib: int, utilization: float, max_len: int, weights_gib: float) -> Budget:
    """An 8B-Llama-shaped GPU: 32 layers of 8 KV heads * 128 in bf16 = 128 KiB per token."""
    layer = CacheLayer("full", 8 * 2 * 128 * 2)
    kv = KvCache((layer,) * 32, 16, 2048)
    return Budget(
        memory_gib * GIB, utilization, Weights(int(weights_gib * GIB), "test", True), 1, kv, max_len
    )


def test_budget_by_hand() -> None:
    """24 GiB at 0.9: 21.6 GiB requested (23,192,823,399 bytes, rounded up), 15 GiB of
    weights, one 16-token null block (2 MiB) off: 7,084,598,887 bytes for the cache.
    131,072 tokens * 128 KiB = 16 GiB: refused; 7,084,598,887 / 2 MiB per 16-token block
    = 3,378 whole blocks, 54,048 tokens fit."""
    budget = llama_budget(24, 0.9, 131072, 15)
    assert budget.kv.token_bytes == 128 * 1024
    assert budget.requested == 23_192_823_399
    assert budget.available == 23_192_823_399 - 15 * GIB - 16 * 128 * 1024
    assert budget.needed == 16 * GIB
    assert not budget.fits
    assert budget.longest_fitting() == 54048
    assert budget.utilization_fitting() is None  # 31 GiB > 0.99 * 24 GiB
    fitting = llama_budget(24, 0.9, 32768, 15)
    assert fitting.fits and fitting.needed == 4 * GIB
    assert fitting.tokens() == 54048
    assert summary(fitting).startswith(
        "weights 15.0 GiB/GPU · KV 128 KiB/token · ≈ 54k tokens of KV cache · 1.6 concurrent"
    )


def test_utilization_that_fits_by_hand() -> None:
    """80 GiB, 60 GiB of weights, 16 GiB for 131,072 tokens (+ 2 MiB null block): 76.002
    GiB of 80 is 0.95003, so 0.96 is the first hundredth that fits."""
    budget = llama_budget(80, 0.9, 131072, 60)
    assert not budget.fits
    assert budget.utilization_fitting() == 0.96
    assert llama_budget(80, 0.96, 131072, 60).fits
    assert not llama_budget(80, 0.95, 131072, 60).fits


REFUSALS = [
    pytest.param(family, case, id=family.split()[0])
    for family, entry in RECORDED["families"].items()
    for case in entry["cases"]
    if "refusal" in case
]


@pytest.mark.parametrize(("family", "case"), REFUSALS)
def test_refusal_matches_vllms_words_and_estimate(family: str, case: dict[str, Any]) -> None:
    """vLLM refused two thirds of one request's memory with this message: the same request
    bytes, the same estimated length (its binary search, after the null block), the same
    text. The null block taken off is vLLM's when all layers keep the same kind of cache,
    none for a hybrid model (the lenient side: an estimate at least vLLM's)."""
    recorded = case["refusal"]
    config = hf_config(RECORDED["families"][family]["config"])
    ours = kv_cache(
        config,
        tp=1,
        pp=1,
        kv_cache_dtype="auto",
        element=2,
        block_size=recorded["block_size"],
        in_flight_tokens=case["max_in_flight_tokens"],
        prefix_caching=case["mamba_cache_mode"] == "align",
    )
    assert ours is not None
    length = case["max_model_len"]
    assert ours.request_bytes(length) == recorded["needed"]
    hybrid = len({layer.kind for layer in ours.layers}) > 1
    assert ours.block_bytes == (0 if hybrid else recorded["null_block_bytes"])
    left = recorded["available"] - recorded["null_block_bytes"]
    estimate = ours.longest_fitting(left, length)
    assert refusal(length, recorded["needed"], left, estimate) == recorded["message"]
    lenient = ours.longest_fitting(recorded["available"] - ours.block_bytes, length)
    assert lenient >= estimate


def test_a_registry_total_size_is_the_checkpoints_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the registry carries a sourced safetensors-index `total_size`, the budget uses
    it as exact weights (so VC680 may be an error), as it does a local index; without it the
    weights are an estimate from config.json and never an error. The config is the
    registry's own Qwen/Qwen3-8B entry; the total_size is a test value (no public index copy
    of that model is cited yet)."""
    from vllm_config_lsp.engine import lint
    from vllm_config_lsp.vllm import model_files
    from vllm_config_lsp.vllm.hardware import Stated

    registry = model_files.model_registry()
    entry = registry["Qwen/Qwen3-8B"]
    cite = {"repository": "example/fixture", "path": "model.safetensors.index.json"}
    sized = {**entry, "total_size": 30 * GIB, "total_size_source": {**cite, "commit": "0" * 40}}
    monkeypatch.setattr(model_files, "model_registry", lambda: {**registry, "x/sized": sized})
    folder = model_files.registry_folder("x/sized")
    assert folder is not None
    weights = checkpoint_weights(folder)
    assert weights is not None and (weights.total, weights.exact) == (30 * GIB, True)
    target = Stated("L4", 1, "--gpu")
    sized_codes = [f.code for f in lint("model: x/sized\n", gpus=target).findings]
    plain_codes = [f.code for f in lint("model: Qwen/Qwen3-8B\n", gpus=target).findings]
    assert "VC680" in sized_codes and "VC680" not in plain_codes
