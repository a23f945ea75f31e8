"""Scheduler limits that contradict the context length vLLM derives from the model.

## What vLLM does
Without `max-model-len`, vLLM uses the model's derived maximum (see VC604), and
`SchedulerConfig.verify_max_model_len` (vllm/config/scheduler.py:317-362) then checks the
scheduler's limits against it: with chunked prefill off (`no-enable-chunked-prefill: true`)
an explicit `max-num-batched-tokens` below it stops the start with `max_num_batched_tokens
(8192) is smaller than max_model_len (32768).`, and `long-prefill-token-threshold` above it
with `long_prefill_token_threshold (…) cannot be greater than the max_model_len (…)`.
VC311 compares the same fields when the file sets `max-model-len` itself; this rule covers
the length that comes from config.json. Encoder-decoder models turn chunked prefill off
and reset the threshold themselves, so they are left out.

## Example
```yaml
model: Qwen/Qwen2.5-7B-Instruct
no-enable-chunked-prefill: true
max-num-batched-tokens: 8192
```

## Fixed
```yaml
model: Qwen/Qwen2.5-7B-Instruct
no-enable-chunked-prefill: true
max-num-batched-tokens: 8192
max-model-len: 8192
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import add_flag, error, given, given_field, is_int
from vllm_config_lsp.rules.config.model.max_model_len_derived import served_limit
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC616"
NAME = "scheduler-vs-derived-len"
VLLM_SOURCE = "vllm/config/scheduler.py:322"
LONG_PREFILL_SOURCE = "vllm/config/scheduler.py:356"
CLASS = "SchedulerConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    if config is None or config.is_encoder_decoder or given(model, "max-model-len") is not None:
        return
    if any(p["rope_type"] == "longrope" for p in config.rope_parameters()):
        return  # LongRoPE defaults to original_max_position_embeddings instead
    limit = served_limit(model, config)
    if limit is None:
        return
    length = limit.as_int
    batched = given_field(model, CLASS, "max_num_batched_tokens")
    chunked = given_field(model, CLASS, "enable_chunked_prefill")
    threshold = given_field(model, CLASS, "long_prefill_token_threshold")
    if (
        batched is not None
        and is_int(batched.value)
        and chunked is not None
        and chunked.value is False
        and batched.value < length
    ):
        yield error(
            CODE,
            batched,
            f"max_num_batched_tokens ({batched.value}) is smaller than max_model_len "
            f"({length}). This effectively limits the maximum sequence length to "
            "max_num_batched_tokens and makes vLLM reject longer sequences. Please increase "
            f"max_num_batched_tokens or decrease max_model_len ({length} comes from "
            f"{config.where.name}'s {limit.key}; the file does not set max-model-len).",
            VLLM_SOURCE,
            [add_flag(model, batched, "max-model-len", str(batched.value))],
        )
    if threshold is not None and is_int(threshold.value) and threshold.value > length:
        yield error(
            CODE,
            threshold,
            f"long_prefill_token_threshold ({threshold.value}) cannot be greater than the "
            f"max_model_len ({length}) ({length} comes from {config.where.name}'s "
            f"{limit.key}).",
            LONG_PREFILL_SOURCE,
        )
