"""A GPU memory fraction above 1 or a negative CPU offload, which vLLM 0.6.6 to 0.10.2 refuse.

## What vLLM does
Up to the releases this rule names (`vllm-config-lsp rules VC357`), `CacheConfig._verify_args`
refuses `gpu-memory-utilization` above 1.0 with "GPU memory utilization must be less than 1.0.
Got 1.5." (vllm/config/cache.py:163-166 in 0.10.2) and, from 0.8.5, a negative
`cpu-offload-gb` with "CPU offload space must be non-negative, but got -1.0"
(vllm/config/cache.py:159-161). vLLM 0.11.2 on refuses both through the field's pydantic
bounds (`gt=0, le=1`, `ge=0`: VC203). The check compares the float as written: 1.0 passes.

## Example
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
gpu-memory-utilization: 1.5
```

## Fixed
```yaml
# vllm-config: version=0.10.2
model: meta-llama/Llama-3.1-8B-Instruct
gpu-memory-utilization: 0.95
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._frontend import args
from vllm_config_lsp.rules.releases import has_check
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC357"
NAME = "cache-verify-args"
#: The checks are gone from the release the other rules transcribe (pydantic bounds took
#: their place in 0.11.2): read from 0.10.2, run for the releases whose wheel has them.
TRANSCRIBES = "0.10.2"
VLLM_SOURCE = "vllm/config/cache.py:164"
OFFLOAD_SOURCE = "vllm/config/cache.py:160"


def check(model: ConfigModel) -> Iterator[Finding]:
    a = args(model, "cpu-offload-gb", "gpu-memory-utilization")
    if a is None:
        return
    offload, fraction = a["cpu_offload_gb"], a["gpu_memory_utilization"]
    negative = offload.explicit and _number(offload.value) and offload.value < 0
    if negative and has_check(model.catalogue, CODE, OFFLOAD_SOURCE):  # 0.8.5 on
        yield finding(
            CODE,
            Severity.ERROR,
            offload.where,
            f"CPU offload space must be non-negative, but got {float(offload.value)}: "
            f"vLLM {model.version} refuses to start (set `cpu-offload-gb` to 0 or more).",
            source=OFFLOAD_SOURCE,
        )
        return  # vLLM stops at the first
    if fraction.explicit and _number(fraction.value) and fraction.value > 1.0:
        yield finding(
            CODE,
            Severity.ERROR,
            fraction.where,
            f"GPU memory utilization must be less than 1.0. Got {float(fraction.value)}. "
            f"vLLM {model.version} refuses to start: `gpu-memory-utilization` is a fraction "
            "of each GPU's memory (at most 1.0).",
            source=VLLM_SOURCE,
        )


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)
