"""A `float16`/`bfloat16` KV cache that differs from the model's `dtype`.

## What vLLM does
`VllmConfig._reject_mismatched_float_kv_cache` (vllm/config/vllm.py:1491-1507), run when
the engine config is built, refuses `kv-cache-dtype: float16` or `bfloat16` unless it is
the model's own dtype: `kv_cache_dtype="float16" is incompatible with dtype="bfloat16".
Please set `--kv-cache-dtype` to `auto` or `bfloat16`.` The attention kernels write the KV
cache in the activations' dtype; only the quantized formats (`fp8`, …) are converted.
With `dtype: auto` the model's dtype comes from its checkpoint, so this rule checks only an
explicit `dtype` (`half` is float16, `float` is float32).

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
dtype: bfloat16
kv-cache-dtype: float16
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
dtype: bfloat16
kv-cache-dtype: auto
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given, removal, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC324"
NAME = "kv-cache-dtype-vs-dtype"
VLLM_SOURCE = "vllm/config/vllm.py:1505"
CATALOGUE = ("vllm.kv_dtype.float_mismatch",)

#: ModelConfig's spelling of each `--dtype` choice (`_STR_DTYPE_TO_TORCH_DTYPE`).
TORCH_NAME = {
    "half": "float16",
    "float16": "float16",
    "bfloat16": "bfloat16",
    "float": "float32",
    "float32": "float32",
}


def check(model: ConfigModel) -> Iterator[Finding]:
    cache = given(model, "kv-cache-dtype")
    dtype = given(model, "dtype")
    if cache is None or dtype is None or cache.value not in ("float16", "bfloat16"):
        return
    model_dtype = TORCH_NAME.get(str(dtype.value).lower())
    if model_dtype is None or model_dtype == cache.value:
        return
    allowed = f"`auto` or `{model_dtype}`" if model_dtype in ("float16", "bfloat16") else "`auto`"
    yield error(
        CODE,
        cache,
        f'kv_cache_dtype="{cache.value}" is incompatible with dtype="{model_dtype}". '
        f"Please set `--kv-cache-dtype` to {allowed}.",
        VLLM_SOURCE,
        [replace(model, cache, "auto", "Use `auto` (the model's dtype)"), removal(model, cache)],
    )
