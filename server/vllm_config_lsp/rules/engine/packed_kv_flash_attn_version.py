"""`flash_attn_version` 3 or more with a TurboQuant/UltraQuant KV cache: vLLM uses 2.

## What vLLM does
With a `kv-cache-dtype` of `turboquant_*` or `ultraquant_4bit`, `create_engine_config` logs
"TurboQuant is not yet compatible with FlashAttention >= 3. Overriding flash_attn_version
to 2." (vllm/engine/arg_utils.py:2759) and sets `attention-config.flash_attn_version` to 2,
whatever the file writes.

## Example
```yaml
model: Qwen/Qwen3-8B
kv-cache-dtype: turboquant_k8v4
attention-config:
  flash_attn_version: 3
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
kv-cache-dtype: turboquant_k8v4
attention-config:
  flash_attn_version: 2
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given, given_field, is_int, replace, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC381"
NAME = "packed-kv-flash-attn-version"
VLLM_SOURCE = "vllm/engine/arg_utils.py:2759"
CATALOGUE = ("warn.cli.packed_kv.flash_attn_version",)


def check(model: ConfigModel) -> Iterator[Finding]:
    dtype = given(model, "kv-cache-dtype")
    if dtype is None or not isinstance(dtype.value, str):
        return
    if not (dtype.value.startswith("turboquant_") or dtype.value == "ultraquant_4bit"):
        return
    version = given_field(model, "AttentionConfig", "flash_attn_version")
    if version is None or not is_int(version.value) or version.value < 3:
        return
    kind = "TurboQuant" if dtype.value.startswith("turboquant_") else "UltraQuant"
    yield warning(
        CODE,
        version,
        f"{kind} is not yet compatible with FlashAttention >= 3. Overriding "
        f"flash_attn_version to 2. Write `2` (`{dtype.label}` is {dtype.value}).",
        VLLM_SOURCE,
        [replace(model, version, 2, "Use `2`")],
        related=[dtype],
    )
