"""Dynamic speculative decoding (`num_speculative_tokens_per_batch_size`) with data parallelism.

## What vLLM does
`VllmConfig._maybe_disable_dynamic_sd_for_data_parallel` logs "Dynamic speculative decoding
is not supported with data parallelism because data-parallel ranks can select different
speculative-token counts, causing DP divergence and deadlocks. Disabling
num_speculative_tokens_per_batch_size and falling back to static num_speculative_tokens=N."
(vllm/config/vllm.py:1119) whenever `data-parallel-size` is above 1: the per-batch-size
table is dropped.

## Example
```yaml
model: Qwen/Qwen3-8B
data-parallel-size: 2
speculative-config:
  method: ngram
  num_speculative_tokens: 4
  num_speculative_tokens_per_batch_size: [[1, 8, 4], [9, 64, 2]]
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
data-parallel-size: 2
speculative-config:
  method: ngram
  num_speculative_tokens: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import above_one, json_given, removal, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC377"
NAME = "dynamic-speculation-data-parallel"
VLLM_SOURCE = "vllm/config/vllm.py:1119"
CATALOGUE = ("warn.vllm.dynamic_sd.data_parallel",)


def check(model: ConfigModel) -> Iterator[Finding]:
    table = json_given(model, "speculative-config", "num_speculative_tokens_per_batch_size")
    if table is None or table.value is None:
        return
    data_parallel = above_one(model, "ParallelConfig", "data_parallel_size")
    if data_parallel is None:
        return
    tokens = json_given(model, "speculative-config", "num_speculative_tokens")
    static = f"={tokens.value}" if tokens is not None else ""
    yield warning(
        CODE,
        table,
        "Dynamic speculative decoding is not supported with data parallelism because "
        "data-parallel ranks can select different speculative-token counts, causing DP "
        "divergence and deadlocks. Disabling num_speculative_tokens_per_batch_size and "
        f"falling back to static num_speculative_tokens{static}. Remove `{table.label}` "
        f"(`{data_parallel.label}` is {data_parallel.value}).",
        VLLM_SOURCE,
        [removal(model, table)],
        related=[data_parallel],
    )
