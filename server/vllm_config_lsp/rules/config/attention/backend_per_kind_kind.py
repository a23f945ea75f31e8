"""A key of `attention-config.backend_per_kind` is not a KV-cache group kind.

## What vLLM does
`AttentionConfig.validate_backend_per_kind_before` accepts only `KVCacheSpecKind` values
as keys (lower-case: `full_attention`, `sliding_window`, `mla_attention`, …) and stops the
start, while the arguments are parsed, with `Unknown KV cache group kind 'X' in
backend_per_kind. Valid kinds are: …` (vllm/config/attention.py:240-258). Keys are
matched exactly: `FULL_ATTENTION` is refused.

## Example
```yaml
model: google/gemma-3-27b-it
attention-config:
  backend_per_kind: {sliding: FLASH_ATTN}
```

## Fixed
```yaml
model: google/gemma-3-27b-it
attention-config:
  backend_per_kind: {sliding_window: FLASH_ATTN}
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import raw_node, value_set
from vllm_config_lsp.rules.support import closest, finding, rename_entry_fix
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC412"
NAME = "backend-per-kind-kind"
VLLM_SOURCE = "vllm/config/attention.py:256"
CATALOGUE = ("attention.backend_per_kind.kind",)


def check(model: ConfigModel) -> Iterator[Finding]:
    node = raw_node(model, "attention-config", "backend_per_kind")
    kinds = sorted(kind.lower() for kind in value_set(model, "kv_cache_spec_kinds"))
    if node is None or not node.is_object or not kinds:
        return
    for entry in node.entries or ():
        if entry.key in kinds:
            continue
        fixes = []
        guess = entry.key.lower() if entry.key.lower() in kinds else closest(entry.key, kinds)
        fix = (
            rename_entry_fix(model, node, entry, guess, title=f"Rename to `{guess}`", safe=False)
            if guess
            else None
        )
        if fix is not None:
            fixes.append(fix)
        yield finding(
            CODE,
            Severity.ERROR,
            (entry.key_start, entry.key_end),
            f"Unknown KV cache group kind '{entry.key}' in backend_per_kind. Valid kinds "
            f"are: {', '.join(kinds)}.",
            source=VLLM_SOURCE,
            fixes=fixes,
        )
        return  # vLLM stops at the first
