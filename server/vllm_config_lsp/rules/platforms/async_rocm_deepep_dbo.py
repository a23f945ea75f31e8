"""`async-scheduling: true` on ROCm with DBO and the DeepEP high-throughput all2all.

## What vLLM does
`VllmConfig.__post_init__` (vllm/config/vllm.py:1645-1675): on ROCm, with `enable-dbo` and
`all2all-backend: deepep_high_throughput`, an explicitly enabled async scheduler is refused:
`Async scheduling is not compatible with ROCm DeepEP high-throughput DBO. Please use
--no-async-scheduling or select a different all2all backend.` Left unset, vLLM turns async
scheduling off itself with a warning (VC717).

## Example
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
enable-dbo: true
all2all-backend: deepep_high_throughput
async-scheduling: true
```

## Fixed
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
enable-dbo: true
all2all-backend: deepep_high_throughput
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, removal, switched_on
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC709"
NAME = "async-rocm-deepep-dbo"
VLLM_SOURCE = "vllm/config/vllm.py:1671"
CATALOGUE = ("vllm.async.rocm_deepep_dbo",)


def rocm_deepep_dbo(model: ConfigModel) -> bool:
    """`uses_rocm_deepep_ht_dbo` (vllm/config/vllm.py:1645): a ROCm target, `enable-dbo`
    and `all2all-backend: deepep_high_throughput`."""
    if vendor(model) != "amd" or switched_on(model, "enable-dbo") is None:
        return False
    backend = given_field(model, "ParallelConfig", "all2all_backend")
    return backend is not None and backend.value == "deepep_high_throughput"


def check(model: ConfigModel) -> Iterator[Finding]:
    if not rocm_deepep_dbo(model):
        return
    scheduling = given_field(model, "SchedulerConfig", "async_scheduling")
    if scheduling is None or scheduling.value is not True:
        return
    yield error(
        CODE,
        scheduling,
        "Async scheduling is not compatible with ROCm DeepEP high-throughput DBO. Please use "
        "--no-async-scheduling or select a different all2all backend." + on_target(model),
        VLLM_SOURCE,
        [removal(model, scheduling, f"Remove `{scheduling.written}`")],
    )
