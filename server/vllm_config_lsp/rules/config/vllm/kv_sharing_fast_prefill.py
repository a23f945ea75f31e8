"""`kv-sharing-fast-prefill` is only correct for models written for it: a caution.

## What vLLM does
With `kv-sharing-fast-prefill` on (and no EAGLE-style speculative decoding, which
`VllmConfig.__post_init__` refuses just before), vLLM warns (vllm/config/vllm.py:2030):
"--kv-sharing-fast-prefill requires changes on model side for correctness and to realize
prefill savings." The flag is applied as written; the model decides whether the outputs stay
correct, so this is information.

## Example
```yaml
model: google/gemma-3n-E4B-it
kv-sharing-fast-prefill: true
```

## Fixed
```yaml
model: google/gemma-3n-E4B-it
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._engine import removal, switched_on
from vllm_config_lsp.rules._model_config import USE_EAGLE, spec
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC398"
NAME = "kv-sharing-fast-prefill"
VLLM_SOURCE = "vllm/config/vllm.py:2030"
CATALOGUE = ("warn.vllm.kv_sharing_fast_prefill",)


def check(model: ConfigModel) -> Iterator[Finding]:
    fast = switched_on(model, "kv-sharing-fast-prefill")
    config = spec(model)
    if fast is None or (config is not None and config.settled in USE_EAGLE):
        return  # VC342: refused (the method as VC342 reads it)
    fix = removal(model, fast, "Remove `kv-sharing-fast-prefill`")
    yield finding(
        CODE,
        Severity.INFO,
        fast.where,
        "--kv-sharing-fast-prefill requires changes on model side for correctness and to "
        "realize prefill savings. Keep it only for a model whose implementation supports "
        "fast prefill (one that shares KV across layers, e.g. Gemma 3n).",
        source=VLLM_SOURCE,
        fixes=[fix] if fix else [],
    )
