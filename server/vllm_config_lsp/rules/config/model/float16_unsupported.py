"""`dtype: float16` for a model type vLLM refuses to run in half precision.

## What vLLM does
Gemma 2, Gemma 3 and GLM-4 overflow in float16. `_check_valid_dtype`
(vllm/config/model.py:2412-2420) refuses an explicit `float16`/`half` for the model types
`gemma2`, `gemma3`, `gemma3_text` and `glm4` with `The model type 'gemma2' does not support
float16. Reason: Numerical instability. Please use bfloat16 or float32 instead.`
`dtype: auto` never picks float16 for them.

## Example
```yaml
model: google/gemma-2-2b-it
dtype: float16
```

## Fixed
```yaml
model: google/gemma-2-2b-it
dtype: bfloat16
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC608"
NAME = "float16-unsupported"
VLLM_SOURCE = "vllm/config/model.py:2416"
CATALOGUE = ("model.dtype.fp16",)

#: `_FLOAT16_NOT_SUPPORTED_MODELS` (vllm/config/model.py:2394).
NOT_FLOAT16 = {
    "gemma2": "Numerical instability. Please use bfloat16 or float32 instead.",
    "gemma3": "Numerical instability. Please use bfloat16 or float32 instead.",
    "gemma3_text": "Numerical instability. Please use bfloat16 or float32 instead.",
    "glm4": "Numerical instability. Please use bfloat16 or float32 instead.",
}


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    dtype = given_field(model, "ModelConfig", "dtype")
    if config is None or dtype is None or not isinstance(dtype.value, str):
        return
    reason = NOT_FLOAT16.get(config.model_type)
    if reason is None or dtype.value.lower() not in ("float16", "half"):
        return
    yield error(
        CODE,
        dtype,
        f"The model type {config.model_type!r} does not support float16. Reason: {reason}",
        VLLM_SOURCE,
        [
            replace(model, dtype, "bfloat16", f"Set {dtype.written} to bfloat16"),
            replace(model, dtype, "float32", f"Set {dtype.written} to float32", preferred=False),
        ],
    )
