"""`minimax_m3_indexer_cp` is on with an index-cache dtype it cannot use.

## What vLLM does
The MiniMax-M3 indexer context-parallel path only has bf16 and fp8-e4m3 kernels.
`AttentionConfig.__post_init__` stops the start, while the arguments are parsed, with
`minimax_m3_indexer_cp requires a bf16 or fp8 e4m3 index cache (indexer_kv_dtype 'auto',
'bf16', 'fp8' or 'fp8_e4m3'), got '…'` (vllm/config/attention.py:186-196).

## Example
```yaml
model: MiniMaxAI/MiniMax-M3
attention-config:
  minimax_m3_indexer_cp: true
  indexer_kv_dtype: fp8_ds_mla
```

## Fixed
```yaml
model: MiniMaxAI/MiniMax-M3
attention-config:
  minimax_m3_indexer_cp: true
  indexer_kv_dtype: bf16
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_bool, json_given, removal_fix
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC413"
NAME = "indexer-cp-dtype"
VLLM_SOURCE = "vllm/config/attention.py:192"
CATALOGUE = ("attention.indexer_cp_dtype",)
ALLOWED = ("auto", "bf16", "fp8", "fp8_e4m3")


def check(model: ConfigModel) -> Iterator[Finding]:
    cp = json_given(model, "attention-config", "minimax_m3_indexer_cp")
    dtype = json_given(model, "attention-config", "indexer_kv_dtype")
    if cp is None or dtype is None or not as_bool(cp.value) or dtype.value in ALLOWED:
        return
    removal = removal_fix(model, dtype, "Remove `indexer_kv_dtype` (use `auto`)")
    yield finding(
        CODE,
        Severity.ERROR,
        dtype.span,
        "minimax_m3_indexer_cp requires a bf16 or fp8 e4m3 index cache (indexer_kv_dtype "
        f"'auto', 'bf16', 'fp8' or 'fp8_e4m3'), got {dtype.value!r}.",
        source=VLLM_SOURCE,
        fixes=[removal] if removal else [],
    )
