"""`decode-context-parallel-size` does not divide `tensor-parallel-size` (as vLLM 0.16.0 to
0.25.1 check it in `ParallelConfig`).

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC810`),
`ParallelConfig._validate_parallel_config` refuses a tensor-parallel size that is not a
multiple of the decode context parallel size: `tp_size=4 must be divisible bydcp_size=8.`
(vllm/config/parallel.py:503-507 in 0.25.1; the missing space is vLLM's). Decode context
parallelism reuses the GPUs of a tensor-parallel group and splits it into TP / DCP groups.
Earlier releases assert the same in `EngineArgs` (VC391); later ones check it together
with prefill context parallelism (VC315).

## Example
```yaml
# vllm-config: version=0.25.1
model: deepseek-ai/DeepSeek-V2-Lite
decode-context-parallel-size: 8
tensor-parallel-size: 4
```

## Fixed
```yaml
# vllm-config: version=0.25.1
model: deepseek-ai/DeepSeek-V2-Lite
decode-context-parallel-size: 2
tensor-parallel-size: 4
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error
from vllm_config_lsp.rules.engine.dcp_divides_tp import not_dividing
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC810"
NAME = "dcp-divides-tp-parallel-config"
#: Gone from the release the other rules transcribe (VC315 checks PCP with it there): read
#: from 0.25.1, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.25.1"
VLLM_SOURCE = "vllm/config/parallel.py:504"


def check(model: ConfigModel) -> Iterator[Finding]:
    found = not_dividing(model)
    if found is not None:
        yield error(CODE, *found, VLLM_SOURCE)
