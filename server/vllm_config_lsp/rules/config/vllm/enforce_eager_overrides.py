"""`enforce-eager: true` beside compilation, CUDA-graph or JIT warm-up settings it overrides.

## What vLLM does
With `enforce-eager`, `VllmConfig.__post_init__` sets the compilation mode and the
cudagraph mode to NONE and logs "Enforce eager set, disabling torch.compile, CUDAGraphs, and
JIT kernel warmup. This is equivalent to setting -cc.mode=none -cc.cudagraph_mode=none and
--kernel_config.enable_jit_warmup=False" (vllm/config/vllm.py:1766-1784; with
`enable-fault-tolerance` the JIT warm-up stays on, :1772). Whatever the file writes for
`compilation-config.mode`, `cudagraph_mode`, the capture sizes, `optimization-level` or
`kernel-config.enable_jit_warmup: true` is silently replaced (the capture sizes are emptied
once graphs are off, :2005 and :2650).

## Example
```yaml
model: Qwen/Qwen3-8B
enforce-eager: true
compilation-config:
  cudagraph_mode: FULL_AND_PIECEWISE
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
compilation-config:
  cudagraph_mode: FULL_AND_PIECEWISE
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    Given,
    compilation_field,
    given,
    json_true,
    removal,
    switched_on,
    warning,
)
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC376"
NAME = "enforce-eager-overrides"
VLLM_SOURCE = "vllm/config/vllm.py:1778"
CATALOGUE = ("warn.vllm.enforce_eager", "warn.vllm.enforce_eager.fault_tolerance")
WORDS = (
    "Enforce eager set, disabling torch.compile, CUDAGraphs, and JIT kernel warmup. This is "
    "equivalent to setting -cc.mode=none -cc.cudagraph_mode=none and "
    "--kernel_config.enable_jit_warmup=False"
)
FAULT_TOLERANT_WORDS = (
    "Enforce eager set, disabling torch.compile and CUDAGraphs. This is equivalent to "
    "setting -cc.mode=none -cc.cudagraph_mode=none"
)
FAULT_TOLERANT_SOURCE = "vllm/config/vllm.py:1772"


def _not_off(found: Given | None) -> Given | None:
    """A mode or level the file sets to anything but off (`NONE`, `0`, `O0`)."""
    if found is None or str(found.value).upper() in ("0", "NONE", "O0"):
        return None
    return found


def _overridden(model: ConfigModel, fault_tolerant: bool) -> Iterator[Given]:
    for found in (
        _not_off(compilation_field(model, "mode")),
        _not_off(compilation_field(model, "cudagraph_mode")),
        _not_off(given(model, "optimization-level")),
    ):
        if found is not None:
            yield found
    sizes = compilation_field(model, "cudagraph_capture_sizes")
    if sizes is not None and isinstance(sizes.value, list) and sizes.value:
        yield sizes
    largest = compilation_field(model, "max_cudagraph_capture_size")
    if largest is not None and isinstance(largest.value, int) and largest.value > 0:
        yield largest
    warmup = json_true(model, "kernel-config", "enable_jit_warmup")
    if warmup is not None and not fault_tolerant:
        yield warmup


def check(model: ConfigModel) -> Iterator[Finding]:
    eager = switched_on(model, "enforce-eager")
    if eager is None:
        return
    fault_tolerant = switched_on(model, "enable-fault-tolerance") is not None
    words, source = (
        (FAULT_TOLERANT_WORDS, FAULT_TOLERANT_SOURCE) if fault_tolerant else (WORDS, VLLM_SOURCE)
    )
    for setting in _overridden(model, fault_tolerant):
        yield warning(
            CODE,
            setting,
            f"{words}. So `{setting.label}` has no effect: remove it, or remove "
            f"`{eager.label}` to compile and capture CUDA graphs as written.",
            source,
            [removal(model, setting)],
            related=[eager],
        )
