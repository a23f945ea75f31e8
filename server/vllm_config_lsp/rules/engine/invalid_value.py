"""A flag's value cannot be converted to the type the flag takes.

## What vLLM does
argparse converts each value with the flag's `type` (int, float, vLLM's human-readable int
parser, …) and stops with `argument --port: invalid int value: 'eighty'` when it fails.

## Example
```yaml
model: Qwen/Qwen3-8B
max-num-seqs: 12.5
```

## Fixed
```yaml
model: Qwen/Qwen3-8B
max-num-seqs: 12
```
"""

from collections.abc import Iterator

from vllm_config_lsp.findings import Finding, Severity
from vllm_config_lsp.rules.support import argparse_prefix, finding, token_span
from vllm_config_lsp.vllm.config_model import ConfigModel

CODE = "VC201"
NAME = "invalid-value"
VLLM_SOURCE = "vllm/engine/arg_utils.py:404"
CATALOGUE = ("cli.type_conversion", "cli.human_int.binary_decimal")


def check(model: ConfigModel) -> Iterator[Finding]:
    for value in model.values:
        if value.error is None or value.error_token is None or value.spec.is_json:
            continue
        if value.error.startswith("invalid choice"):
            continue  # VC202
        yield finding(
            CODE,
            Severity.ERROR,
            value.error_span or token_span(model, value.error_token),
            argparse_prefix(value.spec) + value.error,
            source=value.spec.source or VLLM_SOURCE,
        )
