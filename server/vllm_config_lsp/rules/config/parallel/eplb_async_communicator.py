"""Async EPLB (the default) with an NCCL communicator for expert weights.

## What vLLM does
`EPLBConfig._validate_eplb_config` refuses `communicator` `torch_nccl` or `pynccl` while
`use_async` is on (vllm/config/parallel.py:124-130): the asynchronous rebalancing thread
and the model's NCCL streams conflict. `use_async` defaults to `true`, so naming an NCCL
communicator alone is enough. The check runs while arguments are parsed
(`--eplb-config` is validated then), whether or not EPLB is enabled.

## Example
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
eplb-config:
  communicator: pynccl
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V2-Lite
eplb-config:
  communicator: torch_gloo
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, json_given, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC313"
NAME = "eplb-async-communicator"
VLLM_SOURCE = "vllm/config/parallel.py:125"
CATALOGUE = ("eplb.async_nccl",)

NCCL = ("torch_nccl", "pynccl")


def check(model: ConfigModel) -> Iterator[Finding]:
    communicator = json_given(model, "eplb-config", "communicator")
    if communicator is None or communicator.value not in NCCL:
        return
    if field_value(model, "EPLBConfig", "use_async") is not True:
        return
    yield error(
        CODE,
        communicator,
        f"{communicator.value} communicator is incompatible with async EPLB due to NCCL "
        "multi-stream conflicts. Use 'torch_gloo' or 'nixl' instead, or leave "
        "communicator unset for automatic selection. (`use_async` is on by default; "
        "set it to false to keep this communicator.)",
        VLLM_SOURCE,
        [replace(model, communicator, "torch_gloo", "Use `torch_gloo`")],
    )
