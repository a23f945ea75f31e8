"""`structured-outputs-config.backend: lm-format-enforcer`, deprecated in vLLM 0.33.

## What vLLM does
`StructuredOutputsConfig._validate_structured_output_config` logs "The lm-format-enforcer
structured outputs backend is deprecated and will be removed in v0.35.0. Use auto,
xgrammar, or guidance instead." (vllm/config/structured_outputs.py:78). It still works in
0.33 and 0.34; from 0.35 the value is refused.

## Example
```yaml
model: Qwen/Qwen3-8B
structured-outputs-config:
  backend: lm-format-enforcer
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
structured-outputs-config:
  backend: auto
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding
from vllm_config_lsp.rules._engine import given_field, replace, warning
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC373"
NAME = "lm-format-enforcer-deprecated"
VLLM_SOURCE = "vllm/config/structured_outputs.py:78"
CATALOGUE = ("warn.structured_outputs.lmfe.deprecated",)


def check(model: ConfigModel) -> Iterator[Finding]:
    backend = given_field(model, "StructuredOutputsConfig", "backend")
    if backend is None or backend.value != "lm-format-enforcer":
        return
    yield warning(
        CODE,
        backend,
        "The lm-format-enforcer structured outputs backend is deprecated and will be "
        "removed in v0.35.0. Use auto, xgrammar, or guidance instead. Write `auto` (vLLM "
        "picks xgrammar or guidance per request).",
        VLLM_SOURCE,
        [replace(model, backend, "auto", "Use `auto`")],
    )
