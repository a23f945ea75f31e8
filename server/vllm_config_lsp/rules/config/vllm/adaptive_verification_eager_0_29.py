"""Adaptive speculative verification without CUDA graphs, which vLLM 0.29.0 refuses.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC831`),
`VllmConfig._validate_adaptive_verification` with
`speculative-config.enable_adaptive_verification: true` refuses LoRA first, then a final
cudagraph mode of NONE: "Adaptive verification is not currently compatible with
enforce_eager/cudagraph_mode=none" (vllm/config/vllm.py:2658-2664 in 0.29.0): the draft
budget divides by step costs profiled from captured CUDA graphs, and eager execution
captures none. `enforce-eager`, `cudagraph_mode: NONE` and `optimization-level: 0` leave
the mode NONE. Later releases ask for full CUDA graphs instead (VC335).

## Example
```yaml
# vllm-config: version=0.29.0
model: Qwen/Qwen3-8B
enforce-eager: true
speculative-config:
  method: dspark
  model: org/dspark-draft
  num_speculative_tokens: 4
  enable_adaptive_verification: true
```

## Fixed
```yaml
# vllm-config: version=0.29.0
model: Qwen/Qwen3-8B
speculative-config:
  method: dspark
  model: org/dspark-draft
  num_speculative_tokens: 4
  enable_adaptive_verification: true
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import (
    adaptive_verification,
    cuda_graphs,
    error,
    removal,
    switched_on,
)
from vllm_config_lsp.rules.config.speculative.spec_adaptive_dspark_only import refused
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC831"
NAME = "adaptive-verification-eager-0-29"
#: Gone from the release the other rules transcribe: read from 0.29.0.
TRANSCRIBES = "0.29.0"
VLLM_SOURCE = "vllm/config/vllm.py:2661"


def check(model: ConfigModel) -> Iterator[Finding]:
    if adaptive_verification(model) is None or refused(model) is not None:
        return  # (a method other than DSpark is refused before: VC472)
    if switched_on(model, "enable-lora") is not None:
        return  # refused first: LoRA (VC335)
    state, where = cuda_graphs(model)
    if state != "off" or where is None:
        return
    yield error(
        CODE,
        where,
        "Adaptive verification is not currently compatible with "
        f"enforce_eager/cudagraph_mode=none. (`{where.label}` leaves vLLM {model.version} "
        "without CUDA graphs, whose profiled step costs size the draft budget: remove it.)",
        VLLM_SOURCE,
        [removal(model, where)],
    )
