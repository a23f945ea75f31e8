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

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules._model_config import name_fixes, unknown_name, value_set
from vllm_config_lsp.rules.support import finding
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC411"
NAME = "mla-prefill-backend-name"
VLLM_SOURCE = "vllm/config/attention.py:237"
CATALOGUE = ("attention.mla_prefill_backend.enum",)


def check(model: ConfigModel) -> Iterator[Finding]:
    names = value_set(model, "mla_prefill_backends")
    hit = unknown_name(model, names, "attention-config", "mla_prefill_backend")
    if hit is None:
        return
    written, where = hit
    yield finding(
        CODE,
        Severity.ERROR,
        where,
        f"Unknown MLA prefill backend: '{written.upper()}'. Valid options are: "
        f"{', '.join(names)}. Use one of these names, or remove the option to let vLLM "
        "choose.",
        source=VLLM_SOURCE,
        fixes=name_fixes(where, written, names),
    )
