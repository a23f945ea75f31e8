"""An `mm-processor-kwargs` device that `torch.device` cannot parse.

## What vLLM does
For a multimodal model, `MultiModalConfig.get_mm_processor_device_type`
(vllm/config/multimodal.py:595-621), run by `VllmConfig._validate_mm_processor_device`
on every platform, passes `mm_processor_kwargs["device"]` to `torch.device` and refuses
what torch refuses: a device type other than torch's (`cpu`, `cuda`, `xpu`, `mps`, `hip`,
`meta`, …, lower case), an index that is not a plain non-negative integer (`cuda:01`,
`cuda:-1`, `cuda: 0`), surrounding spaces, or a value that is not a string or an integer.
A text-only model has no multimodal config and ignores it. Out-of-tree platforms may
register their own device name (such as `npu`), so an unknown type says so.

## Example
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-processor-kwargs:
  device: gpu0
```

## Fixed
```yaml
model: Qwen/Qwen2.5-VL-7B-Instruct
mm-processor-kwargs:
  device: "cuda:0"
```
"""

import re
from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import is_int, json_given, warning
from vllm_config_lsp.rules._model_config import MULTIMODAL_GATE
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC482"
NAME = "mm-processor-device"
VLLM_SOURCE = "vllm/config/multimodal.py:618"
CATALOGUE = ("mm.processor_device.parse",)

#: torch's device types (c10/core/DeviceType.cpp, as torch 2.13 lists them).
DEVICE_TYPES = (
    "cpu",
    "cuda",
    "ipu",
    "xpu",
    "mkldnn",
    "opengl",
    "opencl",
    "ideep",
    "hip",
    "ve",
    "fpga",
    "maia",
    "xla",
    "lazy",
    "vulkan",
    "mps",
    "meta",
    "hpu",
    "mtia",
    "privateuseone",
)
DEVICE = re.compile(r"([a-z_]+)(?::(0|[1-9][0-9]{0,17}))?")


def _problem(device: object) -> str | None:
    """Why torch.device refuses the value, or None when it accepts it."""
    if is_int(device):
        return "a device index must not be negative" if device < 0 else None  # type: ignore[operator]
    if not isinstance(device, str):
        return f"torch.device does not take a {type(device).__name__}"
    match = DEVICE.fullmatch(device)
    if match is None:
        return "torch cannot parse it as `type` or `type:index`"
    if match.group(1) not in DEVICE_TYPES:
        return (
            f"`{match.group(1)}` is not one of torch's device types "
            f"({', '.join(DEVICE_TYPES)}) unless an out-of-tree platform registers it"
        )
    return None


def check(model: ConfigModel) -> Iterator[Finding]:
    device = json_given(model, "mm-processor-kwargs", "device")
    if device is None or device.value is None:
        return
    problem = _problem(device.value)
    if problem is None:
        return
    yield warning(
        CODE,
        device,
        f'Invalid "device" in mm_processor_kwargs: {device.value!r}. Expected a torch '
        f'device such as "cpu", "cuda" or "cuda:0" ({problem}). {MULTIMODAL_GATE}',
        VLLM_SOURCE,
    )
