"""The multi-modal processor on the GPU (`mm-processor-device: cuda`, or `device: cuda` in
`mm-processor-kwargs`) of an instance that also runs the language model.

## What vLLM does
`MultiModalConfig.validate_mm_processor_device` (vllm/config/multimodal.py:623-665), run
for multimodal models from `VllmConfig._validate_mm_processor_device`, refuses a processor
device equal to the platform's accelerator (`cuda` on CUDA and ROCm) unless the instance is
encode-only (an EC producer that is not a consumer, `ec-transfer-config.ec_role:
ec_producer`): `Cannot run the multi-modal processor on 'cuda': this instance also runs the
language model. …`. `mm-processor-device` is folded into the kwargs first
(multimodal.py:558-593): any value but `auto` and `cpu` means the accelerator, and an
explicit `device` in `mm-processor-kwargs` wins.

## Example
```yaml
# vllm-config: gpu=L40S
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-processor-device: cuda
```

## Fixed
```yaml
# vllm-config: gpu=L40S
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-processor-device: cpu
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import Given, error, given, is_int, json_given, replace
from vllm_config_lsp.rules._platform import vendor
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC711"
NAME = "mm-processor-accelerator"
VLLM_SOURCE = "vllm/config/multimodal.py:651"
CATALOGUE = ("mm.processor_device.accel",)

MESSAGE = (
    "Cannot run the multi-modal processor on 'cuda': this instance also runs the language "
    "model. The processor would share the device with the model's forward pass, so its "
    "transform kernels contend with that compute, and because it runs in the API-server "
    "process its allocations are outside the memory the engine profiled for its KV cache "
    "-- risking OOM or a silently shrunken cache.\n"
    "Accelerator preprocessing is only supported on an encode-only instance of an "
    "encode/prefill/decode deployment (an EC producer that is not also a consumer), which "
    "runs no forward pass and allocates no KV cache.\n"
    'Use --mm-processor-device=cpu, or drop "device" from --mm-processor-kwargs.'
)


def _on_accelerator(model: ConfigModel) -> tuple[Given, bool] | None:
    """Where the file puts the processor on the GPU, and whether it is the kwargs' `device`
    (else the `mm-processor-device` flag)."""
    device = json_given(model, "mm-processor-kwargs", "device")
    if device is not None:
        value = device.value
        if is_int(value) or (isinstance(value, str) and value.split(":", 1)[0] == "cuda"):
            return device, True
        return None  # another device, or one torch refuses (another error)
    flag = given(model, "mm-processor-device")
    if flag is None or not isinstance(flag.value, str) or flag.value in ("auto", "cpu"):
        return None
    return flag, False


def check(model: ConfigModel) -> Iterator[Finding]:
    if vendor(model) is None:
        return
    config = served(model)
    if config is None or config.arch_flag("supports_multimodal") is not True:
        return
    found = _on_accelerator(model)
    if found is None:
        return
    where, in_kwargs = found
    connector = json_given(model, "ec-transfer-config", "ec_connector")
    role = json_given(model, "ec-transfer-config", "ec_role")
    encode_only = role is not None and role.value == "ec_producer"
    if connector is not None and connector.value and encode_only:
        return  # an encode-only instance: the one place the accelerator is allowed
    fixes = [] if in_kwargs else [replace(model, where, "cpu", f"Set `{where.assign('cpu')}`")]
    yield error(CODE, where, MESSAGE, VLLM_SOURCE, fixes)
