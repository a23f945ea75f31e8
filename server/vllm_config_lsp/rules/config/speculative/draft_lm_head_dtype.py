"""`draft_lm_head_quantization` with a draft whose lm_head runs in float32.

## What vLLM does
`draft_lm_head_quantization` quantizes the draft's copy of the target's lm_head, so that
head must run in the model dtype. Once the draft's `ModelConfig` exists,
`SpeculativeConfig` compares the two (vllm/config/speculative.py:1960-1965) and refuses:
`draft_lm_head_quantization needs the lm_head to run in the model dtype, got
head_dtype=torch.float32.` The head dtype is the draft config.json's `head_dtype`
(`ModelConfig.head_dtype`, vllm/config/model.py:2108 and 2521): `"model"` or none means the
model dtype, a dtype name is taken as written, anything else stops the start with `Unknown
dtype: 'fp33'`. Hunyuan V4 (`hy_v4`) checkpoints get `head_dtype: "float32"` from vLLM's
config class unless `enable_lm_head_fp32` is false (vllm/transformers_utils/configs/
hy_v4.py:167). The draft's dtype is the target's: `dtype: auto` never resolves to float32
(float32 checkpoints are downcast, model.py:2441), so only `dtype: float32` keeps a float32
head. `hf-overrides` cannot help: its mappings stay on the target. A float16 or bfloat16
head is left alone here, because whether it survives depends on the GPU's dtypes.

## Example
```yaml
model: synthetic/hy-v4
speculative-config:
  method: mtp
  num_speculative_tokens: 1
  draft_lm_head_quantization: fp8
```

## Fixed
```yaml
model: synthetic/hy-v4
speculative-config:
  method: mtp
  num_speculative_tokens: 1
```
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import draft_checkpoint
from vllm_config_lsp.rules._engine import error, field_value, json_given, removal
from vllm_config_lsp.rules._model_config import spec
from vllm_config_lsp.vllm.config_model import ConfigModel
from vllm_config_lsp.vllm.model_files import HfConfig

CODE = "VC633"
NAME = "draft-lm-head-dtype"
VLLM_SOURCE = "vllm/config/speculative.py:1962"
CATALOGUE = ("spec.lm_head_quant.dtype",)

UNKNOWN_SOURCE = "vllm/config/model.py:2531"
#: `_STR_DTYPE_TO_TORCH_DTYPE` (vllm/config/model.py:2384).
DTYPES = {
    "half": "float16",
    "float16": "float16",
    "float": "float32",
    "float32": "float32",
    "bfloat16": "bfloat16",
}
#: Methods that get as far as the head check (speculative.py:1955).
CHECKED_METHODS = ("eagle", "eagle3", "mtp")


def written_head_dtype(config: HfConfig) -> Any:
    """`head_dtype` as the draft's config object carries it, with HYV4Config's default."""
    value = config.raw.get("head_dtype")
    if value is None and config.model_type == "hy_v4":
        return "float32" if config.raw.get("enable_lm_head_fp32", True) else None
    return value


def check(model: ConfigModel) -> Iterator[Finding]:
    config = spec(model)
    if config is None or not config.uses_draft or not config.has("draft_lm_head_quantization"):
        return
    found = draft_checkpoint(model, config.method)
    if found is None or found.method not in CHECKED_METHODS or "gemma4" in found.config.model_type:
        return
    if found.reuses_target and found.config.text is not found.config.raw:
        return  # vLLM may promote the text config when it rewrites this draft
    quantization = json_given(model, "speculative-config", "draft_lm_head_quantization")
    if quantization is None:
        return
    head = written_head_dtype(found.config)
    if head is None or head == "model":
        return
    fixes = [removal(model, quantization)]
    if not isinstance(head, str) or head.lower() not in DTYPES:
        shown = repr(head.lower()) if isinstance(head, str) else str(head)
        yield error(
            CODE,
            quantization,
            f"Unknown dtype: {shown}: the `head_dtype` in the config.json of {found.label}, "
            "which vLLM reads because of `draft_lm_head_quantization`. Fix the checkpoint's "
            'value ("model", "float16", "bfloat16" or "float32") or drop the quantization.',
            UNKNOWN_SOURCE,
            fixes,
        )
        return
    dtype = str(field_value(model, "ModelConfig", "dtype") or "auto").lower()
    if DTYPES[head.lower()] != "float32" or DTYPES.get(dtype) == "float32":
        return
    runs = f"the model runs in {dtype}" if dtype != "auto" else "dtype auto never picks float32"
    origin = (
        "Hunyuan V4's `enable_lm_head_fp32` (on unless config.json turns it off)"
        if found.config.raw.get("head_dtype") is None
        else f'its `head_dtype: "{head}"`'
    )
    yield error(
        CODE,
        quantization,
        "draft_lm_head_quantization needs the lm_head to run in the model dtype, got "
        f"head_dtype=torch.float32. The float32 head comes from {found.label}: {origin}, "
        f"while {runs}. Drop `draft_lm_head_quantization`, or serve with `dtype: float32`.",
        VLLM_SOURCE,
        fixes,
    )
