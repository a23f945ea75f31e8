"""What a model needs of one GPU's memory: its weights and its KV cache, computed the way
vLLM 0.33.0 sizes them, from the checkpoint's files alone (no vLLM, no torch).

vLLM gives the KV cache what is left of `gpu-memory-utilization * total memory` once the
weights and the profiled activations are in (`request_memory`, vllm/v1/worker/utils.py:724;
`available_kv_cache_memory_bytes`, vllm/v1/worker/gpu_worker.py:753), and refuses to start
when one request of `max-model-len` tokens does not fit in it
(`_check_enough_kv_cache_memory`, vllm/v1/core/kv_cache_planning.py:50). What one request
takes is the sum of `max_memory_usage_bytes` over every layer's KV-cache spec
(vllm/v1/kv_cache_interface.py), which this module transcribes per layer kind:

- full attention (`FullAttentionSpec`, :633): `cdiv(max_len, block) * page`, a page being
  `block * num_kv_heads * (head_size + head_size_v) * dtype bytes`;
- MLA (`MLAAttentionSpec`, :723): one latent of `kv_lora_rank + qk_rope_head_dim` per token
  and one "head" whatever the tensor parallelism (`num_kv_heads=1, max_tp_shards=1`,
  vllm/model_executor/layers/attention/mla_attention.py:1377);
- sliding window (`SlidingWindowSpec`, :903): at most `window - 1 + in-flight tokens`
  (never past `max_len`) plus one block, the window not starting at a block boundary;
- Mamba-style state (`MambaSpec`, :1134; Mamba-1, Gated DeltaNet): one state per sequence,
  whatever its length (two in the `align` mode prefix caching uses).

KV heads per GPU are `max(1, heads // tp)` (`ModelConfig.get_num_kv_heads`,
vllm/config/model.py:1683): replicated when TP exceeds them. Layers per GPU follow
`get_pp_indices` (vllm/distributed/utils.py:198). tools/record_kv_cache_specs.py records
vLLM's own specs for tiny models of each family; tests compare them with this module.

Weights per GPU are the checkpoint's tensor bytes divided by TP * PP: a lower bound for the
busiest GPU (replicated norms, KV projections replicated past their head count, and the
first/last pipeline stage's embeddings only add to it), which is what an error may use.
"""

from __future__ import annotations

import json
import math
import re
import struct
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from vllm_config_lsp.sources.safe_read import read_bytes
from vllm_config_lsp.vllm.model_files import HfConfig, ModelFolder

GIB = 1 << 30
#: `CacheConfig.DEFAULT_BLOCK_SIZE` (vllm/config/cache.py:185); backends only raise it.
DEFAULT_BLOCK_SIZE = 16
#: Bytes per element of a KV-cache dtype whose page is dense K/V (`STR_DTYPE_TO_TORCH_DTYPE`,
#: vllm/utils/torch_utils.py:40). Packed layouts (per-token-head scales, NVFP4, TurboQuant,
#: …) size their pages in the backend and are not followed here.
CACHE_DTYPE_BYTES = {
    "bfloat16": 2,
    "float16": 2,
    "half": 2,
    "float32": 4,
    "float": 4,
    "fp8": 1,
    "fp8_e4m3": 1,
    "fp8_e5m2": 1,
    "fp8_inc": 1,
}
#: MLA layouts that pack one opaque blob per token (mla_attention.py:1387).
MLA_PACKED_BYTES = {"fp8_ds_mla": 656, "nvfp4_ds_mla": 352}
#: `--dtype` values and the bytes of the weights and of an `auto` KV cache.
MODEL_DTYPE_BYTES = {
    "bfloat16": 2,
    "float16": 2,
    "half": 2,
    "float32": 4,
    "float": 4,
}
#: Model types whose config.json without `layer_types` still slides on every layer
#: (transformers gives them no `layer_types`, so `CacheConfig.sliding_window` is the
#: model's: vllm/engine/arg_utils.py:2289).
ALL_SLIDING = frozenset({"mistral", "mixtral"})
#: Model types whose transformers config builds `layer_types` from a period: every
#: `period`-th layer is full attention, the others slide (Gemma2Config, Gemma3TextConfig).
#: Text-config keys that give the full-attention layers a head geometry of their own
#: (Gemma 4: `global_head_dim`, `num_global_key_value_heads`, `attention_k_eq_v`), which
#: `head_size`/`num_kv_heads` (one shape for every layer) do not describe.
PER_KIND_HEADS = ("global_head_dim", "num_global_key_value_heads", "attention_k_eq_v")
SLIDING_PERIOD = {"gemma2": ("", 2), "gemma3": ("sliding_window_pattern", 6)}
SLIDING_PERIOD["gemma3_text"] = SLIDING_PERIOD["gemma3"]
#: Model types whose `linear_attention` layers are Gated DeltaNet (a Mamba-style state).
GATED_DELTA_NET = frozenset({"qwen3_next"})
#: A safetensors header is JSON after its 8-byte length. Real ones are tens of KB (a
#: single-file MoE with 36,000 tensors is about 4 MB); past this bound the file is not read,
#: so a crafted header cannot cost more than a few hundred MB once.
SAFETENSORS_HEADER_BYTES = 16 * 1024 * 1024
#: Real headers hold only flat arrays (shapes, offsets); a nested one is not a header, and
#: refusing it before `json.loads` keeps a crafted `[[],[],…]` from costing 30 bytes per byte.
_NESTED_ARRAY = re.compile(rb"\[\s*[\[{]")
#: Headers remembered by (path, mtime, size): weights do not change between keystrokes.
SAFETENSORS_CACHE = 256
#: Shards read without an index (real checkpoints past a few files ship one).
MAX_SHARDS = 64
#: Layers followed (the deepest models have a few hundred); past it nothing is said.
MAX_LAYERS = 10_000


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


# --------------------------------------------------------------------------- KV cache


@dataclass(frozen=True)
class CacheLayer:
    """One layer's KV cache on one GPU."""

    #: "full", "mla", "sliding" or "mamba".
    kind: str
    #: Attention: bytes one token takes in this layer. Mamba: the state of one sequence.
    state_bytes: int
    window: int | None = None


@dataclass(frozen=True)
class KvCache:
    """The KV-cache layers of the busiest GPU and what sizes their pages."""

    layers: tuple[CacheLayer, ...]
    block_size: int
    #: `VllmConfig.max_in_flight_tokens` (vllm/config/vllm.py:601): what a sliding window
    #: holds besides the window while chunks are scheduled.
    in_flight_tokens: int
    #: States a Mamba layer keeps per sequence: 2 in the `align` mode (prefix caching), else 1.
    mamba_states: int = 1

    def layer_bytes(self, layer: CacheLayer, max_len: int) -> int:
        """`max_memory_usage_bytes` of the layer's spec for one request of `max_len`."""
        if layer.kind == "mamba":
            return layer.state_bytes * self.mamba_states
        page = self.block_size * layer.state_bytes
        if layer.kind == "sliding" and layer.window is not None:
            tokens = min(layer.window - 1 + self.in_flight_tokens, max_len)
            return (cdiv(tokens, self.block_size) + 1) * page
        return cdiv(max_len, self.block_size) * page

    def request_bytes(self, max_len: int) -> int:
        """What one request of `max_len` tokens needs (`max_memory_usage_bytes`)."""
        return sum(self.layer_bytes(layer, max_len) for layer in self.layers)

    @property
    def token_bytes(self) -> int:
        """KV bytes every further token adds on this GPU: the layers that keep them all."""
        return sum(layer.state_bytes for layer in self.layers if layer.kind in ("full", "mla"))

    @property
    def sequence_bytes(self) -> int:
        """What a sequence holds whatever its length: Mamba states."""
        return sum(self.layer_bytes(layer, 0) for layer in self.layers if layer.kind == "mamba")

    @property
    def block_bytes(self) -> int:
        """The null block `BlockPool` holds back, taken off the memory before the check
        (kv_cache_planning.py:1536) when every layer has the same kind of cache (one group:
        a block of every layer); a hybrid model's groups share pages in ways not followed
        here, so nothing is taken off then (the lenient side)."""
        kinds = {layer.kind for layer in self.layers}
        if len(kinds) != 1 or "mamba" in kinds:
            return 0
        return sum(self.block_size * layer.state_bytes for layer in self.layers)

    def longest_fitting(self, available: int, max_len: int) -> int:
        """`estimate_max_model_len` (kv_cache_planning.py:95): the binary search vLLM runs
        for the longest request that fits in `available`, 0 when not even one token does."""
        return longest(lambda length: self.request_bytes(length) <= available, max_len)


def longest(fits: Callable[[int], bool], high: int) -> int:
    """The largest n in 1..high with `fits(n)`, searched as vLLM searches (0: none)."""
    if high < 1 or not fits(1):
        return 0
    left, right, result = 1, high, 1
    while left <= right:
        middle = (left + right) // 2
        if fits(middle):
            result, left = middle, middle + 1
        else:
            right = middle - 1
    return result


def dtype_bytes(dtype: object, checkpoint_dtype: str | None) -> int | None:
    """Bytes per weight element for `--dtype` (`auto` keeps a 16-bit checkpoint's dtype and
    casts a float32 one to 16 bits: `_get_and_verify_dtype`, vllm/config/model.py)."""
    if dtype == "auto" or dtype is None:
        return 2 if checkpoint_dtype in (None, "float32", "bfloat16", "float16") else None
    return MODEL_DTYPE_BYTES.get(str(dtype))


def pp_layers(num_layers: int, pp: int) -> range:
    """The layers of the pipeline stage that holds the most (`get_pp_indices`: the
    remainder goes to the stages before the last)."""
    partitions = [num_layers // pp] * pp
    for index in range(2, num_layers % pp + 2):
        partitions[-index] += 1
    busiest = max(range(pp), key=lambda rank: partitions[rank])
    start = sum(partitions[:busiest])
    return range(start, start + partitions[busiest])


def layer_kinds(config: HfConfig, disable_sliding_window: bool) -> list[str] | None:
    """Each layer's attention kind ("full", "sliding", "mamba"), or None when config.json
    does not say it in a way followed here."""
    text, layers = config.text, config.num_layers
    if not layers or layers > MAX_LAYERS:
        return None
    if config.model_type == "jamba":
        period, offset = text.get("attn_layer_period"), text.get("attn_layer_offset")
        if not isinstance(period, int) or not isinstance(offset, int) or period < 1:
            return None
        return ["full" if i % period == offset else "mamba" for i in range(layers)]
    window = None if disable_sliding_window else config.sliding_window
    declared = text.get("layer_types")
    if declared is None and config.text_model_type in GATED_DELTA_NET:
        # Qwen3NextConfig.__post_init__ (transformers 5.20.2,
        # models/qwen3_next/configuration_qwen3_next.py:130-135): every
        # `full_attention_interval`-th layer (4 when unset) is full attention, the rest
        # linear attention, which holds no KV cache.
        interval = text.get("full_attention_interval", 4)
        if not isinstance(interval, int) or isinstance(interval, bool) or interval < 1:
            return None
        declared = [
            "linear_attention" if (i + 1) % interval else "full_attention" for i in range(layers)
        ]
    if isinstance(declared, list):
        kinds = {"full_attention": "full", "sliding_attention": "sliding" if window else "full"}
        if config.text_model_type in GATED_DELTA_NET:
            kinds["linear_attention"] = "mamba"
        if len(declared) != layers or any(kind not in kinds for kind in declared):
            return None
        return [kinds[kind] for kind in declared]
    if window is None:
        return ["full"] * layers
    if config.text_model_type in ALL_SLIDING:
        return ["sliding"] * layers
    if config.text_model_type in SLIDING_PERIOD:
        key, default = SLIDING_PERIOD[config.text_model_type]
        period = text.get(key, default) if key else default
        if not isinstance(period, int) or period < 1:
            return None
        return ["sliding" if (i + 1) % period else "full" for i in range(layers)]
    return None


def head_size(config: HfConfig) -> int | None:
    """`get_head_size` (vllm/transformers_utils/model_arch_config_convertor.py:91)."""
    text = config.text
    if config.uses_mla:
        rank, rope = text.get("kv_lora_rank"), text.get("qk_rope_head_dim")
        return rank + rope if isinstance(rank, int) and isinstance(rope, int) else None
    head_dim = text.get("head_dim")
    if isinstance(head_dim, int) and head_dim > 0:
        return head_dim
    heads, hidden = config.num_attention_heads, config.hidden_size
    return hidden // heads if heads and hidden else None


def _positive_ints(text: dict[str, Any], *keys: str) -> list[int] | None:
    values = [text.get(key) for key in keys]
    if all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
        return [int(v) for v in values if isinstance(v, int)]
    return None


def mamba_state_bytes(config: HfConfig, tp: int, element: int) -> int | None:
    """One sequence's state in a Mamba-style layer, in the model dtype, split over TP.
    Mamba-1 (Jamba): conv `(d_conv - 1) * inner` and SSM `inner * d_state`, `inner =
    expand * hidden`. Gated DeltaNet (Qwen3-Next's `linear_attention`): conv `(kernel - 1)
    * (2 * key heads * key dim + value heads * value dim)` and the recurrent `value heads
    * key dim * value dim`."""
    text, hidden = config.text, config.hidden_size
    if config.text_model_type in GATED_DELTA_NET:
        found = _positive_ints(
            text,
            "linear_conv_kernel_dim",
            "linear_num_key_heads",
            "linear_key_head_dim",
            "linear_num_value_heads",
            "linear_value_head_dim",
        )
        if found is None:
            return None
        kernel, key_heads, key_dim, value_heads, value_dim = found
        conv_dim = (2 * key_heads * key_dim + value_heads * value_dim) // tp
        return ((kernel - 1) * conv_dim + value_heads // tp * key_dim * value_dim) * element
    shape = _positive_ints(text, "mamba_expand", "mamba_d_conv", "mamba_d_state")
    if shape is None or not hidden:
        return None
    expand, conv, state = shape
    inner = expand * hidden // tp
    return ((conv - 1) * inner + inner * state) * element


def kv_cache(
    config: HfConfig,
    *,
    tp: int,
    pp: int,
    kv_cache_dtype: str,
    element: int,
    block_size: int,
    in_flight_tokens: int,
    disable_sliding_window: bool = False,
    hybrid_manager: bool = True,
    prefix_caching: bool = True,
) -> KvCache | None:
    """The KV cache of the busiest GPU, or None when this does not follow the model (an
    architecture or cache dtype whose layout is not transcribed). `element` is the model
    dtype's bytes (an `auto` cache dtype); without the hybrid KV-cache manager sliding
    layers are sized as full ones (`FullAttentionSpec` with a window, :624)."""
    kinds = layer_kinds(config, disable_sliding_window)
    size, total_kv = head_size(config), config.num_kv_heads
    if kinds is None or not size or not total_kv or tp < 1 or pp < 1:
        return None
    if any(config.text.get(key) for key in PER_KIND_HEADS):
        return None  # full layers of another head shape (Gemma 4): not transcribed
    cache_element = element if kv_cache_dtype == "auto" else CACHE_DTYPE_BYTES.get(kv_cache_dtype)
    if config.uses_mla:
        if "sliding" in kinds:
            return None  # sliding-window MLA (`SlidingWindowMLASpec`) is not followed
        per_token = MLA_PACKED_BYTES.get(kv_cache_dtype)
        if per_token is None and cache_element is not None:
            per_token = size * cache_element
        if per_token is None:
            return None
        attention = CacheLayer("mla", per_token)
    elif cache_element is None:
        return None
    else:
        attention = CacheLayer("full", max(1, total_kv // tp) * 2 * size * cache_element)
    mamba = mamba_state_bytes(config, tp, element) if "mamba" in kinds else 0
    if mamba is None:
        return None
    window = config.sliding_window
    layers = []
    for index in pp_layers(len(kinds), pp):
        kind = kinds[index]
        if kind == "mamba":
            layers.append(CacheLayer("mamba", mamba))
        elif kind == "sliding" and hybrid_manager:
            layers.append(CacheLayer("sliding", attention.state_bytes, window))
        else:
            layers.append(attention)
    states = 2 if prefix_caching and "mamba" in kinds else 1
    return KvCache(tuple(layers), block_size, in_flight_tokens, states)


def default_batched_tokens(memory_bytes: int, name: str) -> int:
    """`max_num_batched_tokens` `vllm serve` defaults to on a GPU of this memory
    (`get_batch_defaults`, vllm/engine/arg_utils.py:2973, OPENAI_API_SERVER)."""
    if memory_bytes >= 160 * GIB:
        return 16384
    if memory_bytes >= 70 * GIB and "a100" not in name.lower():
        return 8192
    return 2048


# --------------------------------------------------------------------------- weights


@dataclass(frozen=True)
class Weights:
    """The checkpoint's weights in bytes and what says so."""

    total: int
    #: "the safetensors index", "3 safetensors headers", "config.json (estimate)".
    source: str
    #: Read from the files (True) or estimated from the shapes (False, never an error).
    exact: bool


def safetensors_bytes(path: Path) -> int | None:
    """The tensor bytes a .safetensors file holds, from its header (8-byte little-endian
    length, then JSON naming each tensor's `data_offsets`), or None if it is not one. The
    editor checks on every keystroke once a target GPU turns the budget on, so a header is
    read once per version of the file (its mtime and size), not once per check."""
    try:
        stat = path.stat()
    except (OSError, ValueError):
        return None
    return _header_bytes(str(path), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=SAFETENSORS_CACHE)
def _header_bytes(path: str, _mtime: int, _size: int) -> int | None:
    """`safetensors_bytes` of one version of the file (the stamp is only the cache key)."""
    head = read_bytes(path, 8, head=True)
    if head is None or len(head) < 8:
        return None
    (length,) = struct.unpack("<Q", head)
    if length > SAFETENSORS_HEADER_BYTES:
        return None
    raw = read_bytes(path, 8 + length, head=True)
    if raw is None or len(raw) < 8 + length or _NESTED_ARRAY.search(raw, 8):
        return None
    try:
        header = json.loads(raw[8:])
    except (ValueError, RecursionError):
        return None
    if not isinstance(header, dict):
        return None
    total = 0
    for name, entry in header.items():
        if name == "__metadata__" and isinstance(entry, dict):
            continue
        offsets = entry.get("data_offsets") if isinstance(entry, dict) else None
        if not (isinstance(offsets, list) and len(offsets) == 2):
            return None
        start, end = offsets
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start <= end):
            return None
        total += end - start
    return total


def checkpoint_weights(folder: ModelFolder) -> Weights | None:
    """What the checkpoint's safetensors hold: the index's `metadata.total_size`, else the
    headers of `model.safetensors` or of every `*.safetensors` beside config.json
    (`consolidated*` files, Mistral's own format of the same weights, left out)."""
    index = folder.file("model.safetensors.index.json")
    metadata = index.get("metadata") if index is not None else None
    size = metadata.get("total_size") if isinstance(metadata, dict) else None
    if isinstance(size, (int, float)) and not isinstance(size, bool) and size > 0:
        return Weights(int(size), "the safetensors index's total_size", True)
    try:
        files = sorted(folder.folder.glob("*.safetensors"))
    except OSError:
        return None
    single = [f for f in files if f.name == "model.safetensors"]
    chosen = single or [f for f in files if not f.name.startswith("consolidated")]
    if len(chosen) > MAX_SHARDS:
        return None
    sizes = [safetensors_bytes(f) for f in chosen]
    if not sizes or any(s is None for s in sizes):
        return None
    count = f"{len(sizes)} safetensors header" + ("s" if len(sizes) > 1 else "")
    return Weights(sum(s for s in sizes if s is not None), count, True)


def quantized_bits(config: HfConfig, quantization: object) -> float | None:
    """Bits per linear weight the checkpoint's quantization stores (its `bits`, fp8 as 8),
    16 when unquantized; None for a method whose packing is not followed here."""
    method = config.quant_method
    if quantization not in (None, method):
        return None  # online quantization of another checkpoint: its packing is vLLM's
    if method is None:
        return 16.0
    settings = config.quantization_config or {}
    bits = settings.get("bits", settings.get("w_bit"))
    if isinstance(bits, int) and not isinstance(bits, bool) and 0 < bits <= 16:
        return float(bits)
    return 8.0 if method in ("fp8", "fbgemm_fp8", "modelopt") else None


def estimated_weights(config: HfConfig, element: int, quantization: object) -> Weights | None:
    """Weights from the shapes when no safetensors are at hand: embeddings in the model
    dtype, the rest at the quantization's bits (`HfConfig.estimate_parameters`; rough)."""
    params = config.estimate_parameters()
    bits = quantized_bits(config, quantization)
    hidden, vocab = config.hidden_size, config.vocab_size
    if params is None or bits is None or not hidden or not vocab:
        return None
    embeddings = vocab * hidden * (1 if config.get("tie_word_embeddings") else 2)
    linear = max(0, params - embeddings)
    total = embeddings * element + math.ceil(linear * bits / 8)
    return Weights(total, "config.json's shapes (estimate)", False)


# --------------------------------------------------------------------------- the budget


@dataclass(frozen=True)
class Budget:
    """One GPU's memory as vLLM splits it, in the best case (no activations, no CUDA
    graphs, no other process): an error drawn from it is one vLLM cannot escape."""

    memory: int
    utilization: float
    weights: Weights
    #: tensor * pipeline parallel: what the weights are divided by.
    shards: int
    kv: KvCache
    max_len: int

    @property
    def requested(self) -> int:
        """`request_memory`: `ceil(total * gpu-memory-utilization)` (utils.py:724)."""
        return math.ceil(self.memory * self.utilization)

    @property
    def weights_per_gpu(self) -> int:
        return cdiv(self.weights.total, self.shards)

    @property
    def available(self) -> int:
        """KV-cache memory at best: what is requested less the weights, less the null
        block (kv_cache_planning.py:1536)."""
        return self.requested - self.weights_per_gpu - self.kv.block_bytes

    @property
    def needed(self) -> int:
        return self.kv.request_bytes(self.max_len)

    @property
    def fits(self) -> bool:
        return 0 < self.needed <= self.available

    def longest_fitting(self) -> int:
        return self.kv.longest_fitting(self.available, self.max_len) if self.available > 0 else 0

    def utilization_fitting(self) -> float | None:
        """The smallest `gpu-memory-utilization` in hundredths (at most 0.99) that leaves
        room for one request of `max_len`, or None when none does."""
        wanted = self.weights_per_gpu + self.kv.block_bytes + self.needed
        hundredths = cdiv(wanted * 100, self.memory)
        return hundredths / 100 if hundredths <= 99 else None

    def tokens(self) -> int:
        """Tokens of KV cache the available memory holds (whole blocks of the per-token
        layers, the per-sequence states of one request set aside)."""
        per_token = self.kv.token_bytes
        room = self.available - self.kv.sequence_bytes
        if per_token <= 0 or room <= 0:
            return 0
        blocks = room // (per_token * self.kv.block_size)
        return blocks * self.kv.block_size

    def concurrency(self) -> float:
        """Requests of `max_len` the KV cache holds at once (vLLM logs it as "Maximum
        concurrency for … tokens per request")."""
        return self.available / self.needed if self.needed > 0 else 0.0


def gib(count: int) -> str:
    """As vLLM prints memory (`format_gib`, vllm/utils/mem_utils.py:30)."""
    return f"{round(count / GIB, 2)}"


#: `_check_enough_kv_cache_memory` when nothing is left (kv_cache_planning.py:57).
NO_MEMORY = (
    "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
    "initializing the engine (this flag also controls CPU memory reservation on the CPU "
    "backend, despite its name). See "
    "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details."
)


def refusal(max_len: int, needed: int, available: int, estimate: int) -> str:
    """`_check_enough_kv_cache_memory`'s refusal in vLLM's words (kv_cache_planning.py:66)."""
    estimated = (
        f"Based on the available memory, the estimated maximum model length is {estimate}. "
        if estimate > 0
        else ""
    )
    return (
        f"To serve at least one request with the model's max seq len ({max_len}), "
        f"({gib(needed)} GiB KV cache is needed, which is larger than the available KV cache "
        f"memory ({gib(available)} GiB). {estimated}Try increasing `gpu_memory_utilization` "
        "(which also controls CPU memory on the CPU backend) or decreasing `max_model_len` "
        "when initializing the engine. See "
        "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details."
    )


def human_bytes(count: int) -> str:
    for unit, size in (("GiB", GIB), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if count >= size:
            return f"{count / size:.1f} {unit}".replace(".0 ", " ")
    return f"{count} B"


def human_tokens(count: int) -> str:
    if count >= 1_000_000:
        return f"{count / 1_000_000:.1f}M"
    return f"{count // 1000}k" if count >= 10_000 else str(count)


#: What the best case leaves out, said wherever its numbers are shown.
LEAVES_OUT = "estimate: leaves out activations, CUDA graphs and other processes' memory"


def summary(budget: Budget) -> str:
    """One line: weights per GPU, KV per token, the tokens the cache holds, and how many
    requests of `max-model-len` fit at once."""
    parts = [f"weights {budget.weights_per_gpu / GIB:.1f} GiB/GPU"]
    if not budget.weights.exact:
        parts[0] += " (from config.json)"
    if budget.kv.token_bytes:
        parts.append(f"KV {human_bytes(budget.kv.token_bytes)}/token")
        parts.append(f"≈ {human_tokens(budget.tokens())} tokens of KV cache")
    concurrency = budget.concurrency()
    shown = f"{concurrency:.1f}" if concurrency < 10 else f"{int(concurrency)}"
    parts.append(f"{shown} concurrent sequences at max length {budget.max_len}")
    return " · ".join(parts) + f" ({LEAVES_OUT})"
