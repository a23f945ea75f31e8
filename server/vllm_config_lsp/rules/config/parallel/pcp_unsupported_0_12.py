"""`prefill-context-parallel-size` above 1, which vLLM 0.12.0 refuses outright.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC812`),
`ParallelConfig._validate_parallel_config`, run when the parallel config is built, ends with
`Prefill context parallelism is not fully supported. Please set
prefill_context_parallel_size to 1.` (vllm/config/parallel.py:315-319 in 0.12.0): the flag
exists, but the release refuses any size above 1. Later releases run prefill context
parallelism (with their own requirements, VC315 and VC394).

## Example
```yaml
# vllm-config: version=0.12.0
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 4
prefill-context-parallel-size: 2
```

## Fixed
```yaml
# vllm-config: version=0.12.0
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import above_one, error, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC812"
NAME = "pcp-unsupported-0-12"
#: Gone from the release the other rules transcribe: read from 0.12.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.12.0"
VLLM_SOURCE = "vllm/config/parallel.py:316"


def check(model: ConfigModel) -> Iterator[Finding]:
    pcp = above_one(model, "ParallelConfig", "prefill_context_parallel_size")
    if pcp is None:
        return
    yield error(
        CODE,
        pcp,
        "Prefill context parallelism is not fully supported. Please set "
        f"prefill_context_parallel_size to 1. vLLM {model.version} has the flag but refuses "
        f"any size above 1 (got {pcp.value}): remove `{pcp.written}`, or use a later release.",
        VLLM_SOURCE,
        [removal(model, pcp)],
    )
