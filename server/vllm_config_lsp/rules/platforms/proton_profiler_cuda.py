"""The Proton profiler on an AMD GPU.

## What vLLM does
`VllmConfig._validate_profiler_config` (vllm/config/vllm.py:3264-3271) refuses
`profiler-config.profiler: proton` off NVIDIA CUDA: `The Proton profiler currently supports
NVIDIA CUDA only`.

## Example
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-8B
profiler-config:
  profiler: proton
```

## Fixed
```yaml
# vllm-config: gpu=MI300X
model: Qwen/Qwen3-8B
profiler-config:
  profiler: torch
  torch_profiler_dir: /tmp/traces
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, json_given, replace
from vllm_config_lsp.rules._platform import on_target, vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC707"
NAME = "proton-profiler-cuda"
VLLM_SOURCE = "vllm/config/vllm.py:3271"
CATALOGUE = ("vllm.proton.cuda",)


def check(model: ConfigModel) -> Iterator[Finding]:
    profiler = json_given(model, "profiler-config", "profiler")
    platform = vendor(model)
    if profiler is None or profiler.value != "proton" or platform in (None, "nvidia"):
        return
    yield error(
        CODE,
        profiler,
        "The Proton profiler currently supports NVIDIA CUDA only" + on_target(model),
        VLLM_SOURCE,
        [replace(model, profiler, "torch", f"Set `{profiler.assign('torch')}`")],
    )
