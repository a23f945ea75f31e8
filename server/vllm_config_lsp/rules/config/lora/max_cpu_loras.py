"""`max-cpu-loras` is smaller than `max-loras`.

## What vLLM does
The CPU LoRA cache must hold at least the adapters that can be active on the GPU at once.
With LoRA enabled, `LoRAConfig._validate_lora_config` stops the start with
`max_cpu_loras (N) must be >= max_loras (M).` (vllm/config/lora.py:119-127) when the
engine config is built. Unset, `max_cpu_loras` follows `max_loras` (default 1).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
max-loras: 8
max-cpu-loras: 4
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
enable-lora: true
max-loras: 8
max-cpu-loras: 16
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import plain, removal_fix
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC430"
NAME = "max-cpu-loras"
VLLM_SOURCE = "vllm/config/lora.py:124"
CATALOGUE = ("lora.max_cpu_loras",)


def check(model: ConfigModel) -> Iterator[Finding]:
    enabled = plain(model, "enable-lora")
    cpu = plain(model, "max-cpu-loras")
    if enabled is None or enabled.value is not True or cpu is None:
        return
    gpu = plain(model, "max-loras")
    max_loras = gpu.value if gpu is not None else 1
    if not isinstance(cpu.value, int) or not isinstance(max_loras, int):
        return
    if cpu.value >= max_loras:
        return
    removal = removal_fix(model, cpu, "Remove `max-cpu-loras` (follow `max-loras`)")
    yield finding(
        CODE,
        Severity.ERROR,
        cpu.span,
        f"max_cpu_loras ({cpu.value}) must be >= max_loras ({max_loras}).",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
