"""`device-ids` with the Ray executor, which ignores it.

## What vLLM does
`EngineArgs._resolve_device_ids` logs "--device-ids has no effect when using the Ray
executor. Use Ray placement groups for GPU selection instead." when
`distributed-executor-backend` is `ray` (vllm/engine/arg_utils.py:2145): Ray places the
workers itself.

## Example
```yaml
model: Qwen/Qwen3-8B
tensor-parallel-size: 2
distributed-executor-backend: ray
device-ids: [2, 3]
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
tensor-parallel-size: 2
distributed-executor-backend: ray
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given, removal, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC379"
NAME = "device-ids-with-ray"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2145"
CATALOGUE = ("warn.cli.device_ids.ray",)


def check(model: ConfigModel) -> Iterator[Finding]:
    devices = given(model, "device-ids")
    backend = given(model, "distributed-executor-backend")
    if devices is None or not devices.value or backend is None or backend.value != "ray":
        return
    yield warning(
        CODE,
        devices,
        "--device-ids has no effect when using the Ray executor. Use Ray placement groups "
        f"for GPU selection instead: remove `{devices.label}`.",
        VLLM_SOURCE,
        [removal(model, devices)],
        related=[backend],
    )
