"""Prefetch weight offloading with more offloaded layers per group than the group has,
or a prefetch step of 0.

## What vLLM does
When prefetch offloading is on (`offload-backend: prefetch`, or `offload-group-size`
above 0), `OffloadConfig.validate_offload_config` refuses `offload_num_in_group` above
`offload_group_size` (each group of N layers offloads its last K, so K ≤ N) and
`offload_prefetch_step` below 1 (vllm/config/offload.py:97-113). It runs when the engine
config is built.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
offload-group-size: 4
offload-num-in-group: 6
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
offload-group-size: 8
offload-num-in-group: 6
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, field_value, given_field, is_int
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC323"
NAME = "prefetch-offload-settings"
VLLM_SOURCE = "vllm/config/offload.py:102"
CATALOGUE = ("offload.num_in_group", "offload.prefetch_step")

STEP_SOURCE = "vllm/config/offload.py:108"
PREFETCH = "PrefetchOffloadConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = field_value(model, "OffloadConfig", "offload_backend")
    size = field_value(model, PREFETCH, "offload_group_size")
    if not is_int(size) or not (backend == "prefetch" or size > 0):
        return
    count = field_value(model, PREFETCH, "offload_num_in_group")
    if is_int(count) and count > size:
        anchor = (
            given_field(model, PREFETCH, "offload_num_in_group")
            or given_field(model, PREFETCH, "offload_group_size")
            or given_field(model, "OffloadConfig", "offload_backend")
        )
        if anchor is not None:
            hint = (
                " `offload-backend: prefetch` needs `offload-group-size` (it is 0)."
                if size == 0
                else ""
            )
            yield error(
                CODE,
                anchor,
                f"offload_num_in_group ({count}) must be <= offload_group_size ({size}). "
                "Each group of `offload-group-size` layers offloads its last "
                f"`offload-num-in-group` layers.{hint}",
                VLLM_SOURCE,
            )
        return
    step = given_field(model, PREFETCH, "offload_prefetch_step")
    if step is not None and is_int(step.value) and step.value < 1:
        yield error(
            CODE,
            step,
            f"offload_prefetch_step ({step.value}) must be >= 1 when prefetch offloading is "
            "enabled (offload_group_size > 0).",
            STEP_SOURCE,
        )
