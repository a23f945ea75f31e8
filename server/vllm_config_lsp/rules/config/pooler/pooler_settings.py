"""`pooler-config` sets `logit_sigma: 0`, or `pooling_type` together with
`seq_pooling_type`/`tok_pooling_type`.

## What vLLM does
`PoolerConfig.__post_init__` stops the start, while the arguments are parsed, with
`logit_sigma cannot be 0 (division by zero)`, and with `Cannot set both `pooling_type` and
`seq_pooling_type`` (or `tok_pooling_type`): `pooling_type` is the older spelling that
vLLM resolves into one of the two (vllm/config/pooler.py:136-152).

## Example
```yaml
model: BAAI/bge-m3
pooler-config:
  pooling_type: CLS
  seq_pooling_type: MEAN
```

## Fixed
```yaml
model: BAAI/bge-m3
pooler-config:
  seq_pooling_type: MEAN
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import as_number, json_given, removal_fix
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC426"
NAME = "pooler-settings"
VLLM_SOURCE = "vllm/config/pooler.py:145"
CATALOGUE = ("pooler.sigma_zero", "pooler.pooling_type.seq", "pooler.pooling_type.tok")
SIGMA_SOURCE = "vllm/config/pooler.py:141"
TOK_SOURCE = "vllm/config/pooler.py:149"
FLAG = "pooler-config"


def check(model: ConfigModel) -> Iterator[Finding]:
    sigma = json_given(model, FLAG, "logit_sigma")
    if sigma is not None and as_number(sigma.value) == 0:
        yield finding(
            CODE,
            Severity.ERROR,
            sigma.span,
            "logit_sigma cannot be 0 (division by zero): use a non-zero scale, or remove "
            "it (no scaling).",
            source=SIGMA_SOURCE,
        )
        return
    old = json_given(model, FLAG, "pooling_type")
    if old is None or not old.value:
        return
    for field, source in (("seq_pooling_type", VLLM_SOURCE), ("tok_pooling_type", TOK_SOURCE)):
        new = json_given(model, FLAG, field)
        if new is None or new.value is None:
            continue
        removal = removal_fix(model, old, "Remove `pooling_type`")
        yield finding(
            CODE,
            Severity.ERROR,
            old.span,
            f"Cannot set both `pooling_type` and `{field}`: keep `{field}` "
            "(`pooling_type` is the older spelling of the same setting).",
            source=source,
            fixes=[removal] if removal else [],
        )
        return
