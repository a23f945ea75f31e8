"""Micro-batching with an all2all backend that cannot overlap micro-batches.

## What vLLM does
With micro-batching on (`enable-dbo`, or `ubatch-size` above 1), `VllmConfig.__post_init__`
asserts that the MoE all2all backend is one that runs its dispatch and combine on a
communication stream (vllm/config/vllm.py:2180-2203): `deepep_low_latency`,
`deepep_high_throughput` or `nixl_ep` on CUDA and every other platform, and on ROCm also
`allgather_reducescatter`: `Microbatching currently only supports the ... all2all backends
on this platform. X is not supported.` The default backend is `allgather_reducescatter`,
so micro-batching without an `all2all-backend` is refused everywhere but on ROCm: a
warning then (the file may be meant for ROCm), an error when the file's target GPU
(`# vllm-config: gpu=…`, `--gpu`, the manifest) is NVIDIA's, nothing on AMD's; so are the
removed `naive` and `pplx`,
which `ParallelConfig` replaces by that default (vllm/config/parallel.py:537). Any other
backend is an error. A `moe-backend` that binds its own all2all backend
(vllm/config/kernel.py:222) is left to its own rule.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
data-parallel-size: 8
enable-expert-parallel: true
enable-dbo: true
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
data-parallel-size: 8
enable-expert-parallel: true
enable-dbo: true
all2all-backend: deepep_low_latency
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    add_flag,
    error,
    field_value,
    given_field,
    is_int,
    replace,
    warning,
)
from vllm_config_lsp.rules._platform import vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC362"
NAME = "microbatch-all2all"
VLLM_SOURCE = "vllm/config/vllm.py:2198"
CATALOGUE = ("vllm.ubatch.a2a",)

CLASS = "ParallelConfig"
EVERYWHERE = ("deepep_low_latency", "deepep_high_throughput", "nixl_ep")
ROCM_ALSO = "allgather_reducescatter"
#: Removed backends ParallelConfig replaces by ROCM_ALSO.
REPLACED = ("naive", "pplx")


def check(model: ConfigModel) -> Iterator[Finding]:
    dbo = given_field(model, CLASS, "enable_dbo")
    ubatch = given_field(model, CLASS, "ubatch_size")
    if dbo is not None and dbo.value is True:
        trigger = dbo
    elif ubatch is not None and is_int(ubatch.value) and ubatch.value > 1:
        trigger = ubatch
    else:
        return
    backend = field_value(model, CLASS, "all2all_backend")
    if not isinstance(backend, str) or backend in EVERYWHERE:
        return
    if field_value(model, "KernelConfig", "moe_backend") not in (None, "auto"):
        return
    if backend in REPLACED:
        backend = ROCM_ALSO
    given = given_field(model, CLASS, "all2all_backend")
    off = f"remove `{trigger.label}`" if trigger is dbo else f"set `{trigger.label}` to 0 or 1"
    head = (
        f"Microbatching currently only supports the {', '.join(EVERYWHERE)} all2all backends "
        f"(on ROCm also {ROCM_ALSO}). {backend} is not supported"
    )
    platform = vendor(model)
    if backend == ROCM_ALSO and platform == "amd":
        return
    if backend == ROCM_ALSO and platform is None:
        said = "the default" if given is None else f"`{given.label}: {given.value}`, this"
        fix = (
            add_flag(model, trigger, "all2all-backend", EVERYWHERE[0])
            if given is None
            else replace(model, given, EVERYWHERE[0], f"Use `{EVERYWHERE[0]}`")
        )
        yield warning(
            CODE,
            given or trigger,
            f"{head}: {said} all2all backend is refused on every platform but ROCm. Set "
            f"`all2all-backend: {EVERYWHERE[0]}` (and install its kernels), or {off}.",
            VLLM_SOURCE,
            [fix],
        )
        return
    where = "on any platform" if backend != ROCM_ALSO else "on the target's NVIDIA GPU"
    yield error(
        CODE,
        given or trigger,
        f"{head} {where}. Use one of {', '.join(EVERYWHERE)}, or {off}.",
        VLLM_SOURCE,
        [replace(model, given, EVERYWHERE[0], f"Use `{EVERYWHERE[0]}`") if given else None],
    )
