"""Prefill context parallelism together with data parallelism, which some releases refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC394`),
`ParallelConfig._validate_parallel_config` refuses a prefill context parallel size above 1
with a data-parallel size above 1: `PCP does not support data parallelism yet.`
(vllm/config/parallel.py:527-528 in 0.28.0). Later releases combine them.

## Example
```yaml
# vllm-config: version=0.28.0
model: deepseek-ai/DeepSeek-V2-Lite
data-parallel-size: 2
prefill-context-parallel-size: 2
```

## Fixed
```yaml
# vllm-config: version=0.28.0
model: deepseek-ai/DeepSeek-V2-Lite
tensor-parallel-size: 2
prefill-context-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, first_given, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC394"
NAME = "pcp-data-parallel"
#: The check is gone from the release the other rules transcribe: this one is read from
#: 0.28.0, and runs for the releases whose wheel has the same check.
TRANSCRIBES = "0.28.0"
VLLM_SOURCE = "vllm/config/parallel.py:528"

CLASS = "ParallelConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    pcp = field_value(model, CLASS, "prefill_context_parallel_size")
    dp = field_value(model, CLASS, "data_parallel_size")
    if not (is_int(pcp) and is_int(dp)) or pcp <= 1 or dp <= 1:
        return
    anchor = first_given(model, CLASS, "prefill_context_parallel_size", "data_parallel_size")
    if anchor is None:
        return
    yield error(
        CODE,
        anchor,
        f"PCP does not support data parallelism yet. vLLM {model.version} runs prefill "
        f"context parallelism (here {pcp}) only with `data-parallel-size: 1` (here {dp}).",
        VLLM_SOURCE,
    )
