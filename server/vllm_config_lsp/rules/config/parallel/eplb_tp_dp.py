"""EPLB with one tensor-parallel and one data-parallel rank (vLLM 0.11.2 to 0.25.1), on a
CUDA or ROCm target.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC814`),
`ParallelConfig._validate_parallel_config` refuses `enable-eplb` when TP x DP is 1: `EPLB
requires tensor_parallel_size or data_parallel_size to be greater than 1, but got
TP=1,DP=1.` (vllm/config/parallel.py:483-488 in 0.25.1). The load balancer moves experts
between the ranks of the expert-parallel group, which spans the TP x DP ranks; with one
there is nothing to balance. The check runs after two others: EPLB off CUDA and ROCm is
refused first (so the rule speaks only where the target GPU is known to be NVIDIA or AMD),
and so is EPLB without `enable-expert-parallel` (VC312). Later releases count prefill
context parallelism too (VC312).

## Example
```yaml
# vllm-config: version=0.25.1 gpu=MI300X
model: Qwen/Qwen3-30B-A3B
enable-eplb: true
enable-expert-parallel: true
```

## Fixed
```yaml
# vllm-config: version=0.25.1 gpu=MI300X
model: Qwen/Qwen3-30B-A3B
enable-eplb: true
enable-expert-parallel: true
data-parallel-size: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, removal, switched_on
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC814"
NAME = "eplb-tp-dp"
#: Gone from the release the other rules transcribe (it names PCP there): read from
#: 0.25.1, run for the releases whose wheel has the same check.
TRANSCRIBES = "0.25.1"
VLLM_SOURCE = "vllm/config/parallel.py:484"
#: `current_platform.is_cuda_alike()`, the check before it.
PLATFORMS = ("nvidia", "amd")


def check(model: ConfigModel) -> Iterator[Finding]:
    found = single_rank_eplb(CODE, model, PLATFORMS, VLLM_SOURCE)
    if found is not None:
        yield found


def single_rank_eplb(
    code: str, model: ConfigModel, platforms: tuple[str, ...], source: str
) -> Finding | None:
    """`enable-eplb` with expert parallelism on, on a target whose vendor passes EPLB's
    platform check, where TP x DP is 1 (both releases' words)."""
    eplb = switched_on(model, "enable-eplb")
    if eplb is None or vendor(model) not in platforms:
        return None
    if field_value(model, "ParallelConfig", "enable_expert_parallel") is not True:
        return None  # refused first (VC312)
    tp = field_value(model, "ParallelConfig", "tensor_parallel_size")
    dp = field_value(model, "ParallelConfig", "data_parallel_size")
    if not all(isinstance(n, int) for n in (tp, dp)) or tp * dp > 1:
        return None
    return error(
        code,
        eplb,
        "EPLB requires tensor_parallel_size or data_parallel_size to be greater than 1, "
        f"but got TP={tp},DP={dp}.{on_target(model)} With one rank there are no experts "
        "to move: raise `tensor-parallel-size` or `data-parallel-size`, or remove EPLB.",
        source,
        [removal(model, eplb)],
    )
