"""`dtype: float16` on a bfloat16 checkpoint, or `bfloat16` on a float16 one: a cast.

vLLM casts the weights between the two half-precision formats and cautions.

## What vLLM does
`ModelConfig.__post_init__` resolves `dtype` (`_get_and_verify_dtype`,
vllm/config/model.py:2467). The checkpoint's dtype is its config.json's `dtype`
(`torch_dtype` before transformers 5; the text, vision or encoder config's if the root has
none). When the requested dtype differs from it and neither is float32, vLLM warns
`Casting torch.bfloat16 to torch.float16.` (vllm/config/model.py:2516) and starts in the
requested dtype: the weights are converted between the two half-precision formats, which
keep different ranges and precisions (float16 overflows above 65504, bfloat16 keeps three
fewer significant digits), so outputs can differ from the checkpoint's. Information: the
setting applies as written. Upcasting to float32 and downcasting from float32 are only
logged at INFO level by vLLM and get nothing here; `dtype: auto` takes the checkpoint's
dtype. It needs the checkpoint's config.json.

## Example
```yaml
model: Qwen/Qwen3-8B
dtype: float16
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
dtype: auto
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import given_field, replace
from vllm_config_lsp.rules.config.model.float16_unsupported import NOT_FLOAT16
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC639"
NAME = "dtype-cast"
VLLM_SOURCE = "vllm/config/model.py:2516"
CATALOGUE = ("warn.model.dtype.cast",)

#: The half-precision names of `_STR_DTYPE_TO_TORCH_DTYPE` (vllm/config/model.py).
HALF = {"half": "float16", "float16": "float16", "bfloat16": "bfloat16"}


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    dtype = given_field(model, "ModelConfig", "dtype")
    if config is None or dtype is None or not isinstance(dtype.value, str):
        return
    wanted = HALF.get(dtype.value.lower())
    written = HALF.get(config.dtype or "")
    if wanted is None or written is None or wanted == written:
        return
    if wanted == "float16" and config.model_type in NOT_FLOAT16:
        return  # refused first (VC608)
    fix = replace(model, dtype, "auto", f"Set {dtype.written} to auto ({written})")
    yield finding(
        CODE,
        Severity.INFO,
        dtype.where,
        f"Casting torch.{written} to torch.{wanted}. The checkpoint is {written} (its "
        f"config.json's dtype) and vLLM converts its weights to {wanted}, whose range and "
        f"precision differ: outputs can differ from the checkpoint's.",
        source=VLLM_SOURCE,
        fixes=[fix] if fix is not None else [],
    )
