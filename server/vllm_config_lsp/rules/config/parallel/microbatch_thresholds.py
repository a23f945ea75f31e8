"""DBO / micro-batching thresholds below the number of micro-batches.

## What vLLM does
With micro-batching on (`enable-dbo`, which makes 2 micro-batches, or `ubatch-size` above
1), `ParallelConfig._verify_args` refuses `dbo_decode_token_threshold` or
`dbo_prefill_token_threshold` below the number of micro-batches
(vllm/config/parallel.py:1178-1188): a batch smaller than one token per micro-batch cannot
be split, so the thresholds must keep such batches out. The defaults are 32 and 512, so
`ubatch-size` above 32 needs both thresholds raised.

## Example
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
ubatch-size: 4
dbo-decode-token-threshold: 2
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
ubatch-size: 4
dbo-decode-token-threshold: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, given_field, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC320"
NAME = "microbatch-thresholds"
VLLM_SOURCE = "vllm/config/parallel.py:1184"
CATALOGUE = ("parallel.ubatch_thresholds",)

CLASS = "ParallelConfig"
THRESHOLDS = ("dbo_decode_token_threshold", "dbo_prefill_token_threshold")


def check(model: ConfigModel) -> Iterator[Finding]:
    dbo = field_value(model, CLASS, "enable_dbo") is True
    ubatch = field_value(model, CLASS, "ubatch_size")
    if not is_int(ubatch) or not (dbo or ubatch > 1):
        return
    count = 2 if dbo else ubatch
    for name in THRESHOLDS:
        value = field_value(model, CLASS, name)
        if not is_int(value) or value >= count:
            continue
        found = given_field(model, CLASS, name)
        where = found or given_field(model, CLASS, "enable_dbo" if dbo else "ubatch_size")
        if where is None:
            continue
        said = (
            f"`{found.label}` is {value}."
            if found
            else f"`{name.replace('_', '-')}` is left at its default, {value}: set it to at "
            f"least {count}."
        )
        yield error(
            CODE,
            where,
            "dbo_decode_token_threshold and dbo_prefill_token_threshold must be at least "
            f"the number of microbatches ({count}). {said}",
            VLLM_SOURCE,
        )
        return
