"""The memory budget of a config on its target GPU: what the memory rules (VC680, VC681),
the inlay hint and the hover read.

Nothing is said without a target (`ConfigModel.target` with a GPU), without the served
model's config.json, or when the file asks for something whose memory is not followed here:
`kv-cache-memory-bytes` or `num-gpu-blocks-override` (the cache sized by hand), CPU
offloading of weights, context parallelism (its token sharding), `max-model-len: auto`/-1
(vLLM fits the length itself), a checkpoint that quantizes its own KV cache, a cache dtype
or architecture `memory_budget.kv_cache` does not transcribe. Whatever else the file adds
(a speculative draft, LoRA adapters, a float32 Mamba state) only takes more memory, so the
errors stay true.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from vllm_config_lsp.findings import Fix
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import (
    Given,
    add_option,
    field_value,
    given,
    given_field,
    is_int,
    replace,
)
from vllm_config_lsp.rules._platform import world_gpus
from vllm_config_lsp.rules.config.model.max_model_len_derived import served_limit
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.hardware import Gpu
from vllm_config_lsp.vllm.memory_budget import (
    DEFAULT_BLOCK_SIZE,
    Budget,
    KvCache,
    Weights,
    checkpoint_weights,
    default_batched_tokens,
    dtype_bytes,
    estimated_weights,
    kv_cache,
    summary,
)
from vllm_config_lsp.vllm.model_files import HfConfig, context

#: The flags the budget's line is shown on (hover, inlay hint).
BUDGET_FLAGS = ("max-model-len", "gpu-memory-utilization", "max-num-seqs")

#: The largest tensor-parallel size a fix proposes (a GPU count, not a head count).
MAX_TP = 512
#: What a quantization config names when the checkpoint's KV cache is quantized too:
#: `kv-cache-dtype: auto` then becomes its dtype (`resolve_kv_cache_dtype_string`,
#: vllm/utils/torch_utils.py:498), which is not followed here.
KV_QUANT_KEYS = ("kv_cache_scheme", "kv_cache_quant_algo")


@dataclass(frozen=True)
class Inputs:
    """What the budget is computed from, read once per lint (the weights from the files)."""

    config: HfConfig
    gpu: Gpu
    weights: Weights
    utilization: float
    tp: int
    pp: int
    #: Further ranks the experts are spread over (data parallel with expert parallelism).
    experts: int
    max_len: int
    #: `memory_budget.kv_cache`'s settings but the tensor-parallel size.
    cache: dict[str, Any]


_INPUTS: WeakKeyDictionary[ConfigModel, Inputs | None] = WeakKeyDictionary()


def _positive_int(model: ConfigModel, class_name: str, field_name: str, default: int) -> int:
    value = field_value(model, class_name, field_name)
    return value if is_int(value) and value >= 1 else default


def max_len(model: ConfigModel) -> int | None:
    """The `max-model-len` vLLM checks the cache against: the file's (when the model allows
    it: a longer one is VC604's refusal first), else the one derived from config.json."""
    config = served(model)
    if config is None:
        return None
    limit = served_limit(model, config)
    wanted = given_field(model, "ModelConfig", "max_model_len")
    if wanted is None:
        return limit.as_int if limit is not None else None
    if not is_int(wanted.value) or wanted.value < 1:
        return None  # `auto`/-1: vLLM fits the length to the memory itself
    return wanted.value if limit is None or wanted.value <= limit.value else None


def budget(model: ConfigModel, tp: int | None = None) -> Budget | None:
    """The budget of the busiest GPU, or with `tp` the one that tensor-parallel size would
    give."""
    if model not in _INPUTS:
        _INPUTS[model] = inputs(model)
    found = _INPUTS[model]
    if found is None:
        return None
    size = tp or found.tp
    kv = kv_cache(found.config, tp=size, pp=found.pp, **found.cache)
    if kv is None:
        return None
    memory = found.gpu.memory_bytes
    shards = size * found.pp * found.experts
    return Budget(memory, found.utilization, found.weights, shards, kv, found.max_len)


def _kv_quantized(config: HfConfig) -> bool:
    settings = config.quantization_config or {}
    nested = settings.get("quantization")
    return any(key in where for where in (settings, nested or {}) for key in KV_QUANT_KEYS)


def loaded_weights(config: HfConfig, found: Weights | None) -> Weights | None:
    """What vLLM loads of the checkpoint's tensors: a DeepSeek-style checkpoint also holds
    its multi-token-prediction layers (`num_nextn_predict_layers`), which a plain start
    skips; counted as decoder layers, L / (L + n) of the total stays below what loads."""
    extra, layers = config.get("num_nextn_predict_layers"), config.num_layers
    if found is None or not is_int(extra) or extra <= 0 or not layers:
        return found
    total = found.total * layers // (layers + extra)
    plural = "s" if extra > 1 else ""
    return Weights(total, f"{found.source}, less {extra} MTP layer{plural}", found.exact)


#: Settings that size the cache by hand, move weights off the GPU or shard tokens across
#: GPUs: with any of them set (to something but its default), the budget says nothing.
NOT_FOLLOWED = (
    ("CacheConfig", "kv_cache_memory_bytes"),
    ("CacheConfig", "num_gpu_blocks_override"),
    ("UVAOffloadConfig", "cpu_offload_gb"),
    ("OffloadConfig", "offload_backend"),
    ("PrefetchOffloadConfig", "offload_group_size"),
)
CONTEXT_PARALLEL = ("decode_context_parallel_size", "prefill_context_parallel_size")


def _followed(model: ConfigModel) -> bool:
    for class_name, field_name in NOT_FOLLOWED:
        found = given_field(model, class_name, field_name)
        if found is not None and found.value not in (None, 0, "auto"):
            return False
    return all(_positive_int(model, "ParallelConfig", name, 1) == 1 for name in CONTEXT_PARALLEL)


def _expert_shards(model: ConfigModel, config: HfConfig) -> int:
    """Expert parallelism spreads an MoE's experts over the data-parallel ranks too
    (`enable-expert-parallel`): each GPU then holds less than 1/(TP * PP) of the weights,
    and dividing by DP as well stays below it (the dense layers are not spread)."""
    if not config.num_experts:
        return 1
    if field_value(model, "ParallelConfig", "enable_expert_parallel") is not True:
        return 1
    return _positive_int(model, "ParallelConfig", "data_parallel_size", 1)


def inputs(model: ConfigModel) -> Inputs | None:
    target, config = model.target, served(model)
    gpu = target.gpu if target is not None else None
    folder = context(model).target.folder
    length = max_len(model)
    if gpu is None or config is None or folder is None or length is None:
        return None
    if not _followed(model):
        return None
    utilization = field_value(model, "CacheConfig", "gpu_memory_utilization")
    element = dtype_bytes(field_value(model, "ModelConfig", "dtype"), config.dtype)
    if not isinstance(utilization, (int, float)) or not 0 < utilization <= 1 or element is None:
        return None
    cache_dtype = field_value(model, "CacheConfig", "cache_dtype")
    cache_dtype = cache_dtype if isinstance(cache_dtype, str) else "auto"
    if cache_dtype == "auto" and _kv_quantized(config):
        return None
    pp = _positive_int(model, "ParallelConfig", "pipeline_parallel_size", 1)
    batched = _positive_int(
        model,
        "SchedulerConfig",
        "max_num_batched_tokens",
        default_batched_tokens(gpu.memory_bytes, gpu.name),
    )
    cache = {
        "kv_cache_dtype": cache_dtype,
        "element": element,
        "block_size": _positive_int(model, "CacheConfig", "block_size", DEFAULT_BLOCK_SIZE),
        # at least one batch per pipeline stage is in flight (async scheduling adds one)
        "in_flight_tokens": batched * pp,
        "disable_sliding_window": field_value(model, "ModelConfig", "disable_sliding_window")
        is True,
        "hybrid_manager": field_value(model, "SchedulerConfig", "disable_hybrid_kv_cache_manager")
        is not True,
        "prefix_caching": field_value(model, "CacheConfig", "enable_prefix_caching") is not False,
    }
    quantization = field_value(model, "ModelConfig", "quantization")
    weights = None
    if quantization in (None, config.quant_method):
        weights = loaded_weights(config, checkpoint_weights(folder))
    weights = weights or estimated_weights(config, element, quantization)
    if weights is None:
        return None
    tp = _positive_int(model, "ParallelConfig", "tensor_parallel_size", 1)
    experts = _expert_shards(model, config)
    return Inputs(config, gpu, weights, float(utilization), tp, pp, experts, length, cache)


def at_best(found: Budget) -> Budget:
    """The budget an error may judge by: estimated weights count as none."""
    if found.weights.exact:
        return found
    return dataclasses.replace(found, weights=dataclasses.replace(found.weights, total=0))


def fitting_tp(model: ConfigModel) -> int | None:
    """The smallest tensor-parallel size above the file's that divides the attention heads,
    stays within the GPUs the world may take (the node's, or its group's: `world_gpus`),
    and leaves room for one request of `max-model-len`."""
    found, target, gpus = _INPUTS.get(model), model.target, world_gpus(model)
    heads = found.config.num_attention_heads if found is not None else None
    if found is None or not heads or target is None:
        return None
    most = gpus // found.pp if gpus else MAX_TP
    for size in range(found.tp + 1, min(heads, most, MAX_TP) + 1):
        if heads % size:
            continue
        other = budget(model, size)
        if other is not None and at_best(other).fits:
            return size
    return None


@dataclass(frozen=True)
class Judged:
    """A budget a rule judges, where its finding lands and the GPU it is for."""

    budget: Budget
    where: Given
    gpu: Gpu
    #: Where the target was read (`Target.origin`).
    origin: str


def judged(model: ConfigModel) -> Judged | None:
    found, anchor, target = budget(model), where(model), model.target
    if found is None or anchor is None or target is None or target.gpu is None:
        return None
    return Judged(found, anchor, target.gpu, target.origin)


def weights_judged(model: ConfigModel) -> Judged | None:
    """The budget of the busiest GPU with an empty KV cache, where the cache's shape is not
    followed (`kv_cache` gives None: e.g. DeepSeek-V4's compressed attention) but the
    weights are the checkpoint's own: enough to judge weights that leave no memory at all
    (VC680), and nothing the cache decides. With the cache followed, `judged`."""
    if budget(model) is not None:
        return None
    found, anchor, target = _INPUTS.get(model), where(model), model.target
    if found is None or not found.weights.exact or anchor is None or target is None:
        return None
    if target.gpu is None:
        return None
    empty = KvCache((), DEFAULT_BLOCK_SIZE, 0)
    shards = found.tp * found.pp * found.experts
    spent = Budget(
        found.gpu.memory_bytes, found.utilization, found.weights, shards, empty, found.max_len
    )
    return Judged(spent, anchor, target.gpu, target.origin)


def where(model: ConfigModel) -> Given | None:
    """Where a finding about the budget lands: `max-model-len`, else
    `gpu-memory-utilization`, else the model."""
    for class_name, field_name in (
        ("ModelConfig", "max_model_len"),
        ("CacheConfig", "gpu_memory_utilization"),
        ("ModelConfig", "model"),
    ):
        found = given_field(model, class_name, field_name)
        if found is not None:
            return found
    return None


def memory_summary(model: ConfigModel) -> str | None:
    """The budget in one line for a config that fits (hover, inlay hint)."""
    found = budget(model)
    if found is None or not at_best(found).fits:
        return None
    return summary(found)


def set_or_add(
    model: ConfigModel, class_name: str, field_name: str, flag: str, value: object
) -> Fix | None:
    """Change the field where the file sets it, else add the flag (below `model:` in a
    `--config` file, after the command line's last word on a host)."""
    found = given_field(model, class_name, field_name)
    if found is not None:
        return replace(model, found, value, f"Set {found.label} to {value}")
    return add_option(model, given(model, "model"), flag, str(value))


def fixes(model: ConfigModel, found: Budget, longest: int = 0) -> list[Fix | None]:
    """What makes one request of `max-model-len` fit: `longest` as the length (when not
    0), the smallest utilization that fits, the smallest tensor-parallel size that does."""
    tp = fitting_tp(model)
    utilization = at_best(found).utilization_fitting()
    wanted: list[tuple[str, str, str, object]] = []
    if longest > 0:
        wanted.append(("ModelConfig", "max_model_len", "max-model-len", longest))
    if utilization is not None:
        wanted.append(
            ("CacheConfig", "gpu_memory_utilization", "gpu-memory-utilization", utilization)
        )
    if tp is not None:
        wanted.append(("ParallelConfig", "tensor_parallel_size", "tensor-parallel-size", tp))
    return [set_or_add(model, *fix) for fix in wanted]
