"""`dtype: bfloat16` on a GPU below compute capability 8.0 (T4, V100).

## What vLLM does
Each GPU worker checks the model's dtype against its device before loading weights:
`CudaPlatform.check_if_supports_dtype` (vllm/platforms/cuda.py:638-656, the same in
rocm.py:1344) refuses `torch.bfloat16` unless `has_device_capability(80)`, with `Bfloat16 is
only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has
compute capability 7.5. You can use float16 instead by explicitly setting the `dtype` flag
in CLI, for example: --dtype=half.` `dtype: auto` never fails here: `_resolve_auto_dtype`
(vllm/config/model.py:2423) takes the checkpoint's `torch_dtype` only when the platform's
`supported_dtypes` hold it and otherwise falls back to float16 with a warning. AMD Instinct
GPUs report capability 9.x, so only NVIDIA GPUs before Ampere are refused.

## Example
```yaml
# vllm-config: gpu=T4
model: Qwen/Qwen3-8B
dtype: bfloat16
```

## Fixed
```yaml
# vllm-config: gpu=T4
model: Qwen/Qwen3-8B
dtype: half
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, replace
from vllm_config_lsp.rules._platform import capability, on_target, target_gpu
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC701"
NAME = "bfloat16-capability"
VLLM_SOURCE = "vllm/platforms/cuda.py:650"


def check(model: ConfigModel) -> Iterator[Finding]:
    gpu, device = target_gpu(model), capability(model)
    dtype = given_field(model, "ModelConfig", "dtype")
    if gpu is None or device is None or dtype is None or dtype.value != "bfloat16":
        return
    if device >= (8, 0):
        return
    yield error(
        CODE,
        dtype,
        "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. "
        f"Your {gpu.name} GPU has compute capability {device[0]}.{device[1]}. "
        "You can use float16 instead by explicitly setting the `dtype` flag in CLI, "
        f"for example: --dtype=half.{on_target(model)}",
        VLLM_SOURCE,
        [replace(model, dtype, "half", f"Set `{dtype.assign('half')}`")],
    )
