"""A flag's value is not one of the choices vLLM accepts.

## What vLLM does
Flags typed as a `Literal` get argparse `choices`; anything else stops the start with
`argument --dtype: invalid choice: 'fp16x' (choose from …)`. (Where vLLM's type also admits
any string, e.g. `kv-cache-dtype`, the choices are only suggestions and nothing is checked.)

## Example
```yaml
model: Qwen/Qwen3-8B
dtype: bfloat
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
dtype: bfloat16
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import argparse_prefix, closest, finding, replace_fix, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC202"
NAME = "invalid-choice"
VLLM_SOURCE = "vllm/engine/arg_utils.py:220"


def check(model: ConfigModel) -> Iterator[Finding]:
    for value in model.values:
        if value.error is None or value.error_token is None:
            continue
        if not value.error.startswith("invalid choice"):
            continue
        where = token_span(model, value.error_token)
        written = value.error_token.text
        choices = [str(c) for c in value.spec.choices or () if c is not None]
        suggestion = closest(written, choices, cutoff=0.5)
        fixes = []
        message = argparse_prefix(value.spec) + value.error
        if suggestion is not None:
            message += f": did you mean `{suggestion}`?"
            fixes.append(replace_fix(where, suggestion))
        yield finding(
            CODE,
            Severity.ERROR,
            where,
            message,
            source=value.spec.source or VLLM_SOURCE,
            fixes=fixes,
        )
