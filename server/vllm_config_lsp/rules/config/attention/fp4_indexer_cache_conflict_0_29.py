"""The deprecated `use_fp4_indexer_cache: true` next to an `indexer_kv_dtype` other than
`auto` or `mxfp4`, which vLLM 0.28.0 and 0.29.0 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC367`),
`AttentionConfig.__post_init__` migrates `use_fp4_indexer_cache: true` to
`indexer_kv_dtype: mxfp4` and refuses another data type given next to it:
"use_fp4_indexer_cache=True conflicts with indexer_kv_dtype='fp8'. Set only
indexer_kv_dtype." (vllm/config/attention.py:118-129 in 0.29.0), while the arguments are
parsed. Later releases dropped the switch.

## Example
```yaml
# vllm-config: version=0.29.0
model: deepseek-ai/DeepSeek-V3.2-Exp
attention-config: '{"use_fp4_indexer_cache": true, "indexer_kv_dtype": "fp8"}'
```

## Fixed
```yaml
# vllm-config: version=0.29.0
model: deepseek-ai/DeepSeek-V3.2-Exp
attention-config: '{"indexer_kv_dtype": "fp8"}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, given_field, json_given, removal
from vllm_config_lsp.rules._model_config import as_bool
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC367"
NAME = "fp4-indexer-cache-conflict-0-29"
#: Gone from the release the other rules transcribe: read from 0.29.0, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.29.0"
VLLM_SOURCE = "vllm/config/attention.py:126"
CLASS = "AttentionConfig"


def check(model: ConfigModel) -> Iterator[Finding]:
    switch = given_field(model, CLASS, "use_fp4_indexer_cache") or json_given(
        model, "attention-config", "use_fp4_indexer_cache"
    )
    dtype = given_field(model, CLASS, "indexer_kv_dtype") or json_given(
        model, "attention-config", "indexer_kv_dtype"
    )
    if switch is None or switch.value is None or not as_bool(switch.value) or dtype is None:
        return
    if dtype.value in ("auto", "mxfp4"):
        return
    yield error(
        CODE,
        switch,
        f"use_fp4_indexer_cache=True conflicts with indexer_kv_dtype={dtype.value!r}. Set only "
        f"indexer_kv_dtype. vLLM {model.version} refuses to start: remove "
        "`use_fp4_indexer_cache` (it stands for `indexer_kv_dtype: mxfp4`).",
        VLLM_SOURCE,
        [removal(model, switch)],
    )
