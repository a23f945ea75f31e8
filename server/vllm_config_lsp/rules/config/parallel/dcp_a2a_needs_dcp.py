"""`dcp-comm-backend: a2a` without decode context parallelism (vLLM 0.18.1 to 0.28.0).

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC811`),
`ParallelConfig._validate_parallel_config` refuses the all-to-all communication backend of
decode context parallelism when there is none: `dcp_comm_backend='a2a' requires
decode_context_parallel_size > 1.` (vllm/config/parallel.py:541-544 in 0.28.0). The
backend only exchanges attention outputs between DCP ranks; with a DCP size of 1 (the
default) there are no such ranks. Later releases accept it and ignore the backend.

## Example
```yaml
# vllm-config: version=0.28.0
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 8
dcp-comm-backend: a2a
```

## Fixed
```yaml
# vllm-config: version=0.28.0
model: deepseek-ai/DeepSeek-V3
tensor-parallel-size: 8
dcp-comm-backend: a2a
decode-context-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, given_field, is_int, removal
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC811"
NAME = "dcp-a2a-needs-dcp"
#: Gone from the release the other rules transcribe: read from 0.28.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.28.0"
VLLM_SOURCE = "vllm/config/parallel.py:542"
CLASS = "ParallelConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = given_field(model, CLASS, "dcp_comm_backend")
    dcp = field_value(model, CLASS, "decode_context_parallel_size")
    if backend is None or backend.value != "a2a" or not is_int(dcp) or dcp > 1:
        return
    yield error(
        CODE,
        backend,
        "dcp_comm_backend='a2a' requires decode_context_parallel_size > 1. The all-to-all "
        f"backend exchanges data between decode context parallel ranks (DCP={dcp} here): "
        "set `decode-context-parallel-size` above 1 (a divisor of the tensor-parallel "
        "size), or remove `dcp-comm-backend`.",
        VLLM_SOURCE,
        [removal(model, backend)],
    )
