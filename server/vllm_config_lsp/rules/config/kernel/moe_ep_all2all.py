"""A FlashInfer MoE-EP backend is paired with an explicit `all2all-backend`.

## What vLLM does
`flashinfer_moe_ep_cutedsl` and `flashinfer_moe_ep_mega_deep_gemm` dispatch and combine
tokens themselves. When the platform defaults are applied, `bind_passthrough_all2all_backend`
stops the start with `moe_backend='X' dispatches and combines itself and cannot be paired
with all2all_backend='Y'; leave --all2all-backend unset.` for any all2all backend other
than the default `allgather_reducescatter` (vllm/config/kernel.py:194-216). `naive` and
`pplx` are deprecated and already replaced by the default before that.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
moe-backend: flashinfer_moe_ep_cutedsl
all2all-backend: deepep_low_latency
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
moe-backend: flashinfer_moe_ep_cutedsl
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import either, plain, removal_fix
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC432"
NAME = "moe-ep-all2all"
VLLM_SOURCE = "vllm/config/kernel.py:211"
CATALOGUE = ("kernel.moe_ep.all2all",)
SELF_DISPATCHING = ("flashinfer_moe_ep_cutedsl", "flashinfer_moe_ep_mega_deep_gemm")
#: Reset to the default by ParallelConfig.__post_init__ (vllm/config/parallel.py:537-543).
RESET = ("allgather_reducescatter", "naive", "pplx")


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = either(model, "moe-backend", "kernel-config", "moe_backend")
    a2a = plain(model, "all2all-backend")
    if backend is None or a2a is None or backend.value not in SELF_DISPATCHING:
        return
    if a2a.value in RESET:
        return
    removal = removal_fix(model, a2a, "Remove `all2all-backend`")
    yield finding(
        CODE,
        Severity.ERROR,
        a2a.span,
        f"moe_backend={backend.value!r} dispatches and combines itself and cannot be paired "
        f"with all2all_backend={a2a.value!r}; leave --all2all-backend unset.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
