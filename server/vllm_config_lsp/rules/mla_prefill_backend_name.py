"""`attention-config.mla_prefill_backend` names an MLA prefill backend vLLM does not have.

## What vLLM does
`AttentionConfig.validate_mla_prefill_backend_before` looks the name up with
`MLAPrefillBackendEnum[value.upper()]`, which stops the start, while the arguments are
parsed, with `Unknown MLA prefill backend: 'X'. Valid options are: …`
(vllm/config/attention.py:232-238, vllm/v1/attention/backends/mla/prefill/registry.py:24-33).
There is no `auto` here: leave the option out to let vLLM choose.

## Example
```yaml
model: deepseek-ai/DeepSeek-V3
attention-config:
  mla_prefill_backend: flash_infer
```

## Fixed
```yaml
model: deepseek-ai/DeepSeek-V3
attention-config:
  mla_prefill_backend: FLASHINFER
```
"""

from collections.abc import Iterator

from ..config_model import ConfigModel
from ..findings import Finding, Severity
from ..rule_support import finding
from ._model_config import name_fixes, raw_node, value_set

CODE = "VC411"
NAME = "mla-prefill-backend-name"
VLLM_SOURCE = "vllm/config/attention.py:237"
CATALOGUE = ("attention.mla_prefill_backend.enum",)


def check(model: ConfigModel) -> Iterator[Finding]:
    node = raw_node(model, "attention-config", "mla_prefill_backend")
    names = value_set(model, "mla_prefill_backends")
    if node is None or not isinstance(node.value, str) or not names:
        return
    if node.value.upper() in names:
        return
    where = (node.start, node.end)
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"Unknown MLA prefill backend: '{node.value.upper()}'. Valid options are: "
        f"{', '.join(names)}. Use one of these names, or remove the option to let vLLM "
        "choose.",
        source=VLLM_SOURCE,
        fixes=name_fixes(where, node.value, names),
    )
