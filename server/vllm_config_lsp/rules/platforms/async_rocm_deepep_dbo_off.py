"""Async scheduling left to vLLM on ROCm with DBO and the DeepEP high-throughput all2all.

## What vLLM does
With `async-scheduling` unset, `VllmConfig.__post_init__` turns async scheduling off on ROCm
when DBO runs with `all2all-backend: deepep_high_throughput` (vllm/config/vllm.py:1705):
"Async scheduling is disabled for ROCm DeepEP high-throughput DBO because that combination
can corrupt DP+EP generation accuracy." No setting of the file changes, so this is
information; the fix writes `no-async-scheduling: true`, which is what vLLM runs. Set
explicitly on, the combination is refused (VC709).

## Example
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
enable-dbo: true
all2all-backend: deepep_high_throughput
```

## Fixed
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
enable-dbo: true
all2all-backend: deepep_high_throughput
no-async-scheduling: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import add_flag, given_field
from vllm_config_lsp.rules._platform import on_target
from vllm_config_lsp.rules.platforms.async_rocm_deepep_dbo import rocm_deepep_dbo
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC717"
NAME = "async-rocm-deepep-dbo-off"
VLLM_SOURCE = "vllm/config/vllm.py:1705"
CATALOGUE = ("warn.vllm.async.rocm_deepep_dbo",)


def check(model: ConfigModel) -> Iterator[Finding]:
    if not rocm_deepep_dbo(model) or given_field(model, "SchedulerConfig", "async_scheduling"):
        return
    backend = given_field(model, "ParallelConfig", "all2all_backend")
    if backend is None:
        return
    fix = add_flag(model, backend, "no-async-scheduling", "true") if model.is_config_file else None
    yield finding(
        CODE,
        Severity.INFO,
        backend.where,
        "Async scheduling is disabled for ROCm DeepEP high-throughput DBO because that "
        "combination can corrupt DP+EP generation accuracy. Add `no-async-scheduling: true` "
        "to say so." + on_target(model),
        source=VLLM_SOURCE,
        fixes=[fix] if fix is not None else [],
    )
