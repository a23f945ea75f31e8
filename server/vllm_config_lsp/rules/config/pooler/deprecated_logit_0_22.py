"""`pooler-config`'s deprecated `logit_bias` / `logit_scale` next to their successors, or
`logit_scale: 0`, which vLLM 0.20.2 to 0.22.1 refuse.

## What vLLM does
In the releases this rule names (`vllm-config-lsp rules VC365`), `PoolerConfig.__post_init__`
migrates `logit_bias` to `logit_mean` and `logit_scale` to `logit_sigma = 1 / logit_scale`,
and refuses, while the arguments are parsed (vllm/config/pooler.py:121-150 in 0.22.1):
both of a pair ("Cannot set both `logit_bias` and `logit_mean`. `logit_bias` is deprecated,
use `logit_mean` instead.", the same for `logit_scale` and `logit_sigma`), and
`logit_scale: 0` ("logit_scale cannot be 0 (division by zero)"). Later releases dropped
the deprecated keys.

## Example
```yaml
# vllm-config: version=0.22.1
model: BAAI/bge-reranker-v2-m3
pooler-config: '{"logit_bias": 0.5, "logit_mean": 0.5}'
```

## Fixed
```yaml
# vllm-config: version=0.22.1
model: BAAI/bge-reranker-v2-m3
pooler-config: '{"logit_mean": 0.5}'
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import error, json_given, removal
from vllm_config_lsp.rules._model_config import as_number
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC365"
NAME = "pooler-deprecated-logit-0-22"
#: Gone from the release the other rules transcribe: read from 0.22.1, run for the
#: releases whose wheel has the same check.
TRANSCRIBES = "0.22.1"
VLLM_SOURCE = "vllm/config/pooler.py:125"
SCALE_SOURCE = "vllm/config/pooler.py:139"
ZERO_SOURCE = "vllm/config/pooler.py:148"
#: (deprecated key, its successor, source of the refusal of both)
PAIRS = (("logit_bias", "logit_mean", VLLM_SOURCE), ("logit_scale", "logit_sigma", SCALE_SOURCE))


def check(model: ConfigModel) -> Iterator[Finding]:
    for old, new, source in PAIRS:
        was = json_given(model, "pooler-config", old)
        if was is None or was.value is None:
            continue
        now = json_given(model, "pooler-config", new)
        if now is not None and now.value is not None:
            yield error(
                CODE,
                was,
                f"Cannot set both `{old}` and `{new}`. `{old}` is deprecated, use `{new}` "
                f"instead. vLLM {model.version} refuses to start: remove `{old}`.",
                source,
                [removal(model, was)],
            )
            return  # vLLM stops at the first
        if old == "logit_scale" and as_number(was.value) == 0:
            yield error(
                CODE,
                was,
                f"logit_scale cannot be 0 (division by zero): vLLM {model.version} refuses to "
                "start (`logit_sigma` is 1 / `logit_scale`); give `logit_sigma` instead.",
                ZERO_SOURCE,
            )
