"""A `kda-prefill-backend` of the other vendor: `flashkda` off CUDA, `fused` off ROCm.

## What vLLM does
`EngineArgs.create_engine_config` (vllm/engine/arg_utils.py:2866-2879) refuses
`--kda-prefill-backend=flashkda is only available on CUDA.` and `--kda-prefill-backend=fused
is only available on ROCm.` before anything is loaded.

## Example
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-8B
kda-prefill-backend: flashkda
```

## Fixed
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-8B
kda-prefill-backend: fused
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, removal, replace
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC706"
NAME = "kda-prefill-backend-platform"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2872"
CATALOGUE = ("cli.kda_flashkda", "cli.kda_fused")

#: Backend → (the platform it needs, where vLLM says so, the other platform's backend).
_NEEDS = {
    "flashkda": ("nvidia", "CUDA", "vllm/engine/arg_utils.py:2872", "fused"),
    "fused": ("amd", "ROCm", "vllm/engine/arg_utils.py:2876", "flashkda"),
}


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = given(model, "kda-prefill-backend")
    platform = vendor(model)
    if backend is None or platform is None or backend.value not in _NEEDS:
        return
    needs, label, source, other = _NEEDS[backend.value]
    if platform == needs:
        return
    yield error(
        CODE,
        backend,
        f"--kda-prefill-backend={backend.value} is only available on {label}." + on_target(model),
        source,
        [
            replace(model, backend, other, f"Set `{backend.assign(other)}`"),
            removal(model, backend, f"Remove `{backend.written}`"),
        ],
    )
