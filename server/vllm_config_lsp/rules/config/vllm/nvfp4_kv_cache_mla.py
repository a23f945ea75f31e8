"""`kv-cache-dtype: nvfp4` on a model with multi-head latent attention (DeepSeek, Kimi, …).

## What vLLM does
The plain nvfp4 KV-cache layout stores per-head K/V blocks; MLA models cache one latent
vector instead. `VllmConfig.validate_nvfp4_kv_cache_with_mla` refuses `nvfp4` (and
`nvfp4_4over6`, any `nvfp4…` not ending in `_ds_mla`) for a model that uses MLA: `nvfp4 KV
cache is not supported with MLA (Multi-head Latent Attention) backends.`
(vllm/config/vllm.py:3421-3438). MLA is read from config.json: a DeepSeek-family
`model_type` with `kv_lora_rank`.

## Example
```yaml
model: deepseek-ai/DeepSeek-V2-Lite-Chat
kv-cache-dtype: nvfp4
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V2-Lite-Chat
kv-cache-dtype: fp8
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._checkpoint import served
from vllm_config_lsp.rules._engine import error, given_field, replace
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC613"
NAME = "nvfp4-kv-cache-mla"
VLLM_SOURCE = "vllm/config/vllm.py:3432"
CATALOGUE = ("vllm.nvfp4_mla",)


def check(model: ConfigModel) -> Iterator[Finding]:
    config = served(model)
    dtype = given_field(model, "CacheConfig", "cache_dtype")
    if config is None or dtype is None or not isinstance(dtype.value, str):
        return
    if not dtype.value.startswith("nvfp4") or dtype.value.endswith("_ds_mla"):
        return
    if not config.uses_mla:
        return
    yield error(
        CODE,
        dtype,
        "nvfp4 KV cache is not supported with MLA (Multi-head Latent Attention) backends. "
        "Please use a different --kv-cache-dtype (e.g., 'fp8', 'auto', or 'nvfp4_ds_mla' "
        f"with a sparse MLA backend) for MLA models such as DeepSeek. {config.where.name} "
        "uses MLA.",
        VLLM_SOURCE,
        [replace(model, dtype, "fp8", f"Set {dtype.written} to fp8")],
    )
