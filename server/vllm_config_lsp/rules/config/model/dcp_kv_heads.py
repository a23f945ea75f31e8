"""`decode-context-parallel-size` does not fit the model's KV heads (GQA/MQA models).

## What vLLM does
Decode context parallelism splits the KV cache of each KV head across the GPUs that
tensor parallelism already gives that head. For a model without MLA,
`ModelConfig.verify_with_parallel_config` (vllm/config/model.py:1576-1607) requires, with
`decode_context_parallel_size > 1`:
- `tensor-parallel-size` greater than the model's total KV heads (`Decode context
  parallelism for GQA/MQA requires --tensor-parallel-size (4) to be greater than the
  model's total number of KV heads (4).`);
- at most `tensor_parallel_size // kv_heads` (`… exceeds the maximum supported value`);
- the query heads per KV head divisible by it (`The model's number of query heads per KV
  head (…) must be divisible by --decode-context-parallel-size`).
MLA models (DeepSeek-V2/V3, Kimi K2, …) have one latent KV head and skip these checks.

## Example
```yaml
model: Qwen/Qwen3-30B-A3B
tensor-parallel-size: 8
decode-context-parallel-size: 4
```

## Fixed
```yaml
model: Qwen/Qwen3-30B-A3B
tensor-parallel-size: 8
decode-context-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, is_int, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC603"
NAME = "dcp-kv-heads"
VLLM_SOURCE = "vllm/config/model.py:1582"
CATALOGUE = ("model.dcp.kv_heads", "model.dcp.max", "model.dcp.q_per_kv")

MAX_SOURCE = "vllm/config/model.py:1592"
Q_PER_KV_SOURCE = "vllm/config/model.py:1602"


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    dcp = given_field(model, "ParallelConfig", "decode_context_parallel_size")
    if config is None or dcp is None or not is_int(dcp.value) or dcp.value <= 1:
        return
    if config.uses_mla:
        return
    tp_value = model.setting("ParallelConfig", "tensor_parallel_size").value
    heads, kv = config.num_attention_heads, config.num_kv_heads
    if not is_int(tp_value) or not heads or not kv or heads % tp_value:
        return  # VC601 reports an indivisible head count first
    tp, size = tp_value, dcp.value
    if tp <= kv:
        yield error(
            CODE,
            dcp,
            "Decode context parallelism for GQA/MQA requires `--tensor-parallel-size` "
            f"({tp}) to be greater than the model's total number of KV heads ({kv}). "
            "Increase `--tensor-parallel-size` or set `--decode-context-parallel-size 1`.",
            VLLM_SOURCE,
            [replace(model, dcp, "1", f"Set {dcp.written} to 1")],
        )
        return
    largest = tp // kv
    if size > largest:
        yield error(
            CODE,
            dcp,
            f"`--decode-context-parallel-size` ({size}) exceeds the maximum supported value "
            f"({largest}) for `--tensor-parallel-size` ({tp}) and {kv} model KV heads.",
            MAX_SOURCE,
            [replace(model, dcp, str(largest), f"Set {dcp.written} to {largest}")],
        )
        return
    per_kv = heads // kv
    if per_kv % size:
        yield error(
            CODE,
            dcp,
            f"The model's number of query heads per KV head ({per_kv}) must be divisible by "
            f"`--decode-context-parallel-size` ({size}) for GQA/MQA.",
            Q_PER_KV_SOURCE,
        )
