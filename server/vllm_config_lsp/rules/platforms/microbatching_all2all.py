"""Microbatching (`enable-dbo`, `ubatch-size` above 1) with an all2all backend the target's
platform does not microbatch with; the default `allgather_reducescatter` works on ROCm only.

## What vLLM does
`VllmConfig.__post_init__` (vllm/config/vllm.py:2181-2204) asserts, when
`ParallelConfig.use_ubatching`, that `all2all-backend` is one of `deepep_low_latency`,
`deepep_high_throughput`, `nixl_ep` (and, on ROCm, `allgather_reducescatter`): `Microbatching
currently only supports the deepep_low_latency, deepep_high_throughput, nixl_ep all2all
backends on this platform. allgather_reducescatter is not supported. To fix use one of
--all2all-backend=deepep_low_latency, … and install the matching kernels.` The removed
`naive` and `pplx` backends were replaced by `allgather_reducescatter` before
(vllm/config/parallel.py:537-543).

## Example
```yaml
# vllm-config: gpu=H100-80GB
model: Qwen/Qwen3-30B-A3B
enable-expert-parallel: true
enable-dbo: true
```

## Fixed
```yaml
# vllm-config: gpu=H100-80GB
model: Qwen/Qwen3-30B-A3B
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
    switched_on,
)
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC708"
NAME = "microbatching-all2all"
VLLM_SOURCE = "vllm/config/vllm.py:2198"
CATALOGUE = ("vllm.ubatch.a2a",)

_EVERYWHERE = ("deepep_low_latency", "deepep_high_throughput", "nixl_ep")
_ROCM = (*_EVERYWHERE, "allgather_reducescatter")


def check(model: ConfigModel) -> Iterator[Finding]:
    platform = vendor(model)
    if platform is None:
        return
    dbo = switched_on(model, "enable-dbo")
    ubatch = given_field(model, "ParallelConfig", "ubatch_size")
    if ubatch is not None and not (is_int(ubatch.value) and ubatch.value > 1):
        ubatch = None
    anchor = dbo or ubatch
    if anchor is None:
        return
    backend = given_field(model, "ParallelConfig", "all2all_backend")
    name = (
        backend.value
        if backend is not None
        else field_value(model, "ParallelConfig", "all2all_backend")
    )
    if not isinstance(name, str):
        return
    name = "allgather_reducescatter" if name in ("naive", "pplx") else name
    supported = _ROCM if platform == "amd" else _EVERYWHERE
    if name in supported:
        return
    where = backend or anchor
    fix = (
        replace(model, backend, supported[0], f"Set `{backend.label}: {supported[0]}`")
        if backend is not None
        else add_flag(model, anchor, "all2all-backend", supported[0])
    )
    yield error(
        CODE,
        where,
        f"Microbatching currently only supports the {', '.join(supported)} all2all backends "
        f"on this platform. {name} is not supported. To fix use one of "
        f"{', '.join('--all2all-backend=' + b for b in supported)} and install the "
        f"matching kernels.{on_target(model)}",
        VLLM_SOURCE,
        [fix],
    )
