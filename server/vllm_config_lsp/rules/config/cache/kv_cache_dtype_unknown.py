"""`kv-cache-dtype` names a KV-cache data type vLLM does not have.

## What vLLM does
`--kv-cache-dtype` is a plain string for argparse (its type also admits any text, so the
choices in `--help` are not enforced). `CacheConfig._validate_cache_dtype` then refuses
anything outside `KV_CACHE_DTYPES` with `Invalid kv_cache_dtype: 'X'. Valid values are:
[...]` (vllm/config/cache.py:470-475), when the engine config is built, before any
weights are read. The names are case-sensitive (`FP8` is refused). The list is open: a
platform plugin calling `register_kv_cache_dtype` adds names at start-up.

## Example
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
kv-cache-dtype: fp8_e4m4
```

## Fixed
```yaml
model: meta-llama/Llama-3.1-8B-Instruct
kv-cache-dtype: fp8_e4m3
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Fix
from vllm_config_lsp.rules._engine import error, given, removal, replace
from vllm_config_lsp.rules.support import closest
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC310"
NAME = "kv-cache-dtype-unknown"
VLLM_SOURCE = "vllm/config/cache.py:472"
CATALOGUE = ("cache.cache_dtype.known",)

FLAG = "kv-cache-dtype"
VALUE_SET = "kv_cache_dtypes"


def check(model: ConfigModel) -> Iterator[Finding]:
    dtype = given(model, FLAG)
    known = model.catalogue.value_sets.get(VALUE_SET)
    if dtype is None or known is None or not isinstance(dtype.value, str):
        return
    if dtype.value in known:
        return
    names = [str(name) for name in known.values]
    message = f"Invalid kv_cache_dtype: {dtype.value!r}. Valid values are: {names}."
    fixes: list[Fix | None] = []
    suggestion = closest(dtype.value.lower(), names, cutoff=0.6)
    if suggestion is not None:
        message += f" Did you mean `{suggestion}`?"
        fixes.append(replace(model, dtype, suggestion, f"Replace with `{suggestion}`"))
    else:
        message += " Remove it to keep the model's own dtype (`auto`), or pick one above."
    if known.open:
        message += " (A platform plugin can register more names; without one, vLLM refuses.)"
    fixes.append(removal(model, dtype))
    yield error(CODE, dtype, message, VLLM_SOURCE, fixes)
