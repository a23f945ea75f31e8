"""A `quantization` method the target GPU's compute capability is below the minimum of.

## What vLLM does
`VllmConfig._get_quantization_config` (vllm/config/vllm.py:916-937) builds the method's
config class and compares the GPU's `get_device_capability().to_int()` with the class's
`get_min_capability()`: `The quantization method fp8 is not supported for the current GPU.
Minimum capability: 75. Current capability: 70.` The minimum of each method is read from
the wheel (`schemas/vllm-0.33.0.platform.json`, tools/generate_platform_tables.py): fp8,
awq, modelopt_fp4 need 75 (Turing), mxfp4, fbgemm_fp8, experts_int8 and modelopt need 80,
fp_quant 100, gptq 60. Only the method the file names is checked: a checkpoint's own method
may be overridden by a Marlin variant first (`override_quantization_method`).

## Example
```yaml
# vllm-config: gpu=V100-32GB
model: Qwen/Qwen3-8B
quantization: fp8
```

## Fixed
```yaml
# vllm-config: gpu=V100-32GB
model: Qwen/Qwen3-8B
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, removal
from vllm_config_lsp.rules._platform import as_int, capability, on_target
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.hardware import platform_table

CODE = "VC702"
NAME = "quantization-capability"
VLLM_SOURCE = "vllm/config/vllm.py:931"
CATALOGUE = ("vllm.quant.capability",)


def check(model: ConfigModel) -> Iterator[Finding]:
    device = capability(model)
    method = given_field(model, "ModelConfig", "quantization")
    if device is None or method is None or not isinstance(method.value, str):
        return
    minimum = platform_table(model.version).get("quantization_min_capability", {})
    needed = minimum.get(method.value)
    if not isinstance(needed, int) or as_int(device) >= needed:
        return
    yield error(
        CODE,
        method,
        f"The quantization method {method.value} is not supported for the current GPU. "
        f"Minimum capability: {needed}. Current capability: {as_int(device)}." + on_target(model),
        VLLM_SOURCE,
        [removal(model, method, f"Remove `{method.written}`")],
    )
