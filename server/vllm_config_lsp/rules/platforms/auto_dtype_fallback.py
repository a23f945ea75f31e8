"""`dtype: auto` (the default) on a bfloat16 checkpoint and a GPU below compute capability
8.0 (T4, V100): vLLM runs the model in float16, not in the checkpoint's dtype.

## What vLLM does
`ModelConfig.__post_init__` resolves `dtype` (`_get_and_verify_dtype`,
vllm/config/model.py:2467). With `auto` it takes the checkpoint's `torch_dtype` only when
the platform supports it (`_resolve_auto_dtype`, model.py:2423): CUDA's `supported_dtypes`
are `[bfloat16, float16, float32]` from compute capability 8.0, `[float16, float32]` from
6.0 (vllm/platforms/cuda.py:257-266). A bfloat16 checkpoint on a T4 or a V100 is therefore
run in the first supported dtype the model type allows (float16; float32 for the types
float16 is unstable for: gemma2, gemma3, glm4), and vLLM warns `Your device 'Tesla T4'
(with compute capability 7.5) doesn't support torch.bfloat16. Falling back to
torch.float16 for compatibility.` (model.py:2457), then `Casting torch.bfloat16 to
torch.float16.` (model.py:2516). The server starts, but not in the dtype the checkpoint
was trained in: a model whose activations exceed float16's range can give wrong outputs.
A pooling model prefers float16 the same way. `dtype: bfloat16` written out is refused
instead (VC701). The device name vLLM prints is the driver's (`Tesla T4`); the message
here names the GPU table's row. It needs a target GPU and the checkpoint's config.json.

## Example
```yaml
# vllm-config: gpu=T4
model: Qwen/Qwen3-8B
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
from vllm_config_lsp.rules._checkpoint import model_given, resolve_runner, served
from vllm_config_lsp.rules._engine import given_field, warning
from vllm_config_lsp.rules._platform import capability, on_target, target_gpu
from vllm_config_lsp.rules.memory import set_or_add
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC713"
NAME = "auto-dtype-fallback"
VLLM_SOURCE = "vllm/config/model.py:2457"
CATALOGUE = ("warn.model.dtype.device",)

#: `_FLOAT16_NOT_SUPPORTED_MODELS` (vllm/config/model.py:2398-2403).
FLOAT16_UNSTABLE = ("gemma2", "gemma3", "gemma3_text", "glm4")


def supported(device: tuple[int, int]) -> list[str]:
    """`CudaPlatform.supported_dtypes` (vllm/platforms/cuda.py:257-266)."""
    if device >= (8, 0):
        return ["bfloat16", "float16", "float32"]
    return ["float16", "float32"] if device >= (6, 0) else ["float32"]


def check(model: ConfigModel) -> Iterator[Finding]:
    gpu, device, config = target_gpu(model), capability(model), served(model)
    if gpu is None or device is None or config is None or gpu.vendor != "nvidia":
        return
    dtype = given_field(model, "ModelConfig", "dtype")
    if dtype is not None and str(dtype.value).lower() != "auto":
        return
    if config.dtype != "bfloat16":
        return
    unstable = config.model_type in FLOAT16_UNSTABLE
    dtypes = [d for d in supported(device) if not (d == "float16" and unstable)]
    if "bfloat16" in dtypes:
        return
    runner = resolve_runner(model)
    pooling = runner is not None and runner.runner == "pooling"
    preferred = "float16" if pooling and "float16" in dtypes else dtypes[0]
    where = dtype if dtype is not None else model_given(model)
    fix = set_or_add(model, "ModelConfig", "dtype", "dtype", preferred)
    yield warning(
        CODE,
        where,
        f"Your device {gpu.name!r} (with compute capability {device[0]}.{device[1]}) doesn't "
        f"support torch.bfloat16. Falling back to torch.{preferred} for compatibility. The "
        f"checkpoint is bfloat16 (its config.json's dtype), so the model runs in "
        f"{preferred}.{on_target(model)}",
        VLLM_SOURCE,
        [fix],
    )
