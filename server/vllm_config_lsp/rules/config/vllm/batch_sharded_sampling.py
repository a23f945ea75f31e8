"""`enable-batch-sharded-sampling` in a configuration that cannot shard sampling.

## What vLLM does
`VllmConfig._validate_batch_sharded_sampling` (vllm/config/vllm.py:3180-3220) refuses the
explicitly enabled flag, listing every reason: tensor parallelism of 1 (nothing to shard),
`max_num_seqs` below the TP size (some ranks would never get a request),
`max_logprobs: -1` (vocabulary-sized logprobs cannot be gathered), and
`return_sampling_mask` (the gather drops the masks).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enable-batch-sharded-sampling: true
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
tensor-parallel-size: 2
enable-batch-sharded-sampling: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, given_field, is_int, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC329"
NAME = "batch-sharded-sampling"
VLLM_SOURCE = "vllm/config/vllm.py:3215"
CATALOGUE = ("vllm.batch_sharded",)


def check(model: ConfigModel) -> Iterator[Finding]:
    switch = given_field(model, "ParallelConfig", "enable_batch_sharded_sampling")
    if switch is None or switch.value is not True:
        return
    tp = field_value(model, "ParallelConfig", "tensor_parallel_size")
    if not is_int(tp):
        return
    blockers: list[str] = []
    seqs = given_field(model, "SchedulerConfig", "max_num_seqs")
    if tp <= 1:
        blockers.append("tensor_parallel_size is 1, so there is nothing to shard")
    elif seqs is not None and is_int(seqs.value) and seqs.value < tp:
        blockers.append(f"max_num_seqs ({seqs.value}) is below tensor_parallel_size ({tp})")
    logprobs = given_field(model, "ModelConfig", "max_logprobs")
    if logprobs is not None and is_int(logprobs.value) and logprobs.value < 0:
        blockers.append("max_logprobs is -1, allowing vocab-size logprob requests")
    mask = given_field(model, "ModelConfig", "return_sampling_mask")
    if mask is not None and mask.value is True:
        blockers.append(
            "return_sampling_mask is set and the batch-sharded gather does not forward "
            "sampling masks"
        )
    if not blockers:
        return
    yield error(
        CODE,
        switch,
        "Batch-sharded sampling was explicitly enabled via the "
        "--enable-batch-sharded-sampling flag, but is not supported in this configuration "
        f"for the following reason(s): {'; '.join(blockers)}.",
        VLLM_SOURCE,
        [removal(model, switch)],
    )
