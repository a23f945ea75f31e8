"""A token budget per step that no batch can reach: above `max-num-seqs * max-model-len`.

## What vLLM does
`SchedulerConfig.verify_max_model_len` warns "max_num_batched_tokens (65536) exceeds
max_num_seqs * max_model_len (8192). This may lead to unexpected behavior."
(vllm/config/scheduler.py:347-353) and starts: a step schedules at most `max-num-seqs`
sequences of at most `max-model-len` tokens each, so the budget as written is never used
(profiling and CUDA graph sizes still follow it). The rule needs `max-num-seqs` from the
file (its default depends on the platform and the GPU's memory), and `max-model-len` from
the file or the model's config.json.

## Example
```yaml
model: Qwen/Qwen3-8B
max-model-len: 4096
max-num-seqs: 2
max-num-batched-tokens: 16384
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-model-len: 4096
max-num-seqs: 2
max-num-batched-tokens: 8192
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import given, given_field, is_int, replace, warning
from vllm_config_lsp.rules.config.model.max_model_len_derived import served_limit
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC387"
NAME = "batched-tokens-unreachable"
VLLM_SOURCE = "vllm/config/scheduler.py:348"
CATALOGUE = ("warn.scheduler.batched_tokens.unreachable",)
CLASS = "SchedulerConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    batched = given_field(model, CLASS, "max_num_batched_tokens")
    seqs = given_field(model, CLASS, "max_num_seqs")
    if batched is None or seqs is None or not (is_int(batched.value) and is_int(seqs.value)):
        return
    written = given(model, "max-model-len")
    where = ""
    if written is not None:
        if not is_int(written.value) or written.value <= 0:
            return  # -1 / auto: vLLM picks the length from the GPU memory
        length = int(written.value)
    else:
        config = served(model)
        limit = served_limit(model, config) if config is not None else None
        if limit is None or config is None:
            return
        length = limit.as_int
        where = f"; max_model_len {length} comes from {config.where.name}'s {limit.key}"
    most = seqs.value * length
    if batched.value <= most:
        return
    yield warning(
        CODE,
        batched,
        f"max_num_batched_tokens ({batched.value}) exceeds max_num_seqs * max_model_len "
        f"({most}). This may lead to unexpected behavior: a step never schedules more than "
        f"{seqs.value} sequences of {length} tokens{where}.",
        VLLM_SOURCE,
        [replace(model, batched, most, f"Set `{batched.label}` to {most}")],
        related=[seqs, written],
    )
