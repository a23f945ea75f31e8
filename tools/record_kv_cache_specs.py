"""Record vLLM's own KV-cache specs for tiny models of each attention family, as test data
for the memory budget (server/vllm_config_lsp/vllm/memory_budget.py).

The budget's KV bytes per token must be what vLLM allocates, not a textbook formula. This
tool asks vLLM itself: for each tiny config.json below it builds the `VllmConfig` the way
`vllm serve` does (`EngineArgs.create_engine_config`), instantiates the model on the meta
device (no weights, no memory), and calls `get_kv_cache_spec` on every layer that has a KV
cache (vllm/model_executor/layers/attention/attention.py, the Mamba layers' own), then
`max_memory_usage_bytes` on each spec (vllm/v1/kv_cache_interface.py) — the numbers
`check_enough_kv_cache_memory` (vllm/v1/core/kv_cache_planning.py:160) adds up. KV heads
under tensor parallelism come from `ModelConfig.get_num_kv_heads` for several sizes (one
process cannot build a TP>1 model). For each model it also records vLLM's refusal when the
memory holds two thirds of one request (its words, its estimated length, the null block),
and it writes two safetensors shards with the safetensors library for the weights' header
reader. It imports vLLM, so it runs only in the oracle's venv:

    VLLM_TARGET_DEVICE=cpu /work/oracle/venv/bin/python tools/record_kv_cache_specs.py

and writes tests/vllm/data/kv_cache_specs-<version>.json and tests/vllm/data/safetensors/,
which tests/vllm/test_memory_budget.py compares with the budget (the runtime never imports
vLLM).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "tests" / "vllm" / "data"
#: tensor-parallel sizes whose KV heads per GPU are recorded.
TP_SIZES = (1, 2, 4, 8, 16)
#: Context lengths each model is built with (one under the sliding windows' reach, one past).
MAX_MODEL_LENS = (1000, 5000)
#: Cache dtypes recorded per build. The CPU backend refuses fp8, so its specs are the built
#: ones with vLLM's own dtype for the name (`STR_DTYPE_TO_TORCH_DTYPE`) and quant mode, as
#: the layers' `get_kv_cache_spec` would make them on a GPU.
KV_CACHE_DTYPES = ("auto", "fp8")

_COMMON = {"rms_norm_eps": 1e-6, "vocab_size": 1024, "torch_dtype": "bfloat16"}

#: One tiny checkpoint per family of KV-cache layer kinds.
FAMILIES: dict[str, dict[str, Any]] = {
    "llama (full attention, GQA)": {
        "architectures": ["LlamaForCausalLM"],
        "model_type": "llama",
        "hidden_size": 256,
        "intermediate_size": 512,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "num_hidden_layers": 3,
        "max_position_embeddings": 8192,
        "hidden_act": "silu",
    },
    "qwen2 (GQA, sliding window switched off)": {
        "architectures": ["Qwen2ForCausalLM"],
        "model_type": "qwen2",
        "hidden_size": 192,
        "intermediate_size": 384,
        "num_attention_heads": 6,
        "num_key_value_heads": 2,
        "num_hidden_layers": 2,
        "max_position_embeddings": 8192,
        "sliding_window": 1024,
        "use_sliding_window": False,
        "max_window_layers": 2,
        "hidden_act": "silu",
    },
    "mistral (sliding window on every layer)": {
        "architectures": ["MistralForCausalLM"],
        "model_type": "mistral",
        "hidden_size": 256,
        "intermediate_size": 512,
        "num_attention_heads": 8,
        "num_key_value_heads": 4,
        "num_hidden_layers": 2,
        "head_dim": 64,
        "max_position_embeddings": 8192,
        "sliding_window": 512,
        "hidden_act": "silu",
    },
    "gemma3 (sliding/full layer pattern)": {
        "architectures": ["Gemma3ForCausalLM"],
        "model_type": "gemma3_text",
        "hidden_size": 256,
        "intermediate_size": 512,
        "num_attention_heads": 4,
        "num_key_value_heads": 1,
        "head_dim": 128,
        "num_hidden_layers": 4,
        "max_position_embeddings": 8192,
        "sliding_window": 256,
        "layer_types": [
            "sliding_attention",
            "sliding_attention",
            "sliding_attention",
            "full_attention",
        ],
        "query_pre_attn_scalar": 128,
        "hidden_activation": "gelu_pytorch_tanh",
    },
    "deepseek_v2 (MLA)": {
        "architectures": ["DeepseekV2ForCausalLM"],
        "model_type": "deepseek_v2",
        "hidden_size": 256,
        "intermediate_size": 512,
        "moe_intermediate_size": 128,
        "num_attention_heads": 4,
        "num_key_value_heads": 4,
        "num_hidden_layers": 2,
        "first_k_dense_replace": 2,
        "n_routed_experts": 4,
        "num_experts_per_tok": 2,
        "kv_lora_rank": 64,
        "q_lora_rank": None,
        "qk_rope_head_dim": 16,
        "qk_nope_head_dim": 32,
        "v_head_dim": 32,
        "max_position_embeddings": 8192,
        "hidden_act": "silu",
    },
    "jamba (hybrid: attention + Mamba state)": {
        "architectures": ["JambaForCausalLM"],
        "model_type": "jamba",
        "hidden_size": 256,
        "intermediate_size": 512,
        "num_attention_heads": 8,
        "num_key_value_heads": 2,
        "num_hidden_layers": 4,
        "attn_layer_period": 4,
        "attn_layer_offset": 3,
        "expert_layer_period": 8,
        "expert_layer_offset": 7,
        "num_experts": 1,
        "mamba_d_state": 16,
        "mamba_d_conv": 4,
        "mamba_expand": 2,
        "mamba_dt_rank": 16,
        "max_position_embeddings": 8192,
        "hidden_act": "silu",
    },
    "qwen3_next (hybrid: Gated DeltaNet state + attention)": {
        "architectures": ["Qwen3NextForCausalLM"],
        "model_type": "qwen3_next",
        "hidden_size": 256,
        "intermediate_size": 512,
        "num_attention_heads": 4,
        "num_key_value_heads": 2,
        "head_dim": 64,
        "num_hidden_layers": 4,
        "full_attention_interval": 4,
        "layer_types": ["linear_attention"] * 3 + ["full_attention"],
        "linear_conv_kernel_dim": 4,
        "linear_key_head_dim": 32,
        "linear_value_head_dim": 32,
        "linear_num_key_heads": 4,
        "linear_num_value_heads": 8,
        "num_experts": 4,
        "num_experts_per_tok": 2,
        "moe_intermediate_size": 128,
        "shared_expert_intermediate_size": 128,
        "decoder_sparse_step": 1,
        "mlp_only_layers": [],
        "norm_topk_prob": True,
        "partial_rotary_factor": 0.25,
        "max_position_embeddings": 8192,
        "hidden_act": "silu",
    },
}


def _spec_row(name: str, spec: Any, vllm_config: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "layer": name,
        "spec": type(spec).__name__,
        "block_size": spec.block_size,
        "page_size_bytes": spec.page_size_bytes,
        "max_memory_usage_bytes": spec.max_memory_usage_bytes(vllm_config),
    }
    for attribute in ("num_kv_heads", "head_size", "head_size_v", "sliding_window"):
        value = getattr(spec, attribute, None)
        if value is not None:
            row[attribute] = value
    return row


def _with_cache_dtype(spec: Any, kv_cache_dtype: str) -> Any:
    """The spec an attention layer makes for `kv_cache_dtype` (a Mamba state keeps its own
    dtypes: `mamba-cache-dtype`, not `kv-cache-dtype`, sets them)."""
    from dataclasses import replace

    from vllm.utils.torch_utils import STR_DTYPE_TO_TORCH_DTYPE
    from vllm.v1.kv_cache_interface import AttentionSpec, MLAAttentionSpec, get_kv_quant_mode

    if kv_cache_dtype == "auto" or not isinstance(spec, AttentionSpec):
        return spec
    changes: dict[str, Any] = {
        "dtype": STR_DTYPE_TO_TORCH_DTYPE[kv_cache_dtype],
        "kv_quant_mode": get_kv_quant_mode(kv_cache_dtype),
    }
    if isinstance(spec, MLAAttentionSpec):
        changes["cache_dtype_str"] = kv_cache_dtype
    return replace(spec, **changes)


def record_refusal(vllm_config: Any, specs: list[tuple[str, Any]]) -> dict[str, Any]:
    """vLLM's own refusal for a memory that holds two thirds of one request: the message of
    `check_enough_kv_cache_memory` (kv_cache_planning.py:151) with its estimated length,
    and the null block it takes off first. Attention layers at the primary block size, as a
    GPU backend runs them (the CPU one picks its own for sliding windows)."""
    from vllm.v1.core.kv_cache_planning import (
        _pool_bytes_per_block,
        check_enough_kv_cache_memory,
        get_kv_cache_groups,
        max_memory_usage_bytes,
    )
    from vllm.v1.kv_cache_interface import AttentionSpec

    # the engine core resolves the layout from the workers' backends; dense pages (the CUDA
    # backends' LBNHC, "NHD") are the same size in every layout
    setattr(vllm_config.cache_config, LAYOUT_FIELD, "LBNHC")
    block = vllm_config.cache_config.block_size
    primary = {
        name: spec.copy_with_new_block_size(block) if isinstance(spec, AttentionSpec) else spec
        for name, spec in specs
    }
    needed = max_memory_usage_bytes(vllm_config, primary.values())
    available = needed * 2 // 3
    pool = _pool_bytes_per_block(vllm_config, get_kv_cache_groups(vllm_config, dict(primary)))
    try:
        check_enough_kv_cache_memory(vllm_config, primary, available)
    except ValueError as refusal:
        message = str(refusal)
    else:
        message = ""
    return {
        "block_size": block,
        "needed": needed,
        "available": available,
        "null_block_bytes": pool,
        "message": message,
    }


def record_case(config: dict[str, Any], max_model_len: int, folder: Path) -> list[dict[str, Any]]:
    import torch
    from vllm.config import set_current_vllm_config
    from vllm.engine.arg_utils import EngineArgs
    from vllm.model_executor.model_loader.utils import get_model_architecture

    (folder / "config.json").write_text(json.dumps({**_COMMON, **config}))
    args = EngineArgs(model=str(folder), skip_tokenizer_init=True, max_model_len=max_model_len)
    vllm_config = args.create_engine_config()
    with set_current_vllm_config(vllm_config):
        model_class, _ = get_model_architecture(vllm_config.model_config)
        with torch.device("meta"):
            model_class(vllm_config=vllm_config, prefix="")
    specs = []
    for name, layer in vllm_config.compilation_config.static_forward_context.items():
        spec = layer.get_kv_cache_spec(vllm_config) if hasattr(layer, "get_kv_cache_spec") else None
        if spec is not None:
            specs.append((name, spec))
    # `get_num_kv_heads` reads nothing of the parallel config but its TP size
    kv_heads = {
        str(tp): vllm_config.model_config.get_num_kv_heads(SimpleNamespace(tensor_parallel_size=tp))
        for tp in TP_SIZES
    }
    refusal = record_refusal(vllm_config, specs)
    cases = []
    for kv_cache_dtype in KV_CACHE_DTYPES:
        layers = [
            _spec_row(name, _with_cache_dtype(spec, kv_cache_dtype), vllm_config)
            for name, spec in specs
        ]
        cases.append(
            {
                "max_model_len": max_model_len,
                "kv_cache_dtype": kv_cache_dtype,
                "max_in_flight_tokens": vllm_config.max_in_flight_tokens,
                "mamba_cache_mode": vllm_config.cache_config.mamba_cache_mode,
                "dtype": str(vllm_config.model_config.dtype).removeprefix("torch."),
                "layers": layers,
                "kv_heads_per_gpu": kv_heads,
                "total_max_memory_usage_bytes": sum(r["max_memory_usage_bytes"] for r in layers),
                **({"refusal": refusal} if kv_cache_dtype == "auto" else {}),
            }
        )
    return cases


#: `CacheConfig`'s resolved layout, which "tests and standalone tools may pre-set"
#: (vllm/config/cache.py:192).
LAYOUT_FIELD = "kv_cache_layout"
#: Shards the safetensors library writes for the weights test: name → tensors (dtype, shape).
SHARDS = {
    "model-00001-of-00002.safetensors": {
        "embed.weight": ("bfloat16", (64, 32)),
        "norm.weight": ("float32", (10,)),
        "scale": ("float16", ()),
    },
    "model-00002-of-00002.safetensors": {
        "proj.weight": ("float8_e4m3fn", (128, 3)),
        "proj.zeros": ("int8", (7,)),
    },
}


def record_safetensors(folder: Path) -> dict[str, int]:
    """Shards written by the safetensors library itself (what `save_pretrained` uses), and
    the tensor bytes torch counts in each: what the weights' header reader must find."""
    import torch
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    counted = {}
    for name, tensors in SHARDS.items():
        made = {
            key: torch.zeros(shape, dtype=getattr(torch, dtype))
            for key, (dtype, shape) in tensors.items()
        }
        save_file(made, str(folder / name), metadata={"format": "pt"})
        counted[name] = sum(t.numel() * t.element_size() for t in made.values())
    return counted


def main() -> int:
    os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import vllm
    from vllm.config import VllmConfig, set_current_vllm_config
    from vllm.distributed import init_distributed_environment, initialize_model_parallel

    with set_current_vllm_config(VllmConfig()):
        init_distributed_environment(
            world_size=1,
            rank=0,
            local_rank=0,
            distributed_init_method="tcp://127.0.0.1:29533",
            backend="gloo",
        )
        initialize_model_parallel(1, 1)
    families: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as temp:
        for index, (family, config) in enumerate(FAMILIES.items()):
            cases: list[dict[str, Any]] = []
            for number, max_model_len in enumerate(MAX_MODEL_LENS):
                folder = Path(temp) / f"m{index}-{number}"
                folder.mkdir()
                try:
                    cases += record_case(config, max_model_len, folder)
                except Exception as exc:  # a family vLLM cannot build on CPU is reported
                    error = f"{type(exc).__name__}: {exc}"
                    cases.append({"max_model_len": max_model_len, "error": error})
            families[family] = {"config": {**_COMMON, **config}, "cases": cases}
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    out = OUT_DIR / f"kv_cache_specs-{vllm.__version__}.json"
    shards = record_safetensors(OUT_DIR / "safetensors")
    recorded = {"vllm": vllm.__version__, "families": families, "safetensors": shards}
    out.write_text(json.dumps(recorded, indent=1) + "\n")
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
